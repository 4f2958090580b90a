//! Sudoku behind the task interface: the text format, the exact solver as oracle, the split and
//! the width-scaling metrics.

use super::error::SudokuError;
use super::generate::{Augmentation, Difficulty};
use super::{CELLS, FAMOUS, Instance, SudokuGrid, SudokuReport, VOCAB, part_of, problem_with, test_set, train_pool, validation_set};
use crate::gram::noise::NoiseSource;
use crate::gram::{Observation, Selection};
use crate::tasks::{
    Copies, CopyMaker, FullSize, InferenceDefaults, InputCopy, Part, PuzzleError, Solved, Task, TaskRecipe, TestImport, TokenTask,
};

/// Held-out puzzles per difficulty band (`eval`'s test part).
pub const TEST_PER_BAND: usize = 100;
/// `/sudoku`'s and `solve --task sudoku`'s settings, chosen on the validation parts (docs/results/sudoku.md,
/// "The verified stop and how the page's defaults were chosen": the most puzzles verified, ties to
/// less compute; N by the browser's time to a verified answer): N = 10, guidance scale 0.5, a budget
/// of 6 steps, the verified stop, every sample on its own shuffled copy of the puzzle, and 9
/// restarts (all 400 plain and 200 rated validation puzzles; 10 budgets of 6 steps cost about what 4 of
/// 16 did, and a sample verifies early in a round or not at all). The page keeps restarting until
/// a sample verifies or the visitor stops it.
pub const INFERENCE: InferenceDefaults =
    InferenceDefaults { samples: 10, steps: 6, guidance_scale: 0.5, verified_stop: true, restarts: 9, copies: Copies::Samples };
/// Givens of the generated training puzzles (inclusive): the test bands' 22..=40.
pub const TRAIN_GIVENS: (usize, usize) = (22, 40);

/// 9x9 Sudoku with generated puzzles (one solution each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sudoku;

impl Task for Sudoku {
    type Puzzle = SudokuGrid;
    type Answer = SudokuGrid;
    type Instance = Instance;

    fn id(&self) -> String {
        "sudoku".into()
    }

    /// A wrong length, a bad character, clashing givens, no solution or more than one solution
    /// are errors.
    fn parse(&self, text: &str) -> Result<SudokuGrid, PuzzleError> {
        let grid = SudokuGrid::parse(text)?;
        match problem_with(&grid) {
            Some(p) => Err(SudokuError::Impossible(p).into()),
            None => Ok(grid),
        }
    }

    fn puzzle_text(&self, puzzle: &SudokuGrid) -> String {
        puzzle.to_text()
    }

    fn answer_text(&self, answer: &SudokuGrid) -> String {
        answer.to_text()
    }

    /// A full grid without conflicts that keeps the givens.
    fn is_valid(&self, puzzle: &SudokuGrid, answer: &SudokuGrid) -> bool {
        answer.solves(puzzle)
    }

    fn part_of(&self, puzzle: &SudokuGrid) -> Part {
        part_of(puzzle)
    }

    /// The test part: [`TEST_PER_BAND`] held-out puzzles per band; the validation part as many,
    /// from other fixed seeds (`validation_set`). The train part has no end
    /// (training generates and augments): the first puzzles of the pool a seed-0 run trains on.
    fn instances(&self, part: Part) -> Vec<Instance> {
        match part {
            Part::Test => test_set(TEST_PER_BAND),
            Part::Validation => validation_set(TEST_PER_BAND),
            Part::Train => train_pool(4 * TEST_PER_BAND, super::PoolSpec::plain(TRAIN_GIVENS), 0),
        }
    }

    fn puzzle_of<'a>(&self, instance: &'a Instance) -> &'a SudokuGrid {
        &instance.puzzle
    }
}

impl TokenTask for Sudoku {
    /// A Sudoku CSV's test part (`data import --format sudoku-csv --test`), every row checked
    /// again as it is read.
    fn test_import(&self) -> Option<TestImport<Instance>> {
        Some(TestImport {
            noun: "Sudoku",
            format: super::imported::TEST_FORMAT,
            file: super::imported::TEST_FILE,
            command: "data import --format sudoku-csv --test",
            check: Box::new(|_| Ok(())),
            read: Box::new(|text| {
                let puzzles = super::imported::read_instances(text).map_err(|e| e.to_string())?;
                if puzzles.is_empty() {
                    return Err("no puzzle".into());
                }
                Ok(puzzles)
            }),
        })
    }

    /// The hardest of each `hardest_of` generated puzzles, by the solver's guesses (`rated_set`).
    fn rated_set(&self, part: Part, hardest_of: usize) -> Option<Vec<Instance>> {
        Some(super::rated_set(part, hardest_of, super::RATED_COUNT))
    }

    /// Batch 32 (not 64): a Sudoku supervision step costs T(K+1) = 14 passes of the mixer.
    /// Table 7: the mixer core, K = 6, 50,000 epochs of 1,000 puzzles.
    fn recipe(&self) -> TaskRecipe {
        TaskRecipe {
            config: super::gram_config(true),
            batch: 32,
            steps: 5500,
            full: Some(FullSize { mixer: true, k_inner: 6, beta: 0.1, epochs: 50_000, train_inputs: 1_000 }),
        }
    }

    /// P(digit 1..9) per cell.
    fn shading(&self, obs: &Observation, row: usize) -> Vec<f32> {
        super::digit_probabilities(obs, row)
    }

    fn puzzle_noun(&self) -> &'static str {
        "puzzle"
    }

    type Report = SudokuReport;

    fn tokens(&self, puzzle: &SudokuGrid) -> Vec<u32> {
        puzzle.tokens()
    }

    fn copy_maker(&self) -> Option<CopyMaker> {
        Some(CopyMaker { noun: "Sudoku", augment: false, restart: true })
    }

    /// A random relabelling, transposition and band/stack/row/column shuffle of the puzzle
    /// (the training augmentation), the copy's cells and digits read back into the puzzle's.
    fn restart_copy(&self, x: &[u32], rng: &mut NoiseSource) -> Option<InputCopy> {
        let puzzle = SudokuGrid::from_tokens(x).ok()?;
        let a = Augmentation::random(rng);
        let mut from = vec![0; CELLS];
        for q in 0..CELLS {
            from[a.source(q)] = q;
        }
        // Token d + 1 is digit d; the copy writes digit d as a.digits[d - 1].
        let mut token: Vec<u32> = (0..VOCAB as u32).collect();
        for d in 1..=9u32 {
            token[a.digits[d as usize - 1] as usize + 1] = d + 1;
        }
        Some(InputCopy { x: a.apply(&puzzle).tokens(), from, token })
    }

    fn answer_from_prediction(&self, tokens: &[u32]) -> SudokuGrid {
        SudokuGrid::from_prediction(tokens)
    }

    fn puzzle_from_tokens(&self, tokens: &[u32]) -> Option<SudokuGrid> {
        SudokuGrid::from_tokens(tokens).ok()
    }

    fn targets(&self, instance: &Instance) -> Vec<Vec<u32>> {
        vec![instance.solution.tokens()]
    }

    /// One answer per puzzle: the majority vote (eq. 15).
    fn default_selection(&self) -> Selection {
        Selection::Vote
    }

    fn inference_defaults(&self) -> InferenceDefaults {
        INFERENCE
    }

    /// 0, not measured here: one answer per puzzle, nothing to settle between.
    fn default_settle(&self) -> f64 {
        0.0
    }

    fn eval_batch(&self) -> usize {
        8
    }

    fn group_of(&self, instance: &Instance) -> (usize, String) {
        let band = Difficulty::of_givens(instance.givens());
        let (lo, hi) = band.givens();
        (band as usize, format!("{} ({lo}-{hi} givens)", band.name()))
    }

    fn input_noun(&self) -> &'static str {
        "puzzles"
    }

    fn new_report(&self, samples: usize) -> SudokuReport {
        SudokuReport::new(samples)
    }

    fn score(&self, report: &mut SudokuReport, instance: &Instance, solved: &Solved<SudokuGrid>) {
        report.add(instance, solved);
    }

    fn supplementary(&self) -> Option<(String, Vec<Instance>)> {
        let names: Vec<&str> = FAMOUS.iter().map(|(n, _)| *n).collect();
        let famous = FAMOUS
            .iter()
            .map(|(_, text)| Instance::from_puzzle(SudokuGrid::parse(text).expect("famous puzzles parse")).expect("unique"))
            .collect();
        Some((format!("Famous hardest puzzles ({})", names.join("; ")), famous))
    }
}
