//! A fuzzer for every page's URL parser: random, structured and mutated query strings (a seeded
//! xorshift, so a failure is reproducible). Each input must give a state and readable notes,
//! never a panic, and the state's own query must read back to the same state with no note.
//!
//! `FUZZ_ITERS` sets the inputs per page (default 20,000, about a second in release);
//! `FUZZ_SEED` the generator's seed. Run with `-- --nocapture` to see the counts and timings.

use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use engine::gram::noise::NoiseSource;
use engine::tasks::nqueens::Board;
use engine::tasks::sudoku::Difficulty;
use engine::tasks::tree::TreeTask;

use super::page::UrlState;
use super::query::encode;
use crate::ui::coloring::url::{ColoringSettings, held_out as coloring_held_out};
use crate::ui::generate::url::GenerateSettings;
use crate::ui::jepa::url::JepaSettings;
use crate::ui::nqueens::url::{NQueensSettings, held_out};
use crate::ui::sudoku::url::SudokuSettings;
use crate::ui::train::url::TrainSettings;
use crate::ui::tree::url::{PAPER_EXAMPLE, TreeSettings};

/// xorshift64* (Vigna): small, fast, good enough to pick bytes.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.trim().replace('_', "").parse().ok()).unwrap_or(default)
}

/// Pieces of text that tend to break parsers: separators, escapes, signs, exponents, non-ASCII.
const ATOMS: &[&str] = &[
    "&", "=", "?", "#", "+", "%", "%2", "%zz", "%00", "%FF", "%C3", "%C3%A9", "%E2%82", "%26", "%3D", "%25", "%2B", "%20", "-", ".", "e",
    "E", "e309", "e-400", "0x", "_", ",", " ", "\t", "\n", "\0", "é", "🦀", "\u{202E}", "\u{FEFF}", "\u{FFFD}", "[ROOT]", "[TARGET]",
    "[ROUTE]", "[", "]", "Q", "q", "..", "NaN", "inf", "-inf", "infinity", "1", "0", "9", "10",
];

/// Values the readers see: numbers near every limit, words of every enum, odd spellings.
const VALUES: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "3",
    "4",
    "8",
    "16",
    "17",
    "20",
    "32",
    "33",
    "64",
    "65",
    "-1",
    "+1",
    "+0",
    "-0",
    "00001",
    "1.0",
    "1.",
    ".5",
    "0.05",
    "0.049999",
    "0.5",
    "0.51",
    "0.15",
    "2.95",
    "2.96",
    "3",
    "3.0",
    "3.05",
    "3.0000000001",
    "1e0",
    "1e-300",
    "1e309",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "Infinity",
    "1000000000",
    "1000000001",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "-9223372036854775808",
    "0x10",
    "1_000",
    " 5",
    "5 ",
    "gram",
    "trm",
    "GRAM",
    "auto",
    "webgpu",
    "cpu",
    "CPU",
    " cpu",
    "true",
    "yes",
];

/// Keys of every page and some that no page reads.
const KEYS: &[&str] =
    &["board", "model", "puzzle", "tree", "noise", "n", "scale", "seed", "steps", "backend", "run", "", "N", "x", "é", "run ", "%6E"];

fn random_text(rng: &mut Rng, max: usize) -> String {
    let len = rng.below(max + 1);
    let mut s = String::new();
    for _ in 0..len {
        match rng.below(4) {
            0 => s.push_str(ATOMS[rng.below(ATOMS.len())]),
            1 => s.push(char::from_u32(rng.below(0x80) as u32).unwrap_or('?')),
            2 => s.push(char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('\u{FFFD}')),
            _ => s.push(*rng.pick(&['.', 'Q', '1', '5', '9', 'A', 'B', 'Z', ',', ' '])),
        }
    }
    s
}

/// Up to four edits: cut, insert, replace, duplicate or swap stretches of characters.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut c: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(c.len() + 1);
        let len = rng.below(8).min(c.len() - at.min(c.len()));
        match rng.below(6) {
            0 => {
                c.drain(at..at + len);
            }
            1 => {
                let ins: Vec<char> = random_text(rng, 6).chars().collect();
                c.splice(at..at, ins);
            }
            2 if at < c.len() => c[at] = *rng.pick(&['.', 'Q', 'q', '0', '7', 'A', 'K', '&', '=', '%', '+', 'é']),
            3 => {
                let piece: Vec<char> = c[at..at + len].to_vec();
                c.splice(at..at, piece);
            }
            4 if !c.is_empty() => {
                let (i, j) = (rng.below(c.len()), rng.below(c.len()));
                c.swap(i, j);
            }
            _ => c.truncate(at),
        }
    }
    c.into_iter().collect()
}

/// A query of 0-8 pairs from the known keys, with values from `VALUES`, the page's own texts
/// (often mutated) or random text; sometimes percent-encoded.
fn structured(rng: &mut Rng, own: &[(&str, String)]) -> String {
    let mut pairs = Vec::new();
    for _ in 0..rng.below(9) {
        let (key, value) = match rng.below(5) {
            0 | 1 => (rng.pick(KEYS).to_string(), rng.pick(VALUES).to_string()),
            2 => {
                let (k, v) = rng.pick(own);
                let v = if rng.below(2) == 0 { mutate(rng, v) } else { v.clone() };
                (k.to_string(), v)
            }
            3 => (rng.pick(KEYS).to_string(), random_text(rng, 12)),
            _ => (random_text(rng, 4), random_text(rng, 8)),
        };
        let value = if rng.below(3) == 0 { encode(&value) } else { value };
        pairs.push(if rng.below(20) == 0 { key } else { format!("{key}={value}") });
    }
    let q = pairs.join("&");
    if rng.below(4) == 0 { format!("?{q}") } else { q }
}

/// What one input gave: some value was noted, some value was taken.
#[derive(Default)]
struct Outcome {
    noted: bool,
    changed: bool,
}

/// One input: the page's state or notes, never a panic; notes that read as notes; a query that
/// reproduces the state.
fn check<S: UrlState + PartialEq + Debug>(input: &str) -> Result<Outcome, String> {
    let (state, notes) = S::from_query(input);
    if let Some(n) = notes.iter().find(|n| !n.starts_with("Ignored ") || !n.ends_with('.')) {
        return Err(format!("unreadable note {n:?}"));
    }
    let query = state.to_query();
    let (again, notes_again) = S::from_query(&query);
    if again != state || !notes_again.is_empty() {
        return Err(format!("its query {query:?} reads back differently ({notes_again:?})"));
    }
    Ok(Outcome { noted: !notes.is_empty(), changed: state != S::default() })
}

struct Target {
    name: &'static str,
    check: fn(&str) -> Result<Outcome, String>,
    /// Queries people share (e2e links, defaults, generated states).
    queries: Vec<String>,
    /// The page's own keys with good values, to mutate.
    own: Vec<(&'static str, String)>,
}

fn fuzz(target: Target) {
    let iters: usize = env_or("FUZZ_ITERS", 20_000);
    let seed: u64 = env_or("FUZZ_SEED", 0x5EED_0017);
    let mut rng = Rng::new(seed ^ target.name.len() as u64);
    let (mut panics, mut violations) = (Vec::new(), Vec::new());
    let (mut noted, mut changed) = (0usize, 0usize);
    let t0 = Instant::now();
    for _ in 0..iters {
        let input = match rng.below(5) {
            0 => random_text(&mut rng, 40),
            1 | 2 => structured(&mut rng, &target.own),
            3 => {
                let q = rng.pick(&target.queries).clone();
                mutate(&mut rng, &q)
            }
            _ => {
                let q = structured(&mut rng, &target.own);
                format!("{}&{q}", rng.pick(&target.queries))
            }
        };
        match catch_unwind(AssertUnwindSafe(|| (target.check)(&input))) {
            Ok(Ok(outcome)) => {
                noted += outcome.noted as usize;
                changed += outcome.changed as usize;
            }
            Ok(Err(why)) => violations.push(format!("{input:?}: {why}")),
            Err(_) => panics.push(format!("{input:?}")),
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "fuzz {}: {iters} inputs in {secs:.2} s, {} panics, {} contract violations \
         ({noted} with notes, {changed} not the default state; FUZZ_SEED={seed})",
        target.name,
        panics.len(),
        violations.len()
    );
    assert!(panics.is_empty(), "{} inputs panicked, e.g. {:?}", panics.len(), &panics[..panics.len().min(5)]);
    assert!(violations.is_empty(), "{} violations, e.g. {:?}", violations.len(), &violations[..violations.len().min(5)]);
}

#[test]
fn fuzz_nqueens_url() {
    let boards: Vec<String> = [8, 10].iter().flat_map(|&n| held_out(n).iter().take(4)).map(Board::to_text).collect();
    let mut queries: Vec<String> = [
        "backend=webgpu&n=4&steps=3",
        "n=64&steps=16&scale=1.5",
        "model=trm&n=8",
        "n=abc&scale=7&board=QQ",
        "run=1&n=4&steps=3",
        "size=10&model=trm",
    ]
    .map(String::from)
    .to_vec();
    queries.push(NQueensSettings::default().to_query());
    queries.extend(boards.iter().map(|b| format!("backend=cpu&n=4&steps=3&board={b}&run=1")));
    let mut own: Vec<(&str, String)> = boards.into_iter().map(|b| ("board", b)).collect();
    own.extend([
        ("model", "gram".into()),
        ("model", "trm".into()),
        ("backend", "webgpu".into()),
        ("size", "8".into()),
        ("size", "10".into()),
    ]);
    fuzz(Target { name: "nqueens", check: check::<NQueensSettings>, queries, own });
}

#[test]
fn fuzz_sudoku_url() {
    let puzzles: Vec<String> = Difficulty::ALL.into_iter().map(|d| d.generate(7).puzzle.to_text()).collect();
    let mut queries = vec!["backend=cpu&n=4&steps=4&seed=3&run=1".to_string(), SudokuSettings::default().to_query()];
    queries.extend(puzzles.iter().map(|p| format!("puzzle={}&n=32&scale=0.5", p.replace('.', "0"))));
    let mut own: Vec<(&str, String)> = puzzles.into_iter().map(|p| ("puzzle", p)).collect();
    own.extend([("model", "gram".into()), ("model", "trm".into())]);
    fuzz(Target { name: "sudoku", check: check::<SudokuSettings>, queries, own });
}

#[test]
fn fuzz_tree_url() {
    let mut rng = NoiseSource::new(3);
    let mut lines = vec![PAPER_EXAMPLE.to_string()];
    lines.extend((0..8).map(|_| TreeTask::random(&mut rng).input_text()));
    let mut queries = vec!["noise=0.3&seed=7&run=1".to_string(), TreeSettings::default().to_query()];
    queries.extend(lines.iter().map(|l| format!("tree={}&noise=0.05", encode(l))));
    let own = lines.into_iter().map(|l| ("tree", l)).collect();
    fuzz(Target { name: "tree", check: check::<TreeSettings>, queries, own });
}

#[test]
fn fuzz_coloring_url() {
    let graphs: Vec<String> = [8, 10].into_iter().flat_map(|n| coloring_held_out(n).iter().take(4)).map(|i| i.graph.to_text()).collect();
    let mut queries = vec!["backend=cpu&n=4&steps=3&run=1".to_string(), ColoringSettings::default().to_query(), "size=10&model=trm".into()];
    queries.extend(graphs.iter().map(|g| format!("graph={g}&model=trm&n=8")));
    let mut own: Vec<(&str, String)> = graphs.into_iter().map(|g| ("graph", g)).collect();
    own.extend([("size", "8".into()), ("size", "10".into())]);
    fuzz(Target { name: "coloring", check: check::<ColoringSettings>, queries, own });
}

#[test]
fn fuzz_generate_url() {
    let queries = vec![
        "backend=cpu&n=4&steps=3&run=1".to_string(),
        GenerateSettings::default().to_query(),
        "kind=nqueens8&model=trm&n=64".into(),
        "kind=digits&stop=1&restarts=2".into(),
    ];
    let own = vec![("kind", "digits".into()), ("kind", "nqueens8".into()), ("model", "gram".into()), ("model", "trm".into())];
    fuzz(Target { name: "generate", check: check::<GenerateSettings>, queries, own });
}

#[test]
fn fuzz_jepa_url() {
    let queries =
        vec![JepaSettings::default().to_query(), "lambda=2.5&k=3&start=trained&seed=4&run=1".to_string(), "start=fresh&k=0".into()];
    let own = vec![("lambda", "0.5".into()), ("k", "2".into()), ("start", "trained".into()), ("start", "fresh".into())];
    fuzz(Target { name: "jepa", check: check::<JepaSettings>, queries, own });
}

#[test]
fn fuzz_train_url() {
    let queries = vec![TrainSettings::default().to_query(), "seed=4&width=32&run=1".to_string(), "width=64".into()];
    let own = vec![("width", "32".into()), ("width", "64".into()), ("seed", "7".into())];
    fuzz(Target { name: "train", check: check::<TrainSettings>, queries, own });
}
