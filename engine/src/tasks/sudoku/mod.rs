//! Sudoku: the 9x9 grid, its text format and tokens, and the train/test split (the GRAM paper, section 4
//! and appendix D.1). `solver`: the exact solver and uniqueness counter; `generate`: puzzles with
//! a difficulty rating, and validity-preserving augmentation; `pool`: the generated training
//! pool, optionally tilted to the solver's hardest; `csv` and `imported`: a user's
//! Sudoku-Extreme CSV, checked, and what an import keeps of it.
//!
//! Text format: 81 characters, row-major, `1`-`9` for a given, `.` or `0` for a blank.
//! Tokens (vocabulary 11): 0 pad, 1 blank, 2..=10 the digits 1..=9.

use std::fmt;

use crate::tasks::split::fnv1a64;

pub mod csv;
mod error;
mod generate;
mod harden;
pub mod imported;
pub mod metrics;
mod model;
mod pasted;
mod pool;
mod solver;
mod task;

pub use error::SudokuError;
pub use generate::{Augmentation, Difficulty, generate, random_solution};
pub use harden::harden;
pub use metrics::{SudokuReport, WIDTHS, WidthPoint, vote, width_curve};
pub use model::gram_config;
pub use pool::{PoolSpec, RATED_COUNT, RATED_GIVENS, rated_set, rating_summary, train_pool};
pub use solver::{Instance, SolveReport, SudokuProblem, assess, problem_with, solve_with_limit, unique_solution};
pub use task::{INFERENCE, Sudoku, TEST_PER_BAND, TRAIN_GIVENS};

/// Cells of a grid.
pub const CELLS: usize = 81;
/// Vocabulary: pad, blank, nine digits.
pub const VOCAB: usize = 11;
/// The blank token.
pub const BLANK: u32 = 1;

/// A 9x9 grid; 0 is a blank, 1..=9 a digit.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SudokuGrid {
    cells: [u8; CELLS],
}

/// Why a text is not a grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GridError {
    /// Not 81 cells long (the count found).
    Length(usize),
    /// Pasted text ([`SudokuGrid::from_pasted`]) that holds another number of cells than 81.
    Cells(usize),
    /// A character that is not `1`-`9`, `.` or `0` (position and character).
    Character(usize, char),
    /// A token outside the vocabulary of a grid (position, token).
    Token(usize, u32),
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::Length(n) => write!(f, "a Sudoku has 81 cells, this line has {n}"),
            GridError::Cells(n) => write!(f, "a Sudoku has 81 cells (1-9 for a digit; . 0 - _ * x or ? for a blank), this text has {n}"),
            GridError::Character(i, c) => {
                write!(f, "cell {} (row {}, column {}) is {c:?}; use 1-9 for a digit and . or 0 for a blank", i + 1, i / 9 + 1, i % 9 + 1)
            }
            GridError::Token(i, t) => write!(f, "token {t} at cell {} is not a digit or blank", i + 1),
        }
    }
}

impl std::error::Error for GridError {}

impl fmt::Debug for SudokuGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SudokuGrid({})", self.to_text())
    }
}

/// Row, column and box (0..9) of a cell.
pub fn units_of(cell: usize) -> (usize, usize, usize) {
    let (r, c) = (cell / 9, cell % 9);
    (r, c, (r / 3) * 3 + c / 3)
}

/// Whether two distinct cells share a row, column or box.
pub fn are_peers(a: usize, b: usize) -> bool {
    let (ra, ca, ba) = units_of(a);
    let (rb, cb, bb) = units_of(b);
    a != b && (ra == rb || ca == cb || ba == bb)
}

impl SudokuGrid {
    pub fn empty() -> Self {
        SudokuGrid { cells: [0; CELLS] }
    }

    /// Parses the 81-character format; surrounding whitespace is ignored.
    pub fn parse(text: &str) -> Result<Self, GridError> {
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != CELLS {
            return Err(GridError::Length(chars.len()));
        }
        let mut g = SudokuGrid::empty();
        for (i, &ch) in chars.iter().enumerate() {
            g.cells[i] = match ch {
                '.' | '0' => 0,
                '1'..='9' => ch as u8 - b'0',
                _ => return Err(GridError::Character(i, ch)),
            };
        }
        Ok(g)
    }

    /// From cell values 0..=9.
    pub fn from_cells(cells: [u8; CELLS]) -> Self {
        assert!(cells.iter().all(|&v| v <= 9), "cell values are 0..=9");
        SudokuGrid { cells }
    }

    /// From model tokens (1 blank, 2..=10 digits; pad is read as an error).
    pub fn from_tokens(tokens: &[u32]) -> Result<Self, GridError> {
        if tokens.len() != CELLS {
            return Err(GridError::Length(tokens.len()));
        }
        let mut g = SudokuGrid::empty();
        for (i, &t) in tokens.iter().enumerate() {
            g.cells[i] = match t {
                1 => 0,
                2..=10 => (t - 1) as u8,
                _ => return Err(GridError::Token(i, t)),
            };
        }
        Ok(g)
    }

    /// Reads a model's prediction: digit tokens become digits, anything else a blank (a blank
    /// or pad prediction leaves the cell unsolved, so the grid cannot verify).
    pub fn from_prediction(tokens: &[u32]) -> Self {
        let mut g = SudokuGrid::empty();
        for (i, &t) in tokens.iter().take(CELLS).enumerate() {
            g.cells[i] = if (2..=10).contains(&t) { (t - 1) as u8 } else { 0 };
        }
        g
    }

    /// `.` for blanks.
    pub fn to_text(&self) -> String {
        self.cells.iter().map(|&v| if v == 0 { '.' } else { (b'0' + v) as char }).collect()
    }

    pub fn tokens(&self) -> Vec<u32> {
        self.cells.iter().map(|&v| if v == 0 { BLANK } else { v as u32 + 1 }).collect()
    }

    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets a cell (0 clears it).
    pub fn set(&mut self, cell: usize, digit: u8) {
        assert!(digit <= 9);
        self.cells[cell] = digit;
    }

    /// Number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Cells whose digit repeats in one of their row, column or box (sorted).
    pub fn conflicts(&self) -> Vec<usize> {
        let mut out: Vec<usize> =
            (0..CELLS).filter(|&a| self.cells[a] != 0 && (0..CELLS).any(|b| are_peers(a, b) && self.cells[b] == self.cells[a])).collect();
        out.sort_unstable();
        out
    }

    /// Full and without conflicts.
    pub fn is_solved(&self) -> bool {
        self.cells.iter().all(|&v| v != 0) && self.conflicts().is_empty()
    }

    /// A solved grid that keeps every given of `puzzle`.
    pub fn solves(&self, puzzle: &SudokuGrid) -> bool {
        self.is_solved() && puzzle.cells.iter().zip(&self.cells).all(|(&p, &s)| p == 0 || p == s)
    }

    /// The cells where `self` differs from `solution` (unfilled cells count as wrong).
    pub fn wrong_cells(&self, solution: &SudokuGrid) -> Vec<usize> {
        (0..CELLS).filter(|&i| self.cells[i] != solution.cells[i]).collect()
    }
}

/// Train, validation or test part of the split.
pub use crate::tasks::split::Part;

/// The documented split: a puzzle is in the test part iff the FNV-1a 64-bit hash of its
/// 81-character text (with `.` blanks) is `< 15` modulo 100, in the validation part iff it is
/// in `15..20`, else in the train part, whoever generated it. Training draws only train-part
/// puzzles (after augmentation too), so the parts never meet.
pub fn part_of(puzzle: &SudokuGrid) -> Part {
    match fnv1a64(&puzzle.to_text()) % 100 {
        0..15 => Part::Test,
        15..20 => Part::Validation,
        _ => Part::Train,
    }
}

/// The held-out set: `per_band` puzzles for every difficulty band, generated from fixed seeds
/// and kept only if they fall in the test part. A pure function of its arguments.
pub fn test_set(per_band: usize) -> Vec<Instance> {
    held_set(per_band, 0x7e57_0000, Part::Test)
}

/// The validation set: made as [`test_set`] from other fixed seeds, kept only if they fall in
/// the validation part. A pure function of its argument.
pub fn validation_set(per_band: usize) -> Vec<Instance> {
    held_set(per_band, 0x7a11_0000, Part::Validation)
}

fn held_set(per_band: usize, first_seed: u64, part: Part) -> Vec<Instance> {
    let mut out = Vec::new();
    for d in Difficulty::ALL {
        let mut seed = 0u64;
        let mut got = 0;
        while got < per_band {
            let inst = d.generate(first_seed + seed);
            seed += 1;
            if part_of(&inst.puzzle) == part {
                out.push(inst);
                got += 1;
            }
        }
    }
    out
}

/// Per cell, the model's probability of each digit 1..=9 for one trajectory of an observation,
/// `[81 * 9]` row-major (cell, digit - 1); the pad and blank tokens' share is left out, so a
/// cell's nine values sum to at most 1. What the browser shades cells with.
pub fn digit_probabilities(obs: &crate::gram::Observation, row: usize) -> Vec<f32> {
    let cells = obs.predictions[row].len();
    (0..cells).flat_map(|c| (2..=10).map(move |t| (c, t))).map(|(c, t)| obs.probability(row, c, t)).collect()
}

/// Famous hard puzzles, to report honestly (name, puzzle).
pub const FAMOUS: [(&str, &str); 3] = [
    ("AI Escargot (Inkala, 2006)", "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."),
    ("Inkala 2012 ('world's hardest')", "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."),
    ("Easter Monster", "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_token_round_trips_and_bad_lines() {
        let text = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let g = SudokuGrid::parse(text).unwrap();
        assert_eq!(g.to_text(), text);
        assert_eq!(SudokuGrid::from_tokens(&g.tokens()).unwrap(), g);
        assert_eq!(SudokuGrid::parse(&text.replace('.', "0")).unwrap(), g);
        assert_eq!(g.givens(), 30);
        assert_eq!(SudokuGrid::parse("123"), Err(GridError::Length(3)));
        let bad = format!("x{}", &text[1..]);
        assert_eq!(SudokuGrid::parse(&bad), Err(GridError::Character(0, 'x')));
        assert!(SudokuGrid::parse(&bad).unwrap_err().to_string().contains("row 1, column 1"));
        assert!(SudokuGrid::from_tokens(&[0; 81]).is_err());
    }

    #[test]
    fn split_is_disjoint_and_stable() {
        let test = test_set(3);
        assert_eq!(test.len(), 12);
        // Pinned: the held-out set (and the shipped weights' recorded output) depend on it.
        assert_eq!(test[0].puzzle.to_text(), ".51..8632.48....7.3.295...41...6..497...3...14..1..78323......85.638.4..8.7.42...");
        assert_eq!(test, test_set(3));
        assert!(test.iter().all(|i| part_of(&i.puzzle) == Part::Test));
        let train = train_pool(40, PoolSpec::plain((28, 36)), 1);
        assert!(train.iter().all(|i| part_of(&i.puzzle) == Part::Train));
        let validation = validation_set(2);
        assert_eq!(validation.len(), 8);
        assert!(validation.iter().all(|i| part_of(&i.puzzle) == Part::Validation));
        // The rule is a pure function of the text, pinned here.
        let h = fnv1a64(&".".repeat(81)) % 100;
        let want = if h < 15 {
            Part::Test
        } else if h < 20 {
            Part::Validation
        } else {
            Part::Train
        };
        assert_eq!(part_of(&SudokuGrid::parse(&".".repeat(81)).unwrap()), want);
    }
}
