//! How often a sample of the shipped `gram-sudoku` verifies on one puzzle, per trajectory-step:
//! the page's rounds (N 10, a copy per sample) run back to back **without** the verified stop,
//! counting every sample that passes the rules (once per sample and round). On a puzzle the model
//! rarely solves, a verified run's time is about 1 / this rate, so this measures a knob's effect
//! on such puzzles with far fewer runs than timing whole verified runs.
//!
//! ```text
//! cargo run --release -p engine --example sudoku_hazard -- <puzzle> <seed> <rounds> <guidance scale> [steps per round] [latent noise] [T] [K] [--drop D] [--every E] [--trace FILE]
//! ```
//!
//! Steps per round default to the page's budget. The latent noise is PTRM's sigma (`solve
//! --latent-noise`), 0 when not given. T and K, when given, replace the weights' recursion depth
//! at inference only (outer transitions per supervision step, inner updates per transition;
//! trained with T 2, K 6): a step then costs about T (K + 1) / 14 of a trained-depth step.
//!
//! `--drop D` resamples the rows by the rules between supervision steps, a sequential Monte
//! Carlo idea, not the paper's: after every E-th step (`--every`, 1 when not given; never after
//! the round's last) the D rows whose answers have the most cells in a rule conflict are replaced
//! by clones of the D rows with the fewest (state, input copy and all; ties by row order;
//! `Trajectories::resample`). The noise stream goes on, so a clone diverges at the next
//! transition; a clone of a verified row counts as that row. `--drop 0` (the default) is the
//! page's plain round.
//!
//! `--trace FILE` writes one CSV line per round and step: the highest LPRM value and Q-head
//! logit among the rows, the fewest cells in a rule conflict, and whether a row passes the rules
//! there; what a rule that gives up on a round early would have to read.

mod common;

use burn::tensor::Device;
use engine::gram::SampleOptions;
use engine::solve::{Copies, RoundInput, round_seed};
use engine::tasks::sudoku::{INFERENCE, Sudoku, unique_solution};
use engine::tasks::{Task, TokenTask};
use std::io::Write;

const USAGE: &str = "usage: sudoku_hazard <puzzle> <seed> <rounds> <guidance scale> [steps per round] [latent noise] [T] [K] [--drop D] [--every E] [--trace FILE]";

/// The rows that carry on after resampling: the `drop` rows with the most conflicts (`clashes`,
/// per row) take the places of clones of the `drop` rows with the fewest.
fn resampled_rows(clashes: &[usize], drop: usize) -> Vec<usize> {
    let n = clashes.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&r| clashes[r]);
    let mut rows: Vec<usize> = (0..n).collect();
    for k in 0..drop {
        rows[order[n - 1 - k]] = order[k];
    }
    rows
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut flag = |name: &str| -> Option<String> {
        let i = args.iter().position(|a| a == name)?;
        let value = args.get(i + 1).unwrap_or_else(|| panic!("{name} needs a value")).clone();
        args.drain(i..i + 2);
        Some(value)
    };
    let number = |name: &str, value: Option<String>| value.map(|v| v.parse::<usize>().unwrap_or_else(|_| panic!("{name} needs a number")));
    let drop = number("--drop", flag("--drop")).unwrap_or(0);
    let every = number("--every", flag("--every")).unwrap_or(1).max(1);
    let mut trace = flag("--trace").map(|path| {
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).expect("--trace: a file to write"));
        writeln!(file, "round,step,max_lprm,max_q_logit,min_conflicts,verified").expect("--trace");
        file
    });
    if args.len() < 4 {
        eprintln!("{USAGE}");
        std::process::exit(2);
    }
    let puzzle = common::puzzle_arg(&args[0]);
    let seed: u64 = args[1].parse().expect("seed");
    let rounds: usize = args[2].parse().expect("rounds");
    let scale: f64 = args[3].parse().expect("guidance scale");
    let steps: usize = args.get(4).map_or(INFERENCE.steps, |s| s.parse().expect("steps"));
    let latent_noise: f64 = args.get(5).map_or(0.0, |s| s.parse().expect("latent noise"));
    let n = INFERENCE.samples;
    assert!(2 * drop <= n, "--drop at most half of the {n} rows");
    let device = Device::flex();
    let mut manifest = common::shipped_manifest();
    if let Some(t) = args.get(6) {
        manifest.config.t_outer = t.parse().expect("T");
    }
    if let Some(k) = args.get(7) {
        manifest.config.k_inner = k.parse().expect("K");
    }
    let (t_outer, k_inner) = (manifest.config.t_outer, manifest.config.k_inner);
    let model = common::load_shipped(&manifest, &device);
    let task = Sudoku;
    let solution = unique_solution(&puzzle).expect("a puzzle with exactly one solution");
    // Per sample and step: cells that differ from the solution, and cells in a rule conflict.
    let (mut wrong, mut clashing) = (Vec::new(), Vec::new());
    let tokens = task.tokens(&puzzle);
    let options =
        SampleOptions { samples: n, max_steps: steps, guidance_scale: scale, settle: 0.0, seed, latent_noise, ..SampleOptions::default() };
    let (mut verified, mut spent, mut first_steps) = (0, 0, Vec::new());
    for round in 0..rounds {
        let mut input = RoundInput::new(seed, round, Copies::Samples, n, |rng| task.restart_copy(&tokens, rng));
        let mut trajectories =
            input.trajectories(&model, &tokens, SampleOptions { seed: round_seed(seed, round), ..options.clone() }, &device);
        let mut done = vec![false; n];
        while !trajectories.is_done() {
            let obs = input.back(trajectories.step().clone());
            spent += n;
            let (mut clashes, mut any_valid) = (Vec::with_capacity(n), false);
            for (j, prediction) in obs.predictions.iter().enumerate() {
                let answer = task.answer_from_prediction(prediction);
                wrong.push(answer.wrong_cells(&solution).len());
                clashes.push(answer.conflicts().len());
                let valid = task.is_valid(&puzzle, &answer);
                any_valid |= valid;
                if !done[j] && valid {
                    if !done.iter().any(|&d| d) {
                        first_steps.push(obs.step);
                    }
                    done[j] = true;
                    verified += 1;
                }
            }
            clashing.extend_from_slice(&clashes);
            if let Some(file) = trace.as_mut() {
                let max = |v: &[f32]| v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let fewest = clashes.iter().min().copied().unwrap_or(0);
                writeln!(file, "{round},{},{},{},{fewest},{}", obs.step, max(&obs.values), max(&obs.halt_logits), u8::from(any_valid))
                    .expect("--trace");
            }
            if drop > 0 && obs.step.is_multiple_of(every) && obs.step < steps {
                let rows = resampled_rows(&clashes, drop);
                trajectories.resample(&rows);
                input.resample(&rows);
                done = rows.iter().map(|&r| done[r]).collect();
            }
        }
    }
    let resampling = if drop > 0 { format!(", the {drop} most conflicted rows resampled every {every} steps") } else { String::new() };
    println!(
        "T {t_outer}, K {k_inner}, scale {scale}, latent noise {latent_noise}, seed {seed}{resampling}, {rounds} rounds of {steps} steps: {spent} trajectory-steps, {verified} samples verified, \
         {} rounds with one (first at steps {first_steps:?})",
        first_steps.len()
    );
    let median = |mut v: Vec<usize>| {
        v.sort_unstable();
        v[v.len() / 2]
    };
    let near = wrong.iter().filter(|&&w| w <= 5).count();
    let sample_steps = wrong.len();
    let blanks = puzzle.cells().iter().filter(|&&c| c == 0).count();
    println!(
        "per sample and step: median {} of {blanks} blank cells wrong, median {} cells in a conflict; {} of {} sample-steps within 5 cells of the solution",
        median(wrong),
        median(clashing),
        near,
        sample_steps
    );
}
