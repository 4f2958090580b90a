//! What training reads, per task: the N-Queens train part (every (input, solution) pair), or a
//! pool of generated Sudoku puzzles drawn through a fresh random augmentation each time (seed 003
//! and TRM train Sudoku on augmented copies); and the validation part the quick evals score.
//!
//! The test part is out of reach here: [`TrainData`] holds the train and validation parts only,
//! so nothing chosen during training (quick evals, when to stop) ever looks at the test split.

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::noise::NoiseSource;
use engine::gram::{Gram, SampleOptions};
use engine::solve::evaluate;
use engine::tasks::nqueens::{self, Board, NQueens};
use engine::tasks::sudoku::{self, Augmentation, Part, Sudoku, SudokuGrid};
use engine::tasks::{TaskId, spread};
use serde::{Deserialize, Serialize};

/// One (input, target) pair in a batch slot; its reward is checked against the input itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair {
    pub x: Vec<u32>,
    pub y: Vec<u32>,
}

pub enum TrainData {
    NQueens { n: usize, train: Vec<nqueens::Instance>, pairs: Vec<(usize, usize)>, validation: Vec<nqueens::Instance> },
    Sudoku { pool: Vec<sudoku::Instance>, validation: Vec<sudoku::Instance> },
}

/// Givens of the generated training puzzles (inclusive): the test bands' 22..=40 with the
/// middle weighted by the draw below.
pub const SUDOKU_TRAIN_GIVENS: (usize, usize) = sudoku::TRAIN_GIVENS;
/// Generated base puzzles; each draw augments one (~1.2e12 variants per base).
pub const SUDOKU_POOL: usize = 20_000;
/// Validation puzzles per difficulty band, for the quick evals.
pub const SUDOKU_VALIDATION_PER_BAND: usize = sudoku::TEST_PER_BAND;

/// The instances a quick eval scores.
pub enum EvalSet {
    /// Board side and instances.
    NQueens(usize, Vec<nqueens::Instance>),
    Sudoku(Vec<sudoku::Instance>),
}

impl TrainData {
    pub fn new(task: TaskId, seed: u64) -> TrainData {
        match task {
            TaskId::NQueens(n) => TrainData::nqueens(n),
            TaskId::Sudoku => TrainData::sudoku(SUDOKU_POOL, SUDOKU_VALIDATION_PER_BAND, seed),
            TaskId::Tree => unreachable!("GRAM/TRM presets train N-Queens or Sudoku"),
        }
    }

    fn nqueens(n: usize) -> TrainData {
        let train = nqueens::split(n, nqueens::Part::Train);
        let pairs = train
            .iter()
            .enumerate()
            .flat_map(|(i, inst)| (0..inst.solutions.len()).map(move |s| (i, s)))
            .collect();
        TrainData::NQueens { n, train, pairs, validation: nqueens::split(n, nqueens::Part::Validation) }
    }

    /// A pool of `pool` train-part puzzles from `seed` and `per_band` validation puzzles per band.
    pub fn sudoku(pool: usize, per_band: usize, seed: u64) -> TrainData {
        TrainData::Sudoku {
            pool: sudoku::train_pool(pool, SUDOKU_TRAIN_GIVENS, seed),
            validation: sudoku::validation_set(per_band),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            TrainData::NQueens { train, pairs, validation, .. } => format!(
                "train {} inputs / {} (input, solution) pairs, validation {} inputs",
                train.len(),
                pairs.len(),
                validation.len()
            ),
            TrainData::Sudoku { pool, validation } => format!(
                "train {} generated puzzles ({}-{} givens) x random augmentation, validation {} puzzles",
                pool.len(),
                SUDOKU_TRAIN_GIVENS.0,
                SUDOKU_TRAIN_GIVENS.1,
                validation.len()
            ),
        }
    }

    /// A random training pair.
    pub fn draw(&self, rng: &mut NoiseSource) -> Pair {
        match self {
            TrainData::NQueens { train, pairs, .. } => {
                let (i, s) = pairs[rng.index(pairs.len())];
                Pair { x: train[i].puzzle.tokens(), y: train[i].solutions[s].tokens() }
            }
            TrainData::Sudoku { pool, .. } => loop {
                let inst = &pool[rng.index(pool.len())];
                let aug = Augmentation::random(rng);
                let puzzle = aug.apply(&inst.puzzle);
                // An augmented copy can land in the validation or test part: draw again.
                if sudoku::part_of(&puzzle) == Part::Train {
                    break Pair { x: puzzle.tokens(), y: aug.apply(&inst.solution).tokens() };
                }
            },
        }
    }

    /// r = 1 when the prediction is a valid answer to the pair's input (the task's validator).
    pub fn reward(&self, pair: &Pair, prediction: &[u32]) -> f32 {
        let ok = match self {
            TrainData::NQueens { n, .. } => {
                let puzzle = Board::from_tokens(&pair.x, *n).expect("a training input");
                let board = Board::from_prediction(prediction, *n);
                prediction.iter().all(|&t| t == 1 || t == 2) && board.completes(&puzzle)
            }
            TrainData::Sudoku { .. } => {
                let puzzle = SudokuGrid::from_tokens(&pair.x).expect("a training input");
                SudokuGrid::from_prediction(prediction).solves(&puzzle)
            }
        };
        if ok { 1.0 } else { 0.0 }
    }

    /// The `inputs` validation instances a quick eval scores, spread over the validation set.
    pub fn eval_set(&self, inputs: usize) -> EvalSet {
        match self {
            TrainData::NQueens { n, validation, .. } => EvalSet::NQueens(*n, spread(validation, inputs)),
            TrainData::Sudoku { validation, .. } => EvalSet::Sudoku(spread(validation, inputs)),
        }
    }

    /// A fast training-time signal on `inputs` validation puzzles with 5 samples: (accuracy of
    /// the first sample, coverage@5) for N-Queens; (accuracy, solved by any of 5) for Sudoku.
    pub fn quick_eval(&self, model: &Gram, inputs: usize, device: &Device) -> (f64, f64, &'static str) {
        let plain = model.valid();
        let options = SampleOptions { samples: 5, max_steps: 8, halting: false, ..SampleOptions::default() };
        match self.eval_set(inputs) {
            EvalSet::NQueens(n, subset) => {
                let r = evaluate(&NQueens::new(n), &plain, &subset, &options, 32, device, |_, _| {});
                (r.overall.accuracy(), r.overall.coverage(), "coverage@5")
            }
            EvalSet::Sudoku(subset) => {
                let r = evaluate(&Sudoku, &plain, &subset, &options, 32, device, |_, _| {});
                (r.overall().accuracy(), r.overall().pass_at(5), "solved-by-any-of-5")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queens_part(tokens: &[u32], n: usize) -> nqueens::Part {
        nqueens::part_of(&Board::from_tokens(tokens, n).unwrap())
    }

    /// Training reads only the train part, and the quick eval scores only the validation part.
    #[test]
    fn nqueens_training_holds_no_test_input_and_evals_on_validation() {
        let data = TrainData::new(TaskId::NQueens(8), 0);
        let TrainData::NQueens { train, validation, .. } = &data else { unreachable!() };
        assert!(train.iter().all(|i| nqueens::part_of(&i.puzzle) == nqueens::Part::Train));
        assert!(!validation.is_empty());
        let mut rng = NoiseSource::new(1);
        for _ in 0..500 {
            assert_eq!(queens_part(&data.draw(&mut rng).x, 8), nqueens::Part::Train);
        }
        let EvalSet::NQueens(_, eval) = data.eval_set(10_000) else { unreachable!() };
        assert_eq!(eval.len(), validation.len());
        assert!(eval.iter().all(|i| nqueens::part_of(&i.puzzle) == nqueens::Part::Validation));
        let EvalSet::NQueens(_, eval) = data.eval_set(16) else { unreachable!() };
        assert!(eval.len() == 16 && eval.iter().all(|i| nqueens::part_of(&i.puzzle) == nqueens::Part::Validation));
    }

    #[test]
    fn sudoku_training_holds_no_test_input_and_evals_on_validation() {
        let data = TrainData::sudoku(200, 3, 0);
        let TrainData::Sudoku { pool, .. } = &data else { unreachable!() };
        assert!(pool.iter().all(|i| sudoku::part_of(&i.puzzle) == Part::Train));
        let mut rng = NoiseSource::new(2);
        for _ in 0..500 {
            let pair = data.draw(&mut rng);
            assert_eq!(sudoku::part_of(&SudokuGrid::from_tokens(&pair.x).unwrap()), Part::Train);
            assert_eq!(data.reward(&pair, &pair.y), 1.0, "the target solves the augmented input");
        }
        let EvalSet::Sudoku(eval) = data.eval_set(64) else { unreachable!() };
        assert_eq!(eval.len(), 12);
        assert!(eval.iter().all(|i| sudoku::part_of(&i.puzzle) == Part::Validation));
    }

    /// The training code never names the test split: only this test module may.
    #[test]
    fn training_code_never_names_the_test_split() {
        let sources = [
            ("data.rs", include_str!("data.rs")),
            ("train.rs", include_str!("train.rs")),
            ("train_cli.rs", include_str!("train_cli.rs")),
            ("batch.rs", include_str!("batch.rs")),
            ("checkpoint.rs", include_str!("checkpoint.rs")),
            ("run.rs", include_str!("run.rs")),
            ("jepa_train.rs", include_str!("jepa_train.rs")),
            ("jepa_presets.rs", include_str!("jepa_presets.rs")),
        ];
        for (name, text) in sources {
            let code = text.split("#[cfg(test)]").next().unwrap();
            for banned in ["test_set(", "Part::Test"] {
                assert!(!code.contains(banned), "{name} names the test split ({banned})");
            }
        }
    }
}
