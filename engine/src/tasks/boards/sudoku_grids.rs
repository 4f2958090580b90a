//! Full 9x9 Sudoku grids from nothing: the constant input is the empty grid, each target a valid
//! full grid made by the engine's generator (the GRAM paper's p(x) formulation, section 3.3, on Sudoku
//! grids). Unlike the 92 N-Queens boards the grids cannot all be listed (6.7e21 of them,
//! [`SUDOKU_GRIDS`]), so training sees a fixed sample of [`TRAIN_GRIDS`] random grids, a pure
//! function of [`GRIDS_SEED`]; what the eval scores is whether samples are valid grids and how
//! many are distinct, not coverage.

use std::sync::OnceLock;

use super::report::BoardsReport;
use crate::gram::noise::NoiseSource;
use crate::gram::{Observation, Selection};
use crate::tasks::sudoku::{Sudoku, SudokuGrid, random_solution};
use crate::tasks::{Part, PuzzleError, Solved, Task, TaskReason, TaskRecipe, TokenTask};

/// Why a text is not the grid-generation task's input: a grid with givens (its one input is the
/// empty grid). Carried by [`PuzzleError::Task`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("sudoku-grids generates grids from nothing: its one input is the empty grid (81 dots), not a puzzle with givens")]
pub struct NotEmptyGrid;

impl From<NotEmptyGrid> for PuzzleError {
    fn from(e: NotEmptyGrid) -> Self {
        PuzzleError::Task(TaskReason::new(e))
    }
}

/// Valid full 9x9 Sudoku grids there are (Felgenhauer & Jarvis, 2005).
pub const SUDOKU_GRIDS: u128 = 6_670_903_752_021_072_936_960;
/// Random grids the one instance lists as targets (training draws one per batch slot).
pub const TRAIN_GRIDS: usize = 20_000;
/// The seed of those grids.
pub const GRIDS_SEED: u64 = 0x6e1d_5000;

/// The empty grid with the grids it is trained towards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridsInstance {
    pub puzzle: SudokuGrid,
    pub grids: Vec<SudokuGrid>,
}

/// `count` random full grids from `seed` (the generator's random solution of the empty grid).
pub fn random_grids(count: usize, seed: u64) -> Vec<SudokuGrid> {
    let mut rng = NoiseSource::new(seed);
    (0..count).map(|_| random_solution(&mut rng)).collect()
}

/// Unconditional Sudoku grids: Sudoku's grids, tokens and rules (delegated to [`Sudoku`]), one
/// input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SudokuGrids;

impl SudokuGrids {
    /// The one instance: the empty grid with [`TRAIN_GRIDS`] random grids (made once per
    /// process).
    pub fn instance(&self) -> GridsInstance {
        static GRIDS: OnceLock<Vec<SudokuGrid>> = OnceLock::new();
        GridsInstance { puzzle: SudokuGrid::empty(), grids: GRIDS.get_or_init(|| random_grids(TRAIN_GRIDS, GRIDS_SEED)).clone() }
    }
}

impl Task for SudokuGrids {
    type Puzzle = SudokuGrid;
    type Answer = SudokuGrid;
    type Instance = GridsInstance;

    fn id(&self) -> String {
        "sudoku-grids".into()
    }

    /// The only input is the constant: the empty grid.
    fn parse(&self, text: &str) -> Result<SudokuGrid, PuzzleError> {
        let grid = SudokuGrid::parse(text)?;
        if grid.givens() > 0 {
            return Err(NotEmptyGrid.into());
        }
        Ok(grid)
    }

    fn puzzle_text(&self, puzzle: &SudokuGrid) -> String {
        Sudoku.puzzle_text(puzzle)
    }

    fn answer_text(&self, answer: &SudokuGrid) -> String {
        Sudoku.answer_text(answer)
    }

    /// A full grid without conflicts (the empty input has no given to keep).
    fn is_valid(&self, puzzle: &SudokuGrid, answer: &SudokuGrid) -> bool {
        Sudoku.is_valid(puzzle, answer)
    }

    /// The one input is trained on and scored (`boards` module doc: nothing to hold out).
    fn part_of(&self, _puzzle: &SudokuGrid) -> Part {
        Part::Train
    }

    /// Every part holds the one instance.
    fn instances(&self, _part: Part) -> Vec<GridsInstance> {
        vec![self.instance()]
    }

    fn puzzle_of<'a>(&self, instance: &'a GridsInstance) -> &'a SudokuGrid {
        &instance.puzzle
    }
}

impl TokenTask for SudokuGrids {
    /// p(x) on Sudoku grids: the shipped Sudoku pair's network and batch, the empty grid in, one
    /// of 20,000 random full grids out, 2,000 steps.
    fn recipe(&self) -> TaskRecipe {
        TaskRecipe { config: crate::tasks::sudoku::gram_config(true), batch: 32, steps: 2000, full: None }
    }

    /// Sudoku's shading: P(digit 1..9) per cell.
    fn shading(&self, obs: &Observation, row: usize) -> Vec<f32> {
        Sudoku.shading(obs, row)
    }

    type Report = BoardsReport;

    fn tokens(&self, puzzle: &SudokuGrid) -> Vec<u32> {
        Sudoku.tokens(puzzle)
    }

    fn answer_from_prediction(&self, tokens: &[u32]) -> SudokuGrid {
        Sudoku.answer_from_prediction(tokens)
    }

    fn puzzle_from_tokens(&self, tokens: &[u32]) -> Option<SudokuGrid> {
        Sudoku.puzzle_from_tokens(tokens).filter(|g| g.givens() == 0)
    }

    fn targets(&self, instance: &GridsInstance) -> Vec<Vec<u32>> {
        instance.grids.iter().map(SudokuGrid::tokens).collect()
    }

    /// What `solve` selects (the report scores every sample): the LPRM, as N-Queens boards.
    fn default_selection(&self) -> Selection {
        Selection::Lprm
    }

    /// No settle: every step samples (the paper's sampler).
    fn default_settle(&self) -> f64 {
        0.0
    }

    fn eval_batch(&self) -> usize {
        1
    }

    fn new_report(&self, samples: usize) -> BoardsReport {
        BoardsReport::new(samples, SUDOKU_GRIDS)
    }

    /// Also counts the valid samples that are among the training grids (a memorising
    /// generator would draw only those).
    fn score(&self, report: &mut BoardsReport, instance: &GridsInstance, solved: &Solved<SudokuGrid>) {
        let text = |step: &Vec<SudokuGrid>| step.iter().map(|g| (g.to_text(), g.is_solved())).collect::<Vec<_>>();
        report.add(&text(&solved.samples), &solved.samples_by_step.iter().map(text).collect::<Vec<_>>());
        report.add_training_copies(solved.samples.iter().filter(|g| g.is_solved() && instance.grids.contains(g)).count());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_input_is_the_empty_grid_with_distinct_valid_grids() {
        let task = SudokuGrids;
        assert_eq!(task.id(), "sudoku-grids");
        let grids = random_grids(200, GRIDS_SEED);
        assert!(grids.iter().all(SudokuGrid::is_solved));
        let distinct: std::collections::BTreeSet<String> = grids.iter().map(SudokuGrid::to_text).collect();
        assert_eq!(distinct.len(), 200, "random grids repeat");
        assert_eq!(random_grids(200, GRIDS_SEED), grids, "a pure function of the seed");
        assert!(task.parse(&".".repeat(81)).is_ok());
        let one = format!("5{}", ".".repeat(80));
        assert_eq!(task.parse(&one).unwrap_err().reason::<NotEmptyGrid>(), Some(&NotEmptyGrid));
        assert!(task.parse(&one).unwrap_err().to_string().contains("empty grid"));
        let x = task.tokens(&SudokuGrid::empty());
        assert!(task.is_right_prediction(&x, &grids[3].tokens()));
        let mut broken = grids[3].clone();
        broken.set(0, broken.get(1));
        assert!(!task.is_right_prediction(&x, &broken.tokens()), "a clash is no grid");
        assert!(!task.is_right_prediction(&grids[3].tokens(), &grids[3].tokens()), "a full grid is not the input");
    }

    /// A valid sample that is a training grid counts as a copy; a new valid grid and a broken
    /// copy do not.
    #[test]
    fn the_report_counts_valid_samples_that_copy_a_training_grid() {
        let task = SudokuGrids;
        let instance = GridsInstance { puzzle: SudokuGrid::empty(), grids: random_grids(3, GRIDS_SEED) };
        let new = random_grids(1, GRIDS_SEED + 1).remove(0);
        let mut broken = instance.grids[1].clone();
        broken.set(0, broken.get(1));
        let samples = vec![instance.grids[0].clone(), new, broken];
        let solved = Solved {
            samples: samples.clone(),
            values: vec![0.0; 3],
            halt_logits: vec![0.0; 3],
            selected: 0,
            vote_by_step: vec![],
            samples_by_step: vec![samples],
            steps: 1,
        };
        let mut report = task.new_report(3);
        task.score(&mut report, &instance, &solved);
        assert_eq!((report.valid, report.training_copies), (2, Some(1)));
    }
}
