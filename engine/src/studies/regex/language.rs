//! The paired views of the regex task (the LLM-JEPA paper's NL-to-regex, in the spirit of NL-RX's
//! synthetic grammar): a small grammar of **meanings** ("lines containing X followed by Y"), each
//! with its English descriptions and its one canonical regex. Every pair is enumerated, so the
//! data is a pure function of this file.
//!
//! - **Things** X, Y: 12 words (`the word dog` / `dog` -> `dog`) and 4 character classes
//!   (`a vowel` -> `[aeiou]`, `a digit` / `a number` -> `[0-9]`, ...).
//! - **Meanings**: contains, starts with, ends with, made of repeats, without (classes), exact
//!   and minimum length (of any character or of one class), X followed by Y, X or Y, both X and
//!   Y, starts with X and ends with Y, X at least N times, X then Y then Z, X or Y or Z (a fifth
//!   of the ordered triples). Counts are written as digits or words ("3", "three"); some
//!   phrasings name the things in the other order ("lines where Y comes after X"). Up to
//!   [`PARAPHRASES`] descriptions per meaning.
//! - **Split**: by meaning, so no test regex (nor a test meaning written in another order:
//!   "X or Y" is "Y or X") is ever trained on: FNV-1a-64 of the meaning's key `% 100` in `0..15`
//!   is test, `15..20` validation, else train (the project's shared rule, `part_by_hash`).

use crate::tasks::split::{Part, fnv1a64, part_by_hash};

/// Descriptions kept per meaning (chosen by hash among every phrasing).
pub const PARAPHRASES: usize = 3;

pub const WORDS: [&str; 12] = ["dog", "cat", "truck", "bird", "tree", "apple", "house", "car", "fish", "book", "sun", "ring"];

/// A character class: (regex, its negation, phrasings, plural).
const CLASSES: [(&str, &str, &[&str], &str); 4] = [
    ("[aeiou]", "[^aeiou]", &["a vowel"], "vowels"),
    ("[a-z]", "[^a-z]", &["a lower-case letter", "a small letter"], "lower-case letters"),
    ("[A-Z]", "[^A-Z]", &["a capital letter", "an upper-case letter"], "capital letters"),
    ("[0-9]", "[^0-9]", &["a digit", "a number"], "digits"),
];

/// Something a line can contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Thing {
    Word(usize),
    Class(usize),
}

impl Thing {
    pub fn all() -> Vec<Thing> {
        (0..WORDS.len()).map(Thing::Word).chain((0..CLASSES.len()).map(Thing::Class)).collect()
    }

    pub fn regex(self) -> String {
        match self {
            Thing::Word(w) => WORDS[w].to_string(),
            Thing::Class(c) => CLASSES[c].0.to_string(),
        }
    }

    /// The regex as one repeatable unit (a word needs a group).
    fn unit(self) -> String {
        match self {
            Thing::Word(w) => format!("({})", WORDS[w]),
            Thing::Class(c) => CLASSES[c].0.to_string(),
        }
    }

    fn phrasings(self) -> Vec<String> {
        match self {
            Thing::Word(w) => vec![format!("the word {}", WORDS[w]), WORDS[w].to_string()],
            Thing::Class(c) => CLASSES[c].2.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn key(self) -> String {
        match self {
            Thing::Word(w) => WORDS[w].to_string(),
            Thing::Class(c) => CLASSES[c].0.to_string(),
        }
    }
}

/// How a count is written: the digit and the word.
fn counts(n: u32) -> [String; 2] {
    const WORDS_OF: [&str; 10] = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    [n.to_string(), WORDS_OF[n as usize].to_string()]
}

/// What a description means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Meaning {
    Contains(Thing),
    StartsWith(Thing),
    EndsWith(Thing),
    Only(Thing),
    /// No character of the class (classes only).
    Without(usize),
    LengthExactly(u32),
    LengthAtLeast(u32),
    /// Exactly / at least n characters of a class and nothing else.
    ClassExactly(usize, u32),
    ClassAtLeast(usize, u32),
    Followed(Thing, Thing),
    Either(Thing, Thing),
    Both(Thing, Thing),
    StartEnd(Thing, Thing),
    Times(Thing, u32),
    Followed3(Thing, Thing, Thing),
    Either3(Thing, Thing, Thing),
}

/// Triples kept: one in [`TRIPLE_SHARE`] by the hash of the ordered triple (all 6,720 would
/// outnumber every other family).
const TRIPLE_SHARE: u64 = 5;

impl Meaning {
    /// Every meaning, in a fixed order.
    pub fn all() -> Vec<Meaning> {
        let things = Thing::all();
        let mut out = Vec::new();
        for &x in &things {
            out.extend([Meaning::Contains(x), Meaning::StartsWith(x), Meaning::EndsWith(x), Meaning::Only(x)]);
            out.extend((2..=4).map(|n| Meaning::Times(x, n)));
        }
        out.extend((0..CLASSES.len()).map(Meaning::Without));
        out.extend((2..=9).flat_map(|n| [Meaning::LengthExactly(n), Meaning::LengthAtLeast(n)]));
        for c in 0..CLASSES.len() {
            out.extend((2..=9).flat_map(|n| [Meaning::ClassExactly(c, n), Meaning::ClassAtLeast(c, n)]));
        }
        for &x in &things {
            for &y in things.iter().filter(|&&y| y != x) {
                out.extend([Meaning::Followed(x, y), Meaning::Either(x, y), Meaning::Both(x, y), Meaning::StartEnd(x, y)]);
            }
        }
        for &x in &things {
            for &y in things.iter().filter(|&&y| y != x) {
                for &z in things.iter().filter(|&&z| z != x && z != y) {
                    for m in [Meaning::Followed3(x, y, z), Meaning::Either3(x, y, z)] {
                        if fnv1a64(&format!("{m:?}")).is_multiple_of(TRIPLE_SHARE) {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out
    }

    /// The canonical regex.
    pub fn regex(self) -> String {
        match self {
            Meaning::Contains(x) => format!(".*{}.*", x.regex()),
            Meaning::StartsWith(x) => format!("{}.*", x.regex()),
            Meaning::EndsWith(x) => format!(".*{}", x.regex()),
            Meaning::Only(x) => format!("{}+", x.unit()),
            Meaning::Without(c) => format!("{}*", CLASSES[c].1),
            Meaning::LengthExactly(n) => format!(".{{{n}}}"),
            Meaning::LengthAtLeast(n) => format!(".{{{n},}}"),
            Meaning::ClassExactly(c, n) => format!("{}{{{n}}}", CLASSES[c].0),
            Meaning::ClassAtLeast(c, n) => format!("{}{{{n},}}", CLASSES[c].0),
            Meaning::Followed(x, y) => format!(".*{}.*{}.*", x.regex(), y.regex()),
            Meaning::Either(x, y) => format!(".*({}|{}).*", x.regex(), y.regex()),
            Meaning::Both(x, y) => format!(".*({x}.*{y}|{y}.*{x}).*", x = x.regex(), y = y.regex()),
            Meaning::StartEnd(x, y) => format!("{}.*{}", x.regex(), y.regex()),
            Meaning::Times(x, n) => format!("(.*{}){{{n},}}.*", x.regex()),
            Meaning::Followed3(x, y, z) => format!(".*{}.*{}.*{}.*", x.regex(), y.regex(), z.regex()),
            Meaning::Either3(x, y, z) => format!(".*({}|{}|{}).*", x.regex(), y.regex(), z.regex()),
        }
    }

    /// Every phrasing of the meaning.
    pub fn all_descriptions(self) -> Vec<String> {
        match self {
            Meaning::Contains(x) => fill(&["lines containing {X}", "lines that contain {X}", "lines with {X}"], &[x]),
            Meaning::StartsWith(x) => fill(&["lines starting with {X}", "lines that begin with {X}", "lines beginning with {X}"], &[x]),
            Meaning::EndsWith(x) => fill(&["lines ending with {X}", "lines that end with {X}"], &[x]),
            Meaning::Only(x) => fill(&["lines made only of {X} repeated", "lines that are {X} one or more times"], &[x]),
            Meaning::Without(c) => fill(&["lines without {X}", "lines that do not contain {X}", "lines with no {X}"], &[Thing::Class(c)]),
            Meaning::LengthExactly(n) => with_count(&["lines of exactly {N} characters", "lines with exactly {N} characters"], n, &[]),
            Meaning::LengthAtLeast(n) => with_count(&["lines of at least {N} characters", "lines with {N} or more characters"], n, &[]),
            Meaning::ClassExactly(c, n) => with_count(
                &[&format!("lines of exactly {{N}} {}", CLASSES[c].3), &format!("lines made of {{N}} {} and nothing else", CLASSES[c].3)],
                n,
                &[],
            ),
            Meaning::ClassAtLeast(c, n) => with_count(
                &[&format!("lines of at least {{N}} {}", CLASSES[c].3), &format!("lines made only of {} , {{N}} or more", CLASSES[c].3)],
                n,
                &[],
            ),
            Meaning::Followed(x, y) => fill(
                &[
                    "lines with {X} followed by {Y}",
                    "lines containing {X} before {Y}",
                    "lines where {Y} comes after {X}",
                    "lines with {Y} preceded by {X}",
                ],
                &[x, y],
            ),
            Meaning::Either(x, y) => fill(&["lines containing {X} or {Y}", "lines with either {X} or {Y}"], &[x, y]),
            Meaning::Both(x, y) => fill(&["lines containing both {X} and {Y}", "lines with {X} and also {Y}"], &[x, y]),
            Meaning::StartEnd(x, y) => fill(
                &[
                    "lines starting with {X} and ending with {Y}",
                    "lines that begin with {X} and end with {Y}",
                    "lines ending with {Y} and starting with {X}",
                ],
                &[x, y],
            ),
            Meaning::Times(x, n) => {
                let mut out = with_count(&["lines with {X} at least {N} times", "lines containing {X} {N} or more times"], n, &[x]);
                if n == 2 {
                    out.extend(fill(&["lines with {X} at least twice"], &[x]));
                }
                out
            }
            Meaning::Followed3(x, y, z) => fill(
                &[
                    "lines with {X} followed by {Y} followed by {Z}",
                    "lines containing {X} then {Y} then {Z}",
                    "lines where {Z} comes after {Y} which comes after {X}",
                ],
                &[x, y, z],
            ),
            Meaning::Either3(x, y, z) => fill(&["lines containing {X} , {Y} or {Z}", "lines with either {X} or {Y} or {Z}"], &[x, y, z]),
        }
    }

    /// The key the split hashes: the same for a symmetric meaning written in any order.
    pub fn split_key(self) -> String {
        let sorted = |xs: &mut [Thing]| {
            xs.sort();
            xs.iter().map(|t| t.key()).collect::<Vec<_>>().join(" ")
        };
        match self {
            Meaning::Either(x, y) => format!("either {}", sorted(&mut [x, y])),
            Meaning::Both(x, y) => format!("both {}", sorted(&mut [x, y])),
            Meaning::Either3(x, y, z) => format!("either {}", sorted(&mut [x, y, z])),
            m => m.regex(),
        }
    }

    pub fn part(self) -> Part {
        let h = fnv1a64(&self.split_key());
        part_by_hash(h, h % 100 < 15)
    }
}

/// Every way of filling `{X}`, `{Y}`, `{Z}` of every template with the things' phrasings.
fn fill(templates: &[&str], things: &[Thing]) -> Vec<String> {
    let mut out: Vec<String> = templates.iter().map(|t| t.to_string()).collect();
    for (slot, thing) in ["{X}", "{Y}", "{Z}"].iter().zip(things) {
        out = out.iter().flat_map(|t| thing.phrasings().into_iter().map(move |p| t.replace(slot, &p))).collect();
    }
    out
}

/// [`fill`], with `{N}` written as a digit and as a word.
fn with_count(templates: &[&str], n: u32, things: &[Thing]) -> Vec<String> {
    let counted: Vec<String> = templates.iter().flat_map(|t| counts(n).map(|c| t.replace("{N}", &c))).collect();
    fill(&counted.iter().map(String::as_str).collect::<Vec<_>>(), things)
}

/// The training pairs of a low-data run: the meanings whose split hash `h` has `(h / 100) % 10
/// < tenths` (a pure rule, independent of the split's own `h % 100`), so `tenths = 1` keeps about
/// a tenth of the training meanings with all their descriptions.
pub fn training_subset(tenths: u64) -> Vec<Pair> {
    pairs(Part::Train).into_iter().filter(|p| (fnv1a64(&p.meaning.split_key()) / 100) % 10 < tenths).collect()
}

/// One example: a description and its canonical regex.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub description: String,
    pub regex: String,
    pub meaning: Meaning,
}

/// Every pair of `part`, in a fixed order: per meaning, up to [`PARAPHRASES`] of its phrasings,
/// those with the smallest FNV-1a-64 of their text.
pub fn pairs(part: Part) -> Vec<Pair> {
    let mut out = Vec::new();
    for meaning in Meaning::all().into_iter().filter(|m| m.part() == part) {
        let mut ds = meaning.all_descriptions();
        ds.sort_by_key(|d| fnv1a64(d));
        ds.dedup();
        for description in ds.into_iter().take(PARAPHRASES) {
            out.push(Pair { description, regex: meaning.regex(), meaning });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studies::regex::automaton::{Nfa, same_language};
    use std::collections::HashSet;

    #[test]
    fn every_regex_parses_and_means_its_description() {
        let dog = Thing::Word(0);
        let digit = Thing::Class(3);
        let check = |m: Meaning, yes: &[&str], no: &[&str]| {
            let nfa = Nfa::parse(&m.regex()).unwrap();
            for s in yes {
                assert!(nfa.accepts(s), "{m:?} {} should accept {s:?}", m.regex());
            }
            for s in no {
                assert!(!nfa.accepts(s), "{m:?} {} should reject {s:?}", m.regex());
            }
        };
        check(Meaning::Followed(dog, digit), &["dog 7", "a dog4"], &["7 dog", "dog"]);
        check(Meaning::Both(dog, digit), &["dog 7", "7 dog"], &["dog", "77"]);
        check(Meaning::Times(dog, 3), &["dog dog dog"], &["dog dog"]);
        check(Meaning::Only(dog), &["dogdog"], &["", "dog dog"]);
        check(Meaning::Without(3), &["", "abc"], &["a1"]);
        check(Meaning::StartEnd(digit, dog), &["1 dog"], &["dog 1"]);
        check(Meaning::Followed3(dog, digit, Thing::Class(0)), &["dog 1 a", "xdog1ax"], &["dog a 1", "1 dog a"]);
        check(Meaning::Either3(dog, digit, Thing::Class(0)), &["dog", "7", "xax"], &["xyz"]);
        check(Meaning::ClassExactly(3, 3), &["123"], &["12", "1234", "12a"]);
        check(Meaning::ClassAtLeast(0, 2), &["ae", "aeiou"], &["a", "ab"]);
        for m in Meaning::all() {
            Nfa::parse(&m.regex()).unwrap_or_else(|e| panic!("{m:?}: {e}"));
        }
    }

    #[test]
    fn the_split_keeps_a_meaning_and_its_mirror_together() {
        let all = Meaning::all();
        assert!((2_000..3_000).contains(&all.len()), "{} meanings", all.len());
        let mut seen = HashSet::new();
        for m in &all {
            assert!(seen.insert(m.regex()), "two meanings share the regex {}", m.regex());
            if let Meaning::Either(x, y) = m {
                assert_eq!(m.part(), Meaning::Either(*y, *x).part());
                assert_eq!(same_language(&m.regex(), &Meaning::Either(*y, *x).regex()), Ok(true));
            }
            if let Meaning::Both(x, y) = m {
                assert_eq!(m.part(), Meaning::Both(*y, *x).part());
            }
            if let Meaning::Either3(x, y, z) = m {
                assert_eq!(m.part(), Meaning::Either3(*z, *x, *y).part());
            }
        }
        let counts: Vec<usize> = [Part::Train, Part::Validation, Part::Test].iter().map(|&p| pairs(p).len()).collect();
        let total: usize = counts.iter().sum();
        assert!(counts[2] * 100 > total * 10 && counts[2] * 100 < total * 20, "test share {counts:?}");
        assert!(counts[1] * 100 > total * 2 && counts[1] * 100 < total * 8, "validation share {counts:?}");
        let train: HashSet<String> = pairs(Part::Train).into_iter().map(|p| p.regex).collect();
        assert!(pairs(Part::Test).iter().all(|p| !train.contains(&p.regex)), "no test regex is trained on");
    }
}
