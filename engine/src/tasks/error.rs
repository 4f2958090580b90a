//! Why a line of text is not a puzzle a task takes: [`PuzzleError`], what every task's
//! [`crate::tasks::Task::parse`] answers. Each task's own format errors ([`BoardError`],
//! [`GridError`], [`TreeError`], [`DigitError`]) are wrapped as they are, so their sentences read
//! as before; a well-formed puzzle the oracle proves impossible, or a generation task's input that
//! is not its one constant input, has a variant of its own. A task may instead keep its reasons
//! in its own folder, as an error type of its own carried by [`PuzzleError::Task`].

use thiserror::Error;

use super::digits::DigitError;
use super::nqueens::BoardError;
use super::reason::TaskReason;
use super::sudoku::{GridError, SudokuProblem};
use super::tree::TreeError;

/// Why a text is not a puzzle of a task: malformed, or well-formed but impossible, or not the one
/// input a generation task takes. The text (`Display`) is the sentence the CLI and the pages show.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PuzzleError {
    /// An N-Queens board's text (wrong length, a character other than `.`/`Q`).
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A Sudoku grid's text (not 81 cells, a character other than a digit or a blank).
    #[error(transparent)]
    Grid(#[from] GridError),
    /// A tree task's text (appendix A's format).
    #[error(transparent)]
    Tree(#[from] TreeError),
    /// A digit's text (28 rows of 0/1).
    #[error(transparent)]
    Digit(#[from] DigitError),
    /// N-Queens: two given queens attack each other (0-based row and column of each).
    #[error(
        "impossible puzzle: the queens at row {}, column {} and row {}, column {} attack each other",
        .first.0 + 1,
        .first.1 + 1,
        .second.0 + 1,
        .second.1 + 1
    )]
    QueensAttack { first: (usize, usize), second: (usize, usize) },
    /// N-Queens: the givens do not attack, but no placement of the rest completes the board.
    #[error("impossible puzzle: no placement of the remaining queens completes it")]
    QueensStuck,
    /// Sudoku: clashing givens, no solution, or more than one.
    #[error("impossible puzzle: {0}")]
    Sudoku(SudokuProblem),
    /// `nqueens{n}-boards`: a board with queens (its one input is the empty n x n board).
    #[error("nqueens{n}-boards generates boards from nothing: its one input is the empty board ({} dots), not a board with queens", .n * .n)]
    NotEmptyBoard { n: usize },
    /// `sudoku-grids`: a grid with givens (its one input is the empty grid).
    #[error("sudoku-grids generates grids from nothing: its one input is the empty grid (81 dots), not a puzzle with givens")]
    NotEmptyGrid,
    /// `digits`: an image with ink (its one input is the blank image).
    #[error("digits are generated from nothing: the one input is the blank image (all 0s)")]
    NotBlankImage,
    /// A task's own reason, in the error type of its folder (its sentence as it is).
    #[error(transparent)]
    Task(TaskReason),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Task;
    use crate::tasks::nqueens::NQueens;
    use crate::tasks::sudoku::Sudoku;
    use crate::tasks::tree::Trees;

    /// Each task's parse answers a variant a caller matches on, and its sentence is the one the
    /// CLI and the pages have always shown.
    #[test]
    fn parse_errors_are_variants_with_their_sentences() {
        let sudoku = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let err = Sudoku.parse(&sudoku[..80]).unwrap_err();
        assert_eq!(err, PuzzleError::Grid(GridError::Length(80)));
        assert_eq!(err.to_string(), "a Sudoku has 81 cells, this line has 80");
        let clash = format!("55{}", &sudoku[2..]);
        assert_eq!(Sudoku.parse(&clash), Err(PuzzleError::Sudoku(SudokuProblem::Clash)));
        assert_eq!(
            Sudoku.parse(&clash).unwrap_err().to_string(),
            "impossible puzzle: two givens clash (same digit twice in a row, column or box)"
        );

        let queens = NQueens::new(8);
        assert_eq!(queens.parse("Q..."), Err(PuzzleError::Board(BoardError::Length { expected: 64, found: 4 })));
        let attack = format!("QQ{}", ".".repeat(62));
        let err = queens.parse(&attack).unwrap_err();
        assert_eq!(err, PuzzleError::QueensAttack { first: (0, 0), second: (0, 1) });
        assert_eq!(err.to_string(), "impossible puzzle: the queens at row 1, column 1 and row 1, column 2 attack each other");
        // Queens at a1 and b3 attack nothing given, yet no placement of six more completes them.
        let stuck = (0..64).map(|i| if i == 0 || i == 8 + 2 { 'Q' } else { '.' }).collect::<String>();
        let stuck_err = queens.parse(&stuck).unwrap_err();
        assert_eq!(stuck_err, PuzzleError::QueensStuck, "{stuck_err}");
        assert_eq!(stuck_err.to_string(), "impossible puzzle: no placement of the remaining queens completes it");

        assert!(matches!(Trees.parse("AB"), Err(PuzzleError::Tree(_))));
    }
}
