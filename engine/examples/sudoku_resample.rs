//! Resampling the trajectories by the rules between supervision steps, measured as
//! `sudoku_hazard` measures a knob: the page's rounds (N 10, a copy per sample, 16-step budgets)
//! back to back without the verified stop, counting every sample that passes the rules. After
//! every `every`-th step (not the budget's last) the `drop` rows whose answers have the most cells
//! in a rule conflict are replaced by clones of the `drop` rows with the fewest (state, input copy
//! and all; ties by row order); the noise stream goes on, so a clone diverges at the next
//! transition. `drop` 0 is the page's plain round. A sequential Monte Carlo idea, not the paper's.
//!
//! ```text
//! cargo run --release -p engine --example sudoku_resample -- <puzzle> <seed> <rounds> <guidance scale> <drop> [every] [steps per round]
//! ```

use burn::tensor::Device;
use engine::gram::SampleOptions;
use engine::solve::{Copies, RoundInput, round_seed};
use engine::tasks::sudoku::{INFERENCE, Sudoku, SudokuGrid, unique_solution};
use engine::tasks::{Task, TokenTask};
use engine::weights::{Manifest, load_gram};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 6 {
        eprintln!("usage: sudoku_resample <puzzle> <seed> <rounds> <guidance scale> <drop> [every] [steps per round]");
        std::process::exit(2);
    }
    let puzzle = SudokuGrid::parse(&args[1]).expect("a puzzle: 81 characters of 1-9 and . or 0");
    let seed: u64 = args[2].parse().expect("seed");
    let rounds: usize = args[3].parse().expect("rounds");
    let scale: f64 = args[4].parse().expect("guidance scale");
    let drop: usize = args[5].parse().expect("drop");
    let every: usize = args.get(6).map_or(1, |s| s.parse().expect("every"));
    let steps: usize = args.get(7).map_or(16, |s| s.parse().expect("steps"));
    let n = INFERENCE.samples;
    assert!(2 * drop <= n, "drop at most half of the {n} rows");
    let device = Device::default();
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../public/weights");
    let manifest = Manifest::from_json(&std::fs::read_to_string(dir.join("gram-sudoku.json")).expect("manifest")).expect("manifest");
    let model = load_gram(&manifest, &std::fs::read(dir.join("gram-sudoku.bpk")).expect("weights"), &device).expect("weights");
    let task = Sudoku;
    let solution = unique_solution(&puzzle).expect("a puzzle with exactly one solution");
    let tokens = task.tokens(&puzzle);
    let options = SampleOptions { samples: n, max_steps: steps, guidance_scale: scale, settle: 0.0, seed, ..SampleOptions::default() };
    let (mut verified, mut spent, mut first_steps, mut near, mut sample_steps) = (0, 0, Vec::new(), 0, 0);
    for round in 0..rounds {
        let mut input = RoundInput::new(seed, round, Copies::Samples, n, |rng| task.restart_copy(&tokens, rng));
        let mut trajectories = input.trajectories(&model, &tokens, SampleOptions { seed: round_seed(seed, round), ..options.clone() }, &device);
        let mut found = false;
        while !trajectories.is_done() {
            let obs = input.back(trajectories.step().clone());
            spent += n;
            let mut clashes = Vec::with_capacity(n);
            for prediction in &obs.predictions {
                let answer = task.answer_from_prediction(prediction);
                sample_steps += 1;
                near += usize::from(answer.wrong_cells(&solution).len() <= 5);
                clashes.push(answer.conflicts().len());
                if task.is_valid(&puzzle, &answer) {
                    if !found {
                        first_steps.push(obs.step);
                    }
                    found = true;
                    verified += 1;
                }
            }
            if drop > 0 && obs.step % every == 0 && obs.step < steps {
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by_key(|&r| clashes[r]);
                let mut rows: Vec<usize> = (0..n).collect();
                for k in 0..drop {
                    rows[order[n - 1 - k]] = order[k];
                }
                trajectories.resample(&rows);
                input.resample(&rows);
            }
        }
    }
    println!(
        "drop {drop} every {every}, scale {scale}, seed {seed}, {rounds} rounds of {steps} steps: {spent} trajectory-steps, {verified} sample-steps verified, \
         {} rounds with one (first at steps {first_steps:?}); {near} of {sample_steps} sample-steps within 5 cells",
        first_steps.len()
    );
}
