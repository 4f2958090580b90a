//! `cargo bench -p engine --bench sudoku_solver`: our exact Sudoku solver against the `sudoku`
//! crate (a well-known fast solver) on the same puzzles: time per puzzle to find the solution
//! and prove it unique, as a ratio measured in one run. The reference crate is AGPL-3.0, so it
//! is a dev-dependency only (this benchmark); nothing we ship links it.

use std::time::Instant;

use engine::tasks::sudoku::{Difficulty, FAMOUS, SudokuGrid, solve_with_limit};

fn main() {
    let repeats = 5;
    let mut sets: Vec<(String, Vec<SudokuGrid>)> = Difficulty::ALL
        .iter()
        .map(|d| {
            let (lo, hi) = d.givens();
            (format!("{} ({lo}-{hi} givens), 50 generated", d.name()), (0..50).map(|s| d.generate(9_000 + s).puzzle).collect())
        })
        .collect();
    sets.push((format!("famous hardest, {}", FAMOUS.len()), FAMOUS.iter().map(|(_, t)| SudokuGrid::parse(t).unwrap()).collect()));
    println!("| puzzles | ours: µs per puzzle | sudoku crate 0.8: µs per puzzle | ours / crate |");
    println!("| --- | --- | --- | --- |");
    for (name, puzzles) in sets {
        let reference: Vec<sudoku::Sudoku> =
            puzzles.iter().map(|p| sudoku::Sudoku::from_str_line(&p.to_text()).expect("valid line")).collect();
        let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
        for _ in 0..repeats {
            let t = Instant::now();
            for p in &puzzles {
                assert_eq!(solve_with_limit(p, 2).solutions.len(), 1);
            }
            ours = ours.min(t.elapsed().as_secs_f64() * 1e6 / puzzles.len() as f64);
            let t = Instant::now();
            for s in &reference {
                assert_eq!(s.solutions_count_up_to(2), 1);
            }
            theirs = theirs.min(t.elapsed().as_secs_f64() * 1e6 / puzzles.len() as f64);
        }
        println!("| {name} | {ours:.1} | {theirs:.1} | {:.2} |", ours / theirs);
    }
}
