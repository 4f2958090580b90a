//! Where training pairs come from, per task: the N-Queens train split (every (input, solution)
//! pair), or a pool of generated Sudoku puzzles drawn through a fresh random augmentation each
//! time (seed 003 and TRM train Sudoku on augmented copies). Also the training-time quick eval.

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::noise::NoiseSource;
use engine::gram::{Gram, SampleOptions};
use engine::solve::evaluate;
use engine::tasks::nqueens::{self, NQueens};
use engine::tasks::sudoku::{self, Augmentation, Part, Sudoku, SudokuGrid};
use engine::tasks::{TaskId, spread};

/// One (input, target) pair in a batch slot, with what its reward needs.
pub struct Pair {
    pub x: Vec<u32>,
    pub y: Vec<u32>,
    check: Check,
}

enum Check {
    /// Index into the N-Queens train split.
    Queens(usize),
    /// The (augmented) Sudoku puzzle.
    Sudoku(SudokuGrid),
}

pub enum TrainData {
    NQueens { n: usize, train: Vec<nqueens::Instance>, pairs: Vec<(usize, usize)>, test: Vec<nqueens::Instance> },
    Sudoku { pool: Vec<sudoku::Instance>, test: Vec<sudoku::Instance> },
}

/// Givens of the generated training puzzles (inclusive): the test bands' 22..=40 with the
/// middle weighted by the draw below.
pub const SUDOKU_TRAIN_GIVENS: (usize, usize) = sudoku::TRAIN_GIVENS;
/// Generated base puzzles; each draw augments one (~1.2e12 variants per base).
pub const SUDOKU_POOL: usize = 20_000;
/// Held-out puzzles per difficulty band for the quick eval and `eval`.
pub const SUDOKU_TEST_PER_BAND: usize = sudoku::TEST_PER_BAND;

impl TrainData {
    pub fn new(task: TaskId, seed: u64) -> TrainData {
        match task {
            TaskId::NQueens(n) => {
                let train = nqueens::split(n, nqueens::Part::Train);
                let pairs = train
                    .iter()
                    .enumerate()
                    .flat_map(|(i, inst)| (0..inst.solutions.len()).map(move |s| (i, s)))
                    .collect();
                TrainData::NQueens { n, train, pairs, test: nqueens::split(n, nqueens::Part::Test) }
            }
            TaskId::Sudoku => TrainData::Sudoku {
                pool: sudoku::train_pool(SUDOKU_POOL, SUDOKU_TRAIN_GIVENS, seed),
                test: sudoku::test_set(SUDOKU_TEST_PER_BAND),
            },
            TaskId::Tree => unreachable!("GRAM/TRM presets train N-Queens or Sudoku"),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            TrainData::NQueens { train, pairs, test, .. } => format!(
                "train {} inputs / {} (input, solution) pairs, test {} inputs",
                train.len(),
                pairs.len(),
                test.len()
            ),
            TrainData::Sudoku { pool, test } => format!(
                "train {} generated puzzles ({}-{} givens) x random augmentation, test {} puzzles",
                pool.len(),
                SUDOKU_TRAIN_GIVENS.0,
                SUDOKU_TRAIN_GIVENS.1,
                test.len()
            ),
        }
    }

    /// A random training pair.
    pub fn draw(&self, rng: &mut NoiseSource) -> Pair {
        match self {
            TrainData::NQueens { train, pairs, .. } => {
                let (i, s) = pairs[rng.index(pairs.len())];
                Pair { x: train[i].puzzle.tokens(), y: train[i].solutions[s].tokens(), check: Check::Queens(i) }
            }
            TrainData::Sudoku { pool, .. } => loop {
                let inst = &pool[rng.index(pool.len())];
                let aug = Augmentation::random(rng);
                let puzzle = aug.apply(&inst.puzzle);
                // An augmented copy can land in the test part of the split: draw again.
                if sudoku::part_of(&puzzle) == Part::Train {
                    let y = aug.apply(&inst.solution).tokens();
                    break Pair { x: puzzle.tokens(), y, check: Check::Sudoku(puzzle) };
                }
            },
        }
    }

    /// r = 1 when the prediction is a valid answer to the pair's input (the task's validator).
    pub fn reward(&self, pair: &Pair, prediction: &[u32]) -> f32 {
        let ok = match (self, &pair.check) {
            (TrainData::NQueens { n, train, .. }, Check::Queens(i)) => {
                let board = nqueens::Board::from_prediction(prediction, *n);
                prediction.iter().all(|&t| t == 1 || t == 2) && board.completes(&train[*i].puzzle)
            }
            (TrainData::Sudoku { .. }, Check::Sudoku(puzzle)) => SudokuGrid::from_prediction(prediction).solves(puzzle),
            _ => unreachable!("pairs come from their own data"),
        };
        if ok { 1.0 } else { 0.0 }
    }

    /// A fast training-time signal on `inputs` test puzzles with 5 samples: (accuracy of the
    /// first sample, coverage@5) for N-Queens; (accuracy, solved by any of 5) for Sudoku.
    pub fn quick_eval(&self, model: &Gram, inputs: usize, device: &Device) -> (f64, f64, &'static str) {
        let plain = model.valid();
        let options = SampleOptions { samples: 5, max_steps: 8, halting: false, ..SampleOptions::default() };
        match self {
            TrainData::NQueens { test, .. } => {
                let subset = spread(test, inputs);
                let task = NQueens::new(subset[0].puzzle.n());
                let r = evaluate(&task, &plain, &subset, &options, 32, device, |_, _| {});
                (r.overall.accuracy(), r.overall.coverage(), "coverage@5")
            }
            TrainData::Sudoku { test, .. } => {
                let subset = spread(test, inputs);
                let r = evaluate(&Sudoku, &plain, &subset, &options, 32, device, |_, _| {});
                (r.overall().accuracy(), r.overall().pass_at(5), "solved-by-any-of-5")
            }
        }
    }
}
