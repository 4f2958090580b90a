//! Why a line of text is not a puzzle a task takes: [`PuzzleError`], what every task's
//! [`crate::tasks::Task::parse`] answers. Each task keeps its reasons (a malformed text, a
//! well-formed puzzle the oracle proves impossible, a generation task's input that is not its one
//! constant input) in an error type of its own folder, carried here whole, so its sentences read
//! as the task wrote them and this file names no task.

use std::error::Error;

use thiserror::Error;

use super::reason::TaskReason;

/// Why a text is not a puzzle of a task. The text (`Display`) is the sentence the CLI and the
/// pages show: the task's own.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PuzzleError {
    /// A task's own reason, in the error type of its folder (its sentence as it is).
    #[error(transparent)]
    Task(TaskReason),
}

impl PuzzleError {
    /// The task's own error, when it is a `T` (a caller that knows the task branches on it).
    pub fn reason<T: Error + 'static>(&self) -> Option<&T> {
        match self {
            PuzzleError::Task(reason) => reason.downcast_ref::<T>(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::tasks::Task;
    use crate::tasks::nqueens::{BoardError, NQueens, QueensError};
    use crate::tasks::sudoku::{GridError, Sudoku, SudokuError, SudokuProblem};
    use crate::tasks::tree::{TreeError, Trees};

    /// Each task's parse answers its own reason, which a caller reads back by type, and its
    /// sentence is the one the CLI and the pages have always shown.
    #[test]
    fn parse_errors_are_task_reasons_with_their_sentences() {
        let sudoku = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let err = Sudoku.parse(&sudoku[..80]).unwrap_err();
        assert_eq!(err.reason::<SudokuError>(), Some(&SudokuError::Grid(GridError::Length(80))));
        assert_eq!(err.to_string(), "a Sudoku has 81 cells, this line has 80");
        let clash = format!("55{}", &sudoku[2..]);
        let err = Sudoku.parse(&clash).unwrap_err();
        assert_eq!(err.reason::<SudokuError>(), Some(&SudokuError::Impossible(SudokuProblem::Clash)));
        assert_eq!(err.to_string(), "impossible puzzle: two givens clash (same digit twice in a row, column or box)");

        let queens = NQueens::new(8);
        let err = queens.parse("Q...").unwrap_err();
        assert_eq!(err.reason::<QueensError>(), Some(&QueensError::Board(BoardError::Length { expected: 64, found: 4 })));
        assert!(err.reason::<SudokuError>().is_none(), "another task's type is not its reason");
        let attack = format!("QQ{}", ".".repeat(62));
        let err = queens.parse(&attack).unwrap_err();
        assert_eq!(err.reason::<QueensError>(), Some(&QueensError::Attack { first: (0, 0), second: (0, 1) }));
        assert_eq!(err.to_string(), "impossible puzzle: the queens at row 1, column 1 and row 1, column 2 attack each other");
        // Queens at a1 and b3 attack nothing given, yet no placement of six more completes them.
        let stuck = (0..64).map(|i| if i == 0 || i == 8 + 2 { 'Q' } else { '.' }).collect::<String>();
        let stuck_err = queens.parse(&stuck).unwrap_err();
        assert_eq!(stuck_err.reason::<QueensError>(), Some(&QueensError::Stuck), "{stuck_err}");
        assert_eq!(stuck_err.to_string(), "impossible puzzle: no placement of the remaining queens completes it");

        assert!(Trees.parse("AB").unwrap_err().reason::<TreeError>().is_some());
    }
}
