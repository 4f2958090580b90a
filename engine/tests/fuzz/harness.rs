//! The runner shared by every fuzz target: a seeded generator, the iteration count, a panic hook
//! that is silent inside a fuzzed call, and the per-target report.
//!
//! Each input `i` of a target draws from its own generator, seeded from (`FUZZ_SEED`, target
//! name, `i`), so a failure names the exact input (escaped, or a file when it is large) and how
//! to regenerate it.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use std::time::Instant;

/// xorshift64* seeded through splitmix64: tiny, fast and the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A length that is usually small and sometimes large (up to `max`).
    pub fn len(&mut self, max: usize) -> usize {
        match self.below(8) {
            0 => 0,
            1..=4 => self.below(32.min(max) + 1),
            5 | 6 => self.below(256.min(max) + 1),
            _ => self.below(max + 1),
        }
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// `FUZZ_ITERS` if set, else the target's CI default.
pub fn iterations(ci_default: u64) -> u64 {
    match std::env::var("FUZZ_ITERS") {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| panic!("FUZZ_ITERS={v:?} is not a count")),
        Err(_) => ci_default,
    }
}

fn base_seed() -> u64 {
    std::env::var("FUZZ_SEED").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(0x5eed_f022)
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Installs (once, for the whole binary) a hook that prints nothing for a panic inside a fuzzed
/// call and defers to the previous hook everywhere else, so a failing test still reports.
fn install_quiet_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".into()
    }
}

/// A string as an ASCII Rust literal: paste it back into a test to reproduce.
pub fn escape_str(s: &str) -> String {
    format!("\"{}\"", s.escape_default())
}

/// Bytes as a `b"..."` literal when short; otherwise written to a file whose path is returned.
pub fn escape_bytes(target: &str, index: u64, bytes: &[u8]) -> String {
    if bytes.len() <= 4096 {
        let body: String = bytes.iter().flat_map(|&b| std::ascii::escape_default(b)).map(char::from).collect();
        return format!("b\"{body}\" ({} bytes)", bytes.len());
    }
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{target}-{index}.bin"));
    match std::fs::write(&path, bytes) {
        Ok(()) => format!("{} bytes, written to {}", bytes.len(), path.display()),
        Err(e) => format!("{} bytes (could not write them to {}: {e})", bytes.len(), path.display()),
    }
}

/// One target's run: counts and the failures found.
pub struct Fuzz {
    name: &'static str,
    seed: u64,
    started: Instant,
    pub inputs: u64,
    pub accepted: u64,
    pub rejected: u64,
    /// The slowest input: seconds and index (a parser that is slow on some input shows here).
    slowest: (f64, u64),
    failures: Vec<String>,
    /// Show panics as they happen (set by `FUZZ_ONLY`).
    loud: bool,
    /// With `FUZZ_ERRORS=1`: how often each kind of error message came (digits masked), to see
    /// which checks the inputs reach.
    kinds: Option<std::collections::HashMap<String, u64>>,
}

/// Failures kept before a target stops early (a broken parser fails on most inputs).
const MAX_FAILURES: usize = 8;

impl Fuzz {
    pub fn new(name: &'static str) -> Fuzz {
        install_quiet_hook();
        let seed = base_seed() ^ engine::tasks::nqueens::fnv1a64(name);
        Fuzz {
            name,
            seed,
            started: Instant::now(),
            inputs: 0,
            accepted: 0,
            rejected: 0,
            slowest: (0.0, 0),
            failures: Vec::new(),
            loud: false,
            kinds: std::env::var("FUZZ_ERRORS").is_ok_and(|v| v == "1").then(Default::default),
        }
    }

    /// The generator of input `index`.
    pub fn rng(&self, index: u64) -> Rng {
        Rng::new(self.seed ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03))
    }

    /// Whether the target should go on (false once enough failures are collected).
    pub fn going(&self) -> bool {
        self.failures.len() < MAX_FAILURES
    }

    /// Runs one call. `call` returns `Ok(())` when the input was accepted or `Err(message)` with
    /// the error's Display; a panic, or an empty message, is a failure reported with `show()`.
    pub fn case(&mut self, index: u64, show: impl FnOnce() -> String, call: impl FnOnce() -> Result<(), String>) {
        self.inputs += 1;
        QUIET.with(|q| q.set(!self.loud));
        let t0 = Instant::now();
        let result = panic::catch_unwind(AssertUnwindSafe(call));
        let took = t0.elapsed().as_secs_f64();
        QUIET.with(|q| q.set(false));
        if took > self.slowest.0 {
            self.slowest = (took, index);
        }
        let problem = match result {
            Ok(Ok(())) => {
                self.accepted += 1;
                return;
            }
            Ok(Err(message)) if !message.trim().is_empty() => {
                self.rejected += 1;
                if let Some(kinds) = &mut self.kinds {
                    let kind: String = message.chars().take(90).map(|c| if c.is_ascii_digit() { '#' } else { c }).collect();
                    *kinds.entry(kind).or_default() += 1;
                }
                return;
            }
            Ok(Err(_)) => "returned an error whose Display is empty".to_string(),
            Err(payload) => format!("panicked: {}", payload_text(&*payload)),
        };
        self.failures.push(format!(
            "input {index} {problem}\n    input: {}\n    reproduce: FUZZ_SEED={} FUZZ_ONLY={index} cargo test --release -p engine --test fuzz -- --exact {}",
            show(),
            base_seed(),
            self.name
        ));
    }

    /// Prints the target's line and fails the test if any input failed.
    pub fn finish(self) {
        let secs = self.started.elapsed().as_secs_f64();
        println!(
            "fuzz {:<15} inputs {:>8}  ok {:>8}  err {:>8}  seconds {:>8.2}  slowest {:>7.2} ms (input {})  panics {}",
            self.name,
            self.inputs,
            self.accepted,
            self.rejected,
            secs,
            self.slowest.0 * 1e3,
            self.slowest.1,
            self.failures.len()
        );
        if let Some(kinds) = &self.kinds {
            let mut kinds: Vec<_> = kinds.iter().collect();
            kinds.sort_by(|a, b| b.1.cmp(a.1));
            for (kind, n) in kinds.iter().take(25) {
                println!("    {n:>8}  {kind}");
            }
        }
        if !self.failures.is_empty() {
            panic!("fuzz target {} failed on {} inputs:\n{}", self.name, self.failures.len(), self.failures.join("\n"));
        }
    }
}

/// Runs `iters` inputs: `one(fuzz, index, rng)` generates input `index` and calls
/// [`Fuzz::case`] on it (possibly several times, one per entry point).
/// `FUZZ_ONLY=<index>` runs that one input, with panic messages (and `RUST_BACKTRACE`) shown.
pub fn run(name: &'static str, iters: u64, mut one: impl FnMut(&mut Fuzz, u64, &mut Rng)) {
    let mut fuzz = Fuzz::new(name);
    let only: Option<u64> = std::env::var("FUZZ_ONLY").ok().and_then(|v| v.trim().parse().ok());
    fuzz.loud = only.is_some();
    let indices = match only {
        Some(i) => i..i + 1,
        None => 0..iters,
    };
    for index in indices {
        if !fuzz.going() {
            break;
        }
        let mut rng = fuzz.rng(index);
        one(&mut fuzz, index, &mut rng);
    }
    fuzz.finish();
}
