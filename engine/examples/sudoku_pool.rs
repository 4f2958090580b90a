//! A pool of generated train-part Sudoku puzzles as a `sudoku-csv` file (`source,q,a,rating`:
//! the puzzle, its solution, the exact solver's guesses), for screening by the model and for
//! `native-trainer data import --format sudoku-csv`. The generator of `train --givens LO-HI
//! --hardest-of K` (`engine::tasks::sudoku::train_pool`), from a seed of its own.
//!
//! ```text
//! cargo run --release -p engine --example sudoku_pool -- <count> <seed> <givens LO-HI> <K> [source name] > pool.csv
//! cargo run --release -p engine --example sudoku_pool -- stdin <source name> < puzzles.txt > rows.csv
//! ```
//!
//! The second form writes puzzles read from stdin (one per line, 81 characters) the same way,
//! each solved and rated by the exact solver; a line that is not a puzzle with one solution is an
//! error naming it.

use std::io::BufRead;

use engine::tasks::sudoku::csv::{CsvRow, HEADER, csv_line};
use engine::tasks::sudoku::{Instance, PoolSpec, RATED_GIVENS, SudokuGrid, train_pool};

/// The instance as the import's CSV line, written by the import's own writer.
fn row(source: String, inst: &Instance) -> String {
    let rating = u32::try_from(inst.guesses).expect("a rating that fits the CSV's u32");
    csv_line(&CsvRow { source, puzzle: inst.puzzle.clone(), solution: inst.solution.clone(), rating })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("stdin") {
        let source = args.get(1).map(String::as_str).unwrap_or("stdin");
        println!("{HEADER}");
        for (i, line) in std::io::stdin().lock().lines().enumerate() {
            let line = line.expect("stdin");
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            let grid = SudokuGrid::parse(text).unwrap_or_else(|e| panic!("line {}: not a puzzle: {e:?}", i + 1));
            let inst = Instance::from_puzzle(grid).unwrap_or_else(|| panic!("line {}: not one solution", i + 1));
            println!("{}", row(format!("{source}-{i}"), &inst));
        }
        return;
    }
    let usage = "usage: sudoku_pool <count> <seed> <givens LO-HI> <K> [source name]";
    let [count, seed, givens, k] = [0, 1, 2, 3].map(|i| args.get(i).unwrap_or_else(|| panic!("{usage}")));
    let count: usize = count.parse().expect("count, a number");
    let seed: u64 = seed.parse().expect("seed, a number");
    let (lo, hi) = givens.split_once('-').expect("givens as LO-HI");
    let givens = (lo.parse().expect("LO, a number"), hi.parse().expect("HI, a number"));
    let (fewest, most) = RATED_GIVENS;
    assert!(fewest <= givens.0 && givens.0 <= givens.1 && givens.1 <= most, "givens: {fewest} <= LO <= HI <= {most}");
    let hardest_of: usize = k.parse().expect("K, a number");
    let source = args.get(4).map(String::as_str).unwrap_or("pool");
    println!("{HEADER}");
    for (i, inst) in train_pool(count, PoolSpec { givens, hardest_of }, seed).iter().enumerate() {
        println!("{}", row(format!("{source}-{seed}-{i}"), inst));
    }
}
