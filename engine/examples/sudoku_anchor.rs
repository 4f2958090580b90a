//! Are the model's most confident cells right on a puzzle it rarely solves, and does a round that
//! takes them as extra givens verify more often? A diagnostic for a restart that changes what it
//! restarts: round A runs the page's round (N 10, a copy per sample, no stop; steps per round
//! default to the page's budget); its
//! samples' mean digit probabilities over every step rank the blank cells; the top K, minus any
//! that clash with the givens or each other, become extra givens for round B. A sample of round B
//! that passes the rules also solves the puzzle as given (it keeps every given).
//!
//! ```text
//! cargo run --release -p engine --example sudoku_anchor -- <puzzle> <seed> <episodes> <guidance scale> <K,K,...> [steps per round]
//! ```

mod common;

use burn::tensor::Device;
use engine::gram::{Gram, SampleOptions};
use engine::solve::{Copies, RoundInput, round_seed};
use engine::tasks::sudoku::{INFERENCE, Sudoku, SudokuGrid, are_peers, digit_probabilities, unique_solution};
use engine::tasks::{Task, TokenTask};

/// One round of the page's kind on `puzzle`: mean digit probabilities per cell over every sample
/// and step, `[81 * 9]`, and how many samples passed the rules (once per sample).
fn round(
    model: &Gram,
    puzzle: &SudokuGrid,
    original: &SudokuGrid,
    options: &SampleOptions,
    seed: u64,
    r: usize,
    device: &Device,
) -> (Vec<f32>, usize) {
    let task = Sudoku;
    let tokens = task.tokens(puzzle);
    let n = options.samples;
    let input = RoundInput::new(seed, r, Copies::Samples, n, |rng| task.restart_copy(&tokens, rng));
    let mut trajectories = input.trajectories(model, &tokens, SampleOptions { seed: round_seed(seed, r), ..options.clone() }, device);
    let mut mean = vec![0f32; 81 * 9];
    let mut seen = 0usize;
    let mut done = vec![false; n];
    while !trajectories.is_done() {
        let obs = input.back(trajectories.step().clone());
        for (j, prediction) in obs.predictions.iter().enumerate() {
            for (m, p) in mean.iter_mut().zip(digit_probabilities(&obs, j)) {
                *m += p;
            }
            seen += 1;
            if !done[j] && task.is_valid(original, &task.answer_from_prediction(prediction)) {
                done[j] = true;
            }
        }
    }
    mean.iter_mut().for_each(|m| *m /= seen as f32);
    (mean, done.iter().filter(|&&d| d).count())
}

/// The puzzle with up to `k` of the most confident blank cells filled, skipping any digit that
/// clashes with a given or an earlier anchor.
fn anchored(puzzle: &SudokuGrid, mean: &[f32], k: usize) -> SudokuGrid {
    let mut ranked: Vec<(usize, u8, f32)> = (0..81)
        .filter(|&c| puzzle.get(c) == 0)
        .map(|c| {
            let (d, p) = (0..9).map(|d| (d, mean[c * 9 + d])).fold((0, -1.0), |a, b| if b.1 > a.1 { b } else { a });
            (c, d as u8 + 1, p)
        })
        .collect();
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2));
    let mut out = puzzle.clone();
    let mut added = 0;
    for (c, d, _) in ranked {
        if added == k {
            break;
        }
        if (0..81).any(|o| o != c && out.get(o) == d && are_peers(o, c)) {
            continue;
        }
        out.set(c, d);
        added += 1;
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 6 {
        eprintln!("usage: sudoku_anchor <puzzle> <seed> <episodes> <guidance scale> <K,K,...> [steps per round]");
        std::process::exit(2);
    }
    let puzzle = common::puzzle_arg(&args[1]);
    let seed: u64 = args[2].parse().expect("seed");
    let episodes: usize = args[3].parse().expect("episodes");
    let scale: f64 = args[4].parse().expect("guidance scale");
    let ks: Vec<usize> = args[5].split(',').map(|k| k.parse().expect("K")).collect();
    let steps: usize = args.get(6).map_or(INFERENCE.steps, |s| s.parse().expect("steps"));
    let device = Device::flex();
    let model = common::load_shipped(&common::shipped_manifest(), &device);
    let solution = unique_solution(&puzzle).expect("a puzzle with exactly one solution");
    let options =
        SampleOptions { samples: INFERENCE.samples, max_steps: steps, guidance_scale: scale, settle: 0.0, ..SampleOptions::default() };
    let (mut base_rounds, mut base_verified) = (0, 0);
    // Per K: anchored rounds with a verified sample, rounds whose anchors were all right, wrong anchors.
    let mut per_k = vec![(0usize, 0usize, 0usize, 0usize); ks.len()];
    for e in 0..episodes {
        let (mean, ok) = round(&model, &puzzle, &puzzle, &options, seed, 2 * e, &device);
        base_rounds += 1;
        base_verified += (ok > 0) as usize;
        for (i, &k) in ks.iter().enumerate() {
            let a = anchored(&puzzle, &mean, k);
            let wrong = (0..81).filter(|&c| puzzle.get(c) == 0 && a.get(c) != 0 && a.get(c) != solution.get(c)).count();
            let (_, ok_b) = round(&model, &a, &puzzle, &options, seed ^ 0xa5a5, 2 * e + 1, &device);
            let s = &mut per_k[i];
            s.0 += (ok_b > 0) as usize;
            s.1 += (wrong == 0) as usize;
            s.2 += wrong;
            s.3 += 1;
        }
    }
    println!("scale {scale}, seed {seed}, {episodes} episodes: plain rounds with a verified sample {base_verified} of {base_rounds}");
    for (k, s) in ks.iter().zip(&per_k) {
        println!(
            "K {k}: anchored rounds verified {} of {}; anchors all right in {}; wrong anchors per round {:.2}",
            s.0,
            s.3,
            s.1,
            s.2 as f64 / s.3 as f64
        );
    }
}
