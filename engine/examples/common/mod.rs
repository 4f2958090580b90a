//! What the Sudoku examples share: the shipped `gram-sudoku`, read from `public/weights`, and the
//! puzzle argument. Not an example itself (Cargo builds only `examples/*.rs` and
//! `examples/*/main.rs`); each example that needs it says `mod common;`.

use burn::tensor::Device;
use engine::gram::Gram;
use engine::tasks::sudoku::SudokuGrid;
use engine::weights::{Manifest, load_gram};
use std::path::PathBuf;

fn weights_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../public/weights")
}

/// The shipped `gram-sudoku`'s manifest, for an example that changes its configuration (the
/// recursion depth at inference) before loading it.
pub fn shipped_manifest() -> Manifest {
    Manifest::from_json(&std::fs::read_to_string(weights_dir().join("gram-sudoku.json")).expect("the shipped manifest"))
        .expect("the shipped manifest")
}

/// The shipped `gram-sudoku`'s weights under `manifest` (checked against its sha256).
pub fn load_shipped(manifest: &Manifest, device: &Device) -> Gram {
    load_gram(manifest, &std::fs::read(weights_dir().join("gram-sudoku.bpk")).expect("the shipped weights"), device)
        .expect("the shipped weights")
}

/// A puzzle from the command line: 81 characters of 1-9 and `.` or `0`.
pub fn puzzle_arg(text: &str) -> SudokuGrid {
    SudokuGrid::parse(text).expect("a puzzle: 81 characters of 1-9 and . or 0")
}
