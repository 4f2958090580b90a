//! Puzzles of the validation part far harder than the generator makes: the rated set's first
//! `count` puzzles (`split --part validation --hardest-of 8`), each climbed `moves` proposals
//! on the exact solver's rating ([`engine::tasks::sudoku::harden`]), keeping the hardest
//! puzzle met that falls in the validation part. One line per puzzle: `<puzzle> <guesses>`,
//! the start's rating after it.
//!
//! ```text
//! cargo run --release -p engine --example sudoku_harden -- <count> <moves> [seed]
//! ```

use engine::gram::noise::NoiseSource;
use engine::tasks::Part;
use engine::tasks::sudoku::{harden, part_of, rated_set};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: sudoku_harden <count> <moves> [seed]");
        std::process::exit(2);
    }
    let count: usize = args[1].parse().expect("count");
    let moves: usize = args[2].parse().expect("moves");
    let seed: u64 = args.get(3).map_or(0, |s| s.parse().expect("seed"));
    let mut rng = NoiseSource::new(seed);
    for start in rated_set(Part::Validation, 8, count) {
        let hard = harden(&start, moves, &mut rng, |p| part_of(p) == Part::Validation).expect("the start is a validation puzzle");
        println!("{} {} {}", hard.puzzle.to_text(), hard.guesses, start.guesses);
    }
}
