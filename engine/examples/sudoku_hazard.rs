//! How often a sample of the shipped `gram-sudoku` verifies on one puzzle, per trajectory-step:
//! the page's rounds (N 10, a copy per sample, 16-step budgets) run back to back **without** the
//! verified stop, counting every sample that passes the rules (once per sample and round). On a
//! puzzle the model rarely solves, a verified run's time is about 1 / this rate, so this measures
//! a knob's effect on such puzzles with far fewer runs than timing whole verified runs.
//!
//! ```text
//! cargo run --release -p engine --example sudoku_hazard -- <puzzle> <seed> <rounds> <guidance scale> [steps per round] [latent noise] [T] [K]
//! ```
//!
//! The latent noise is PTRM's sigma (`solve --latent-noise`), 0 when not given. T and K, when
//! given, replace the weights' recursion depth at inference only (outer transitions per
//! supervision step, inner updates per transition; trained with T 2, K 6): a step then costs
//! about T (K + 1) / 14 of a trained-depth step.

use burn::tensor::Device;
use engine::gram::SampleOptions;
use engine::solve::{Copies, RoundInput, round_seed};
use engine::tasks::sudoku::{INFERENCE, Sudoku, SudokuGrid, unique_solution};
use engine::tasks::{Task, TokenTask};
use engine::weights::{Manifest, load_gram};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 5 {
        eprintln!("usage: sudoku_hazard <puzzle> <seed> <rounds> <guidance scale> [steps per round] [latent noise] [T] [K]");
        std::process::exit(2);
    }
    let puzzle = SudokuGrid::parse(&args[1]).expect("a puzzle: 81 characters of 1-9 and . or 0");
    let seed: u64 = args[2].parse().expect("seed");
    let rounds: usize = args[3].parse().expect("rounds");
    let scale: f64 = args[4].parse().expect("guidance scale");
    let steps: usize = args.get(5).map_or(INFERENCE.steps, |s| s.parse().expect("steps"));
    let latent_noise: f64 = args.get(6).map_or(0.0, |s| s.parse().expect("latent noise"));
    let n = INFERENCE.samples;
    let device = Device::default();
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../public/weights");
    let mut manifest = Manifest::from_json(&std::fs::read_to_string(dir.join("gram-sudoku.json")).expect("manifest")).expect("manifest");
    if let Some(t) = args.get(7) {
        manifest.config.t_outer = t.parse().expect("T");
    }
    if let Some(k) = args.get(8) {
        manifest.config.k_inner = k.parse().expect("K");
    }
    let (t_outer, k_inner) = (manifest.config.t_outer, manifest.config.k_inner);
    let model = load_gram(&manifest, &std::fs::read(dir.join("gram-sudoku.bpk")).expect("weights"), &device).expect("weights");
    let task = Sudoku;
    let solution = unique_solution(&puzzle).expect("a puzzle with exactly one solution");
    // Per sample and step: cells that differ from the solution, and cells in a rule conflict.
    let (mut wrong, mut clashing) = (Vec::new(), Vec::new());
    let tokens = task.tokens(&puzzle);
    let options = SampleOptions { samples: n, max_steps: steps, guidance_scale: scale, settle: 0.0, seed, latent_noise, ..SampleOptions::default() };
    let (mut verified, mut spent, mut first_steps) = (0, 0, Vec::new());
    for round in 0..rounds {
        let input = RoundInput::new(seed, round, Copies::Samples, n, |rng| task.restart_copy(&tokens, rng));
        let mut trajectories = input.trajectories(&model, &tokens, SampleOptions { seed: round_seed(seed, round), ..options.clone() }, &device);
        let mut done = vec![false; n];
        while !trajectories.is_done() {
            let obs = input.back(trajectories.step().clone());
            spent += n;
            for (j, prediction) in obs.predictions.iter().enumerate() {
                let answer = task.answer_from_prediction(prediction);
                wrong.push(answer.wrong_cells(&solution).len());
                clashing.push(answer.conflicts().len());
                if !done[j] && task.is_valid(&puzzle, &answer) {
                    if !done.iter().any(|&d| d) {
                        first_steps.push(obs.step);
                    }
                    done[j] = true;
                    verified += 1;
                }
            }
        }
    }
    println!(
        "T {t_outer}, K {k_inner}, scale {scale}, latent noise {latent_noise}, seed {seed}, {rounds} rounds of {steps} steps: {spent} trajectory-steps, {verified} samples verified, \
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
