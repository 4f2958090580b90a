//! How the browser (and a recorded run) reads a puzzle and one supervision step of its
//! trajectories for the page, per task the manifest names: the puzzle's tokens, each sample's answer as text, and the
//! probabilities the page shades with. The maths (decoding, validity) is the engine's.

use crate::gram::Observation;
use crate::tasks::boards::{QueensBoards, SudokuGrids};
use crate::tasks::coloring::{Coloring, Colouring, colour_probabilities};
use crate::tasks::digits::{Digits, PIXELS, WHITE};
use crate::tasks::nqueens::{Board, NQueens, QUEEN};
use crate::tasks::sudoku::{Sudoku, SudokuGrid, digit_probabilities};
use crate::tasks::{Task, TaskId, TokenTask};

/// The puzzle family of a GRAM/TRM manifest's `task`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleKind {
    Queens(usize),
    Sudoku,
    Coloring(usize),
    /// Whole n x n N-Queens boards from the empty board (p(x)).
    QueensBoards(usize),
    /// Full Sudoku grids from the empty grid (p(x)).
    SudokuGrids,
    /// Digits from the blank image (p(x)).
    Digits,
}

/// One sample's answer at a step: its text and what the page shades it with.
pub struct SampleAnswer {
    pub text: String,
    /// N-Queens and its boards: P(queen) per cell; digits: P(white) per pixel.
    pub queen_probs: Vec<f32>,
    /// Sudoku: P(digit 1..9) per cell.
    pub digit_probs: Vec<f32>,
    /// Graph colouring: P(colour 0..3) per vertex.
    pub colour_probs: Vec<f32>,
}

impl PuzzleKind {
    /// The manifest's task id, read by the engine's registry.
    pub fn of_task(task: &str) -> Result<PuzzleKind, String> {
        match TaskId::parse(task)? {
            TaskId::Sudoku => Ok(PuzzleKind::Sudoku),
            TaskId::NQueens(n) => Ok(PuzzleKind::Queens(n)),
            TaskId::Coloring(n) => Ok(PuzzleKind::Coloring(n)),
            TaskId::Tree => Err("tree weights are not GRAM/TRM weights".into()),
            TaskId::QueensBoards(n) => Ok(PuzzleKind::QueensBoards(n)),
            TaskId::SudokuGrids => Ok(PuzzleKind::SudokuGrids),
            TaskId::Digits => Ok(PuzzleKind::Digits),
        }
    }

    /// The puzzle text as tokens; a malformed or impossible puzzle is a sentence.
    pub fn tokens(self, puzzle: &str) -> Result<Vec<u32>, String> {
        match self {
            PuzzleKind::Sudoku => Ok(SudokuGrid::parse(puzzle).map_err(|e| format!("bad puzzle: {e}"))?.tokens()),
            PuzzleKind::Queens(n) => Ok(Board::parse(puzzle, n).map_err(|e| format!("bad board: {e}"))?.tokens()),
            PuzzleKind::Coloring(n) => {
                let task = Coloring::new(n);
                Ok(task.tokens(&task.parse(puzzle).map_err(|e| format!("bad graph: {e}"))?))
            }
            PuzzleKind::QueensBoards(n) => {
                let task = QueensBoards::new(n);
                Ok(task.tokens(&task.parse(puzzle).map_err(|e| format!("bad input: {e}"))?))
            }
            PuzzleKind::SudokuGrids => Ok(SudokuGrids.tokens(&SudokuGrids.parse(puzzle).map_err(|e| format!("bad input: {e}"))?)),
            PuzzleKind::Digits => Ok(Digits.tokens(&Digits.parse(puzzle).map_err(|e| format!("bad input: {e}"))?)),
        }
    }

    /// The rule check: `prediction` answers the puzzle whose tokens are `x`.
    pub fn is_right(self, x: &[u32], prediction: &[u32]) -> bool {
        match self {
            PuzzleKind::Sudoku => Sudoku.is_right_prediction(x, prediction),
            PuzzleKind::Queens(n) => NQueens::new(n).is_right_prediction(x, prediction),
            PuzzleKind::Coloring(n) => Coloring::new(n).is_right_prediction(x, prediction),
            PuzzleKind::QueensBoards(n) => QueensBoards::new(n).is_right_prediction(x, prediction),
            PuzzleKind::SudokuGrids => SudokuGrids.is_right_prediction(x, prediction),
            PuzzleKind::Digits => Digits.is_right_prediction(x, prediction),
        }
    }

    /// The task's measured settle fraction (`TokenTask::default_settle`).
    pub fn settle(self) -> f64 {
        match self {
            PuzzleKind::Sudoku => Sudoku.default_settle(),
            PuzzleKind::Queens(n) => NQueens::new(n).default_settle(),
            PuzzleKind::Coloring(n) => Coloring::new(n).default_settle(),
            PuzzleKind::QueensBoards(n) => QueensBoards::new(n).default_settle(),
            PuzzleKind::SudokuGrids => SudokuGrids.default_settle(),
            PuzzleKind::Digits => Digits.default_settle(),
        }
    }

    /// Trajectory `row`'s answer after the step `obs`.
    pub fn answer(self, obs: &Observation, row: usize) -> SampleAnswer {
        let prediction = &obs.predictions[row];
        let mut answer = SampleAnswer { text: String::new(), queen_probs: Vec::new(), digit_probs: Vec::new(), colour_probs: Vec::new() };
        match self {
            PuzzleKind::Sudoku | PuzzleKind::SudokuGrids => {
                answer.text = SudokuGrid::from_prediction(prediction).to_text();
                answer.digit_probs = digit_probabilities(obs, row);
            }
            PuzzleKind::Queens(n) | PuzzleKind::QueensBoards(n) => {
                answer.text = Board::from_prediction(prediction, n).to_text();
                answer.queen_probs = (0..n * n).map(|c| obs.probability(row, c, QUEEN as usize)).collect();
            }
            PuzzleKind::Digits => {
                answer.text = Digits.answer_text(&Digits.answer_from_prediction(prediction));
                answer.queen_probs = (0..PIXELS).map(|c| obs.probability(row, c, WHITE as usize)).collect();
            }
            PuzzleKind::Coloring(n) => {
                answer.text = Colouring::from_prediction(prediction, n).to_text();
                answer.colour_probs = colour_probabilities(obs, row, n);
            }
        }
        answer
    }
}
