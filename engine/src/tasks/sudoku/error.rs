//! Why a text is not a Sudoku puzzle: [`SudokuError`], the task's own reason that
//! [`crate::tasks::PuzzleError::Task`] carries. The grid's format error is wrapped as it is; a
//! well-formed grid the solver proves no puzzle (clashing givens, no solution, several) has a
//! variant of its own.

use thiserror::Error;

use super::GridError;
use super::solver::SudokuProblem;
use crate::tasks::{PuzzleError, TaskReason};

/// Why a text is not a grid the Sudoku task takes. The text (`Display`) is the sentence the CLI
/// and the pages show.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SudokuError {
    /// A grid's text (not 81 cells, a character other than a digit or a blank).
    #[error(transparent)]
    Grid(#[from] GridError),
    /// Clashing givens, no solution, or more than one.
    #[error("impossible puzzle: {0}")]
    Impossible(SudokuProblem),
}

/// The task's reason, as every task's parse answers it.
impl From<SudokuError> for PuzzleError {
    fn from(e: SudokuError) -> Self {
        PuzzleError::Task(TaskReason::new(e))
    }
}

/// A grid's format error, as the task's reason (also the grid-generation task's).
impl From<GridError> for PuzzleError {
    fn from(e: GridError) -> Self {
        SudokuError::Grid(e).into()
    }
}
