//! Fuzz harness for the engine's parsers and weights loaders. No cargo-fuzz
//! (it needs nightly): seeded random inputs, each a purely random string / byte string or a
//! mutation of a valid seed. Every input must give `Ok` or an error with a non-empty Display;
//! a panic fails the test with the exact input (escaped, or written to a file when large).
//!
//! ```text
//! cargo test --release -p engine --test fuzz -- --nocapture                    # CI size
//! FUZZ_ITERS=1000000 cargo test --release -p engine --test fuzz -- --nocapture --test-threads 1
//! ```
//! `FUZZ_ITERS` sets the inputs of every target; `FUZZ_SEED` changes the inputs; a failure
//! prints the `FUZZ_ONLY=<input>` command that reruns just that input. The defaults keep the
//! whole file near 10 s of CI time in release on a 2-core machine (budget: 30 s): text targets
//! run 50,000 inputs (10-100 us each), weights targets 5,000 (0.2-0.5 ms each: an input builds
//! a model to load into). Fixed cases for what the targets found: `fuzz/regressions.rs`.

#[path = "common/mod.rs"]
mod common;
#[path = "fuzz/harness.rs"]
mod harness;
#[path = "fuzz/json.rs"]
mod json;
#[path = "fuzz/mutate.rs"]
mod mutate;
#[path = "fuzz/regressions.rs"]
mod regressions;
#[path = "fuzz/text.rs"]
mod text;
#[path = "fuzz/weights.rs"]
mod weights;

use harness::{iterations, run};

/// Inputs per text target when `FUZZ_ITERS` is unset.
const TEXT_ITERS: u64 = 50_000;
/// Inputs per weights target when `FUZZ_ITERS` is unset.
const WEIGHTS_ITERS: u64 = 5_000;
/// One input in this many uses a shipped file (megabytes, a full-size model) instead of a tiny
/// model's; the rest use the tiny seeds, which are ~100x cheaper.
const SHIPPED_ONE_IN: usize = 50;

#[test]
fn nqueens_text() {
    let seeds = text::QueensSeeds::new();
    run("nqueens_text", iterations(TEXT_ITERS), |f, i, rng| text::nqueens_text(f, i, rng, &seeds));
}

#[test]
fn nqueens_tokens() {
    let seeds = text::QueensSeeds::new();
    run("nqueens_tokens", iterations(TEXT_ITERS), |f, i, rng| text::nqueens_tokens(f, i, rng, &seeds));
}

#[test]
fn sudoku_text() {
    let seeds = text::SudokuSeeds::new();
    run("sudoku_text", iterations(TEXT_ITERS), |f, i, rng| text::sudoku_text(f, i, rng, &seeds));
}

#[test]
fn sudoku_tokens() {
    let seeds = text::SudokuSeeds::new();
    run("sudoku_tokens", iterations(TEXT_ITERS), |f, i, rng| text::sudoku_tokens(f, i, rng, &seeds));
}

#[test]
fn tree_text() {
    let seeds = text::tree_seeds();
    run("tree_text", iterations(TEXT_ITERS), |f, i, rng| text::tree_text(f, i, rng, &seeds));
}

#[test]
fn gram_manifest() {
    let seeds = weights::GramSeeds::new();
    run("gram_manifest", iterations(WEIGHTS_ITERS), |f, i, rng| weights::gram_manifest(f, i, rng, &seeds, SHIPPED_ONE_IN));
}

#[test]
fn gram_bytes() {
    let seeds = weights::GramSeeds::new();
    run("gram_bytes", iterations(WEIGHTS_ITERS), |f, i, rng| weights::gram_bytes(f, i, rng, &seeds, SHIPPED_ONE_IN));
}

#[test]
fn reasoner_manifest() {
    let seeds = weights::ReasonerSeeds::new();
    run("reasoner_manifest", iterations(WEIGHTS_ITERS), |f, i, rng| weights::reasoner_manifest(f, i, rng, &seeds, SHIPPED_ONE_IN));
}

#[test]
fn reasoner_bytes() {
    let seeds = weights::ReasonerSeeds::new();
    run("reasoner_bytes", iterations(WEIGHTS_ITERS), |f, i, rng| weights::reasoner_bytes(f, i, rng, &seeds, SHIPPED_ONE_IN));
}
