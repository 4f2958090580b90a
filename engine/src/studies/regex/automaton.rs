//! Exact meaning of a regex of the subset ([`super::syntax`]): a Thompson automaton, whole-line
//! matching, and **equivalence**: whether two regexes accept exactly the same lines, decided by
//! exploring both automata in step (the product of their subset constructions) over an alphabet
//! that represents every character: each character a regex names, plus one character no regex
//! names (all such characters behave alike in every class and `.`). When they differ, the
//! shortest line that tells them apart comes back as the witness.

use std::collections::{HashMap, VecDeque};

use super::syntax::{Ast, CharSet, SyntaxError, parse};

/// States the product exploration may visit before it gives up (never reached by the task's
/// regexes; a guard against pathological model outputs).
const MAX_PAIRS: usize = 200_000;

#[derive(Clone, Debug, Default)]
struct State {
    eps: Vec<usize>,
    edges: Vec<(CharSet, usize)>,
}

/// A Thompson automaton with one start and one accepting state.
#[derive(Clone, Debug)]
pub struct Nfa {
    states: Vec<State>,
    start: usize,
    accept: usize,
}

impl Nfa {
    pub fn parse(text: &str) -> Result<Nfa, SyntaxError> {
        Ok(Nfa::from_ast(&parse(text)?))
    }

    pub fn from_ast(ast: &Ast) -> Nfa {
        let mut nfa = Nfa { states: Vec::new(), start: 0, accept: 0 };
        let (s, a) = nfa.build(ast);
        nfa.start = s;
        nfa.accept = a;
        nfa
    }

    fn new_state(&mut self) -> usize {
        self.states.push(State::default());
        self.states.len() - 1
    }

    /// A fragment for `ast`: (entry, exit).
    fn build(&mut self, ast: &Ast) -> (usize, usize) {
        match ast {
            Ast::Empty => {
                let s = self.new_state();
                (s, s)
            }
            Ast::Set(set) => {
                let (s, e) = (self.new_state(), self.new_state());
                self.states[s].edges.push((set.clone(), e));
                (s, e)
            }
            Ast::Concat(items) => {
                let (start, mut end) = self.build(&items[0]);
                for item in &items[1..] {
                    let (s, e) = self.build(item);
                    self.states[end].eps.push(s);
                    end = e;
                }
                (start, end)
            }
            Ast::Alt(branches) => {
                let (s, e) = (self.new_state(), self.new_state());
                for b in branches {
                    let (bs, be) = self.build(b);
                    self.states[s].eps.push(bs);
                    self.states[be].eps.push(e);
                }
                (s, e)
            }
            Ast::Repeat { inner, min, max } => self.repeat(inner, *min, *max),
        }
    }

    /// `min` required copies, then `max - min` optional ones (or one starred copy).
    fn repeat(&mut self, inner: &Ast, min: u32, max: Option<u32>) -> (usize, usize) {
        let start = self.new_state();
        let mut end = start;
        for _ in 0..min {
            let (s, e) = self.build(inner);
            self.states[end].eps.push(s);
            end = e;
        }
        match max {
            None => {
                let (s, e) = self.build(inner);
                let out = self.new_state();
                self.states[end].eps.extend([s, out]);
                self.states[e].eps.extend([s, out]);
                end = out;
            }
            Some(max) => {
                let out = self.new_state();
                for _ in min..max {
                    let (s, e) = self.build(inner);
                    self.states[end].eps.extend([s, out]);
                    end = e;
                }
                self.states[end].eps.push(out);
                end = out;
            }
        }
        (start, end)
    }

    /// The epsilon closure of `set`, sorted and without repeats.
    fn closure(&self, set: &[usize]) -> Vec<usize> {
        let mut seen = vec![false; self.states.len()];
        let mut stack: Vec<usize> = set.to_vec();
        let mut out = Vec::new();
        while let Some(s) = stack.pop() {
            if std::mem::replace(&mut seen[s], true) {
                continue;
            }
            out.push(s);
            stack.extend(self.states[s].eps.iter().copied());
        }
        out.sort_unstable();
        out
    }

    fn step(&self, set: &[usize], c: char) -> Vec<usize> {
        let next: Vec<usize> =
            set.iter().flat_map(|&s| self.states[s].edges.iter().filter(|(cs, _)| cs.contains(c)).map(|&(_, t)| t)).collect();
        self.closure(&next)
    }

    fn start_set(&self) -> Vec<usize> {
        self.closure(&[self.start])
    }

    fn accepting(&self, set: &[usize]) -> bool {
        set.binary_search(&self.accept).is_ok()
    }

    /// Whether the regex matches the whole of `line`.
    pub fn accepts(&self, line: &str) -> bool {
        let mut set = self.start_set();
        for c in line.chars() {
            set = self.step(&set, c);
            if set.is_empty() {
                return false;
            }
        }
        self.accepting(&set)
    }

    fn named_chars(&self, into: &mut Vec<char>) {
        for st in &self.states {
            for (set, _) in &st.edges {
                for &(a, b) in &set.ranges {
                    into.extend(a..=b);
                }
            }
        }
    }
}

/// Whether two regexes accept the same lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Equivalence {
    Same,
    /// The shortest line (in characters) one accepts and the other does not; `first_accepts`
    /// says which.
    Differ {
        witness: String,
        first_accepts: bool,
    },
    /// The exploration passed its bound; no verdict.
    TooLarge,
}

/// Decides [`Equivalence`] of `a` and `b` exactly.
pub fn equivalent(a: &Nfa, b: &Nfa) -> Equivalence {
    let mut alphabet = Vec::new();
    a.named_chars(&mut alphabet);
    b.named_chars(&mut alphabet);
    alphabet.sort_unstable();
    alphabet.dedup();
    if let Some(other) = (' '..='~').chain('\u{a1}'..).find(|c| alphabet.binary_search(c).is_err()) {
        alphabet.push(other);
    }
    let start = (a.start_set(), b.start_set());
    // A pair of state sets, one per automaton; each reached pair keeps the pair and letter it came from.
    type Pair = (Vec<usize>, Vec<usize>);
    let mut parent: HashMap<Pair, Option<(Pair, char)>> = HashMap::new();
    parent.insert(start.clone(), None);
    let mut queue = VecDeque::from([start]);
    while let Some(pair) = queue.pop_front() {
        let (acc_a, acc_b) = (a.accepting(&pair.0), b.accepting(&pair.1));
        if acc_a != acc_b {
            return Equivalence::Differ { witness: path_to(&parent, &pair), first_accepts: acc_a };
        }
        for &c in &alphabet {
            let next = (a.step(&pair.0, c), b.step(&pair.1, c));
            if next.0.is_empty() && next.1.is_empty() || parent.contains_key(&next) {
                continue;
            }
            if parent.len() >= MAX_PAIRS {
                return Equivalence::TooLarge;
            }
            parent.insert(next.clone(), Some((pair.clone(), c)));
            queue.push_back(next);
        }
    }
    Equivalence::Same
}

type Pair = (Vec<usize>, Vec<usize>);

fn path_to(parent: &HashMap<Pair, Option<(Pair, char)>>, end: &Pair) -> String {
    let mut chars = Vec::new();
    let mut at = end.clone();
    while let Some(Some((prev, c))) = parent.get(&at) {
        chars.push(*c);
        at = prev.clone();
    }
    chars.iter().rev().collect()
}

/// Both texts parsed and compared: `Ok(true)` when they accept the same lines. A text outside
/// the subset is an error naming which.
pub fn same_language(a: &str, b: &str) -> Result<bool, String> {
    let na = Nfa::parse(a).map_err(|e| format!("{a}: {e}"))?;
    let nb = Nfa::parse(b).map_err(|e| format!("{b}: {e}"))?;
    match equivalent(&na, &nb) {
        Equivalence::Same => Ok(true),
        Equivalence::Differ { .. } => Ok(false),
        Equivalence::TooLarge => Err(format!("{a} vs {b}: too large to compare")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nfa(r: &str) -> Nfa {
        Nfa::parse(r).unwrap()
    }

    #[test]
    fn matching_is_whole_line() {
        let dog_twice = nfa("(.*dog){2,}.*");
        assert!(dog_twice.accepts("a dog and a dog"));
        assert!(dog_twice.accepts("dogdog"));
        assert!(!dog_twice.accepts("one dog"));
        assert!(nfa(".*dog.*").accepts("dog") && !nfa("dog").accepts("dogs"));
        assert!(nfa(".{3}").accepts("abc") && !nfa(".{3}").accepts("ab") && !nfa(".{3}").accepts("abcd"));
        assert!(nfa("[^0-9]*").accepts("") && !nfa("[^0-9]*").accepts("a1"));
        assert!(nfa("a{2,3}").accepts("aaa") && !nfa("a{2,3}").accepts("aaaa") && !nfa("a{2,3}").accepts("a"));
        assert!(nfa("(ab|c)?d").accepts("d") && nfa("(ab|c)?d").accepts("abd") && !nfa("(ab|c)?d").accepts("acd"));
    }

    #[test]
    fn equivalent_rewrites_are_the_same_language() {
        for (a, b) in [
            (".*(dog|cat).*", ".*(cat|dog).*"),
            (".*(dog.*cat|cat.*dog).*", ".*dog.*cat.*|.*cat.*dog.*"),
            ("(.*dog){2,}.*", ".*dog.*dog.*"),
            ("[a-z]+", "[a-z][a-z]*"),
            ("a{2,}", "aa+"),
            (".{2}", ".."),
            ("[aeiou]", "a|e|i|o|u"),
        ] {
            assert_eq!(same_language(a, b), Ok(true), "{a} vs {b}");
        }
    }

    #[test]
    fn different_languages_come_with_the_shortest_witness() {
        let cases = [(".*dog.*", "dog.*", "adog", true), (".{3,}", ".{3}", "aaaa", true), ("[^0-9]*", "[a-z]*", "A", true)];
        for (a, b, witness_len_of, first) in cases {
            match equivalent(&nfa(a), &nfa(b)) {
                Equivalence::Differ { witness, first_accepts } => {
                    assert_eq!(witness.chars().count(), witness_len_of.chars().count(), "{a} vs {b}: {witness:?}");
                    assert_eq!(first_accepts, first);
                    assert_ne!(nfa(a).accepts(&witness), nfa(b).accepts(&witness));
                }
                other => panic!("{a} vs {b}: {other:?}"),
            }
        }
        // A character neither names still counts: `.` accepts it, a class does not.
        assert_eq!(same_language(".", "[a-z]"), Ok(false));
        assert_eq!(same_language("(.*dog){2,}.*", "(.*dog){3,}.*"), Ok(false));
    }

    #[test]
    fn a_syntax_error_names_the_text() {
        let e = same_language("(dog", ".*").unwrap_err();
        assert!(e.starts_with("(dog: "), "{e}");
    }
}
