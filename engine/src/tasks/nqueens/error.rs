//! Why a text is not an N-Queens puzzle: [`QueensError`], the task's own reason that
//! [`crate::tasks::PuzzleError::Task`] carries. The board's format error is wrapped as it is; a
//! well-formed board the oracle proves impossible has a variant of its own.

use thiserror::Error;

use super::board::BoardError;
use crate::tasks::{PuzzleError, TaskReason};

/// Why a text is not a board the N-Queens task takes: malformed, or no completion. The text
/// (`Display`) is the sentence the CLI and the pages show.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum QueensError {
    /// A board's text (wrong length, a character other than `.`/`Q`).
    #[error(transparent)]
    Board(#[from] BoardError),
    /// Two given queens attack each other (0-based row and column of each).
    #[error(
        "impossible puzzle: the queens at row {}, column {} and row {}, column {} attack each other",
        .first.0 + 1,
        .first.1 + 1,
        .second.0 + 1,
        .second.1 + 1
    )]
    Attack { first: (usize, usize), second: (usize, usize) },
    /// The givens do not attack, but no placement of the rest completes the board.
    #[error("impossible puzzle: no placement of the remaining queens completes it")]
    Stuck,
}

/// The task's reason, as every task's parse answers it.
impl From<QueensError> for PuzzleError {
    fn from(e: QueensError) -> Self {
        PuzzleError::Task(TaskReason::new(e))
    }
}

/// A board's format error, as the task's reason (also the board-generation task's).
impl From<BoardError> for PuzzleError {
    fn from(e: BoardError) -> Self {
        QueensError::Board(e).into()
    }
}
