//! How hard Sudoku puzzles are for the exact solver: its guesses to prove a single solution
//! (`engine::tasks::sudoku::assess`, the rating `train --hardest-of K` tilts its pools by).
//!
//! ```text
//! cargo run --release -p engine --example sudoku_rating                  # the famous three
//! cargo run --release -p engine --example sudoku_rating -- 256 < puzzles.txt
//! ```
//!
//! Prints the famous hardest puzzles' ratings, then, with K given, the percentiles of the
//! validation part's rated set made with `--hardest-of K` (200 puzzles, K x 200 generated), then
//! one line per puzzle read from stdin (`<puzzle> <guesses or why not>`).

use std::io::BufRead;

use engine::tasks::Part;
use engine::tasks::sudoku::{FAMOUS, RATED_COUNT, SudokuGrid, assess, rated_set, rating_summary};

fn rating(text: &str) -> String {
    match SudokuGrid::parse(text) {
        Ok(grid) => match assess(&grid) {
            Ok(guesses) => guesses.to_string(),
            Err(why) => why.to_string(),
        },
        Err(e) => format!("not a puzzle: {e:?}"),
    }
}

fn main() {
    for (name, puzzle) in FAMOUS {
        println!("{name}: {} guesses", rating(puzzle));
    }
    if let Some(k) = std::env::args().nth(1) {
        let k: usize = k.parse().expect("K, a number");
        let set = rated_set(Part::Validation, k, RATED_COUNT);
        let (median, p90, p99, most) = rating_summary(&set);
        println!("validation, --hardest-of {k}: median {median}, 90th percentile {p90}, 99th {p99}, most {most} guesses");
    }
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let text = line.split_whitespace().next().unwrap_or("");
        if !text.is_empty() {
            println!("{text} {}", rating(text));
        }
    }
}
