//! Why a file of puzzles from elsewhere cannot be imported: [`DatasetError`], what the Sudoku
//! CSV reader and import rules (`sudoku::csv`, `sudoku::imported`) answer (a task whose import
//! has reasons of its own keeps them in its folder). A CSV row's line is [`crate::tasks::sudoku::csv::CsvError`]'s;
//! the field (`q`, `a`, `rating`) is the variant's.

use thiserror::Error;

use super::sudoku::GridError;

/// Why an imported file, or one row of it, is refused. The text (`Display`) is the sentence the
/// trainer's `data import` prints after the file's name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DatasetError {
    /// A CSV whose first line is not one of the accepted headers.
    #[error("the header must be {expected:?}, not {found:?}")]
    Header { expected: &'static str, found: String },
    /// A row without its four fields (the count found).
    #[error("expected 4 fields (source,q,a,rating), found {0}")]
    Fields(usize),
    /// The `q` field is not a grid.
    #[error("q: {0}")]
    Puzzle(GridError),
    /// The `a` field is not a grid.
    #[error("a: {0}")]
    Solution(GridError),
    /// The solution has a blank (cell 0-based).
    #[error("a: the solution has a blank at cell {} (row {}, column {})", .0 + 1, .0 / 9 + 1, .0 % 9 + 1)]
    SolutionBlank(usize),
    /// The solution repeats a digit in a row, column or box (`unit`: `row 3`, `box 7`).
    #[error("a: not a valid solution: digit {digit} repeats in {unit}")]
    SolutionRepeats { digit: u8, unit: String },
    /// The solution changes a given of the puzzle (cell 0-based).
    #[error("a disagrees with q at cell {} (row {}, column {}): q gives {given}, a has {found}", .cell + 1, .cell / 9 + 1, .cell % 9 + 1)]
    Disagrees { cell: usize, given: u8, found: u8 },
    /// The `rating` field is not a non-negative integer.
    #[error("rating {0:?} is not a non-negative integer")]
    Rating(String),
    /// Fewer than two rows left after the filter and the subsample (train and validation each need one).
    #[error(
        "{left} of the {read} rows read are left after --min-difficulty and --subsample; an import needs at least 2 (train and validation)"
    )]
    TooFewRows { left: usize, read: usize },
    /// `--augment` on a test import.
    #[error("a test import takes no --augment: it scores the puzzles as they are")]
    TestAugment,
    /// No row left for a test import after the filter and the subsample.
    #[error("none of the {read} rows read is left after --min-difficulty and --subsample")]
    NoRowsLeft { read: usize },
}
