//! The N-Queens board: its text format, tokens, and the rules (attacks, completion).
//!
//! Text format (the CLI's and the browser's): `n*n` characters, row-major, `.` for an empty cell and
//! `Q` for a queen (`q` is accepted on input). Tokens: 0 pad, 1 empty, 2 queen.

use std::fmt;

/// Token of a padding position (unused on square boards, kept for the shared vocabulary).
pub const PAD: u32 = 0;
/// Token of an empty cell.
pub const EMPTY: u32 = 1;
/// Token of a queen.
pub const QUEEN: u32 = 2;
/// Vocabulary size of the N-Queens task.
pub const VOCAB: usize = 3;

/// Why a text or token sequence is not a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// The text has the wrong number of cells.
    Length { expected: usize, found: usize },
    /// A character other than `.`, `Q` or `q` at `index` of a board of side `n`.
    Char { index: usize, found: char, n: usize },
    /// A token other than 1 (empty) or 2 (queen).
    Token { index: usize, found: u32 },
    /// Board sides the task does not support.
    Size(usize),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Length { expected, found } => {
                write!(f, "expected {expected} cells ('.' or 'Q'), found {found}")
            }
            BoardError::Char { index, found, n } => {
                write!(f, "row {}, column {} is {found:?}: use '.' for empty and 'Q' for a queen", index / n + 1, index % n + 1)
            }
            BoardError::Token { index, found } => {
                write!(f, "token {found} at position {index} is neither empty (1) nor queen (2)")
            }
            BoardError::Size(n) => write!(f, "board side {n} is not supported (4..=16)"),
        }
    }
}

impl std::error::Error for BoardError {}

/// An `n x n` board of queens, row-major.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Board {
    n: usize,
    queens: Vec<bool>,
}

impl Board {
    /// An empty board of side `n`.
    pub fn empty(n: usize) -> Result<Self, BoardError> {
        if !(4..=16).contains(&n) {
            return Err(BoardError::Size(n));
        }
        Ok(Self { n, queens: vec![false; n * n] })
    }

    /// Parses the text format; surrounding whitespace is ignored.
    pub fn parse(text: &str, n: usize) -> Result<Self, BoardError> {
        let mut board = Self::empty(n)?;
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != n * n {
            return Err(BoardError::Length { expected: n * n, found: chars.len() });
        }
        for (index, c) in chars.into_iter().enumerate() {
            match c {
                '.' => {}
                'Q' | 'q' => board.queens[index] = true,
                found => return Err(BoardError::Char { index, found, n }),
            }
        }
        Ok(board)
    }

    /// Decodes tokens (1 empty, 2 queen).
    pub fn from_tokens(tokens: &[u32], n: usize) -> Result<Self, BoardError> {
        let mut board = Self::empty(n)?;
        if tokens.len() != n * n {
            return Err(BoardError::Length { expected: n * n, found: tokens.len() });
        }
        for (index, &t) in tokens.iter().enumerate() {
            match t {
                EMPTY => {}
                QUEEN => board.queens[index] = true,
                found => return Err(BoardError::Token { index, found }),
            }
        }
        Ok(board)
    }

    /// Board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The text format.
    pub fn to_text(&self) -> String {
        self.queens.iter().map(|&q| if q { 'Q' } else { '.' }).collect()
    }

    /// Tokens, row-major (1 empty, 2 queen).
    pub fn tokens(&self) -> Vec<u32> {
        self.queens.iter().map(|&q| if q { QUEEN } else { EMPTY }).collect()
    }

    /// Whether a queen stands on (row, col), 0-based.
    pub fn has_queen(&self, row: usize, col: usize) -> bool {
        self.queens[row * self.n + col]
    }

    /// Places or removes a queen.
    pub fn set(&mut self, row: usize, col: usize, queen: bool) {
        self.queens[row * self.n + col] = queen;
    }

    /// Queen positions (row, col), row-major order.
    pub fn queens(&self) -> Vec<(usize, usize)> {
        (0..self.n * self.n).filter(|&i| self.queens[i]).map(|i| (i / self.n, i % self.n)).collect()
    }

    /// Number of queens on the board.
    pub fn queen_count(&self) -> usize {
        self.queens.iter().filter(|&&q| q).count()
    }

    /// Pairs of queens that attack each other (same row, column or diagonal).
    pub fn conflicts(&self) -> Vec<((usize, usize), (usize, usize))> {
        let qs = self.queens();
        let mut out = Vec::new();
        for (i, &a) in qs.iter().enumerate() {
            for &b in &qs[i + 1..] {
                if attacks(a, b) {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// A complete solution: `n` queens, none attacking another.
    pub fn is_solution(&self) -> bool {
        self.queen_count() == self.n && self.conflicts().is_empty()
    }

    /// Every queen of `given` is also on `self`.
    pub fn keeps(&self, given: &Board) -> bool {
        self.n == given.n && given.queens.iter().zip(&self.queens).all(|(&g, &s)| !g || s)
    }

    /// A valid completion of the puzzle `given`: a solution that keeps every given queen.
    pub fn completes(&self, given: &Board) -> bool {
        self.keeps(given) && self.is_solution()
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.n {
            let row: String = (0..self.n).map(|c| if self.has_queen(r, c) { 'Q' } else { '.' }).collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

fn attacks(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

impl Board {
    /// Reads a model's prediction as a board: a queen iff the token is the queen token (any other
    /// token, pad included, is an empty cell), so every prediction is a board the rules can judge.
    pub fn from_prediction(tokens: &[u32], n: usize) -> Board {
        let mut b = Board::empty(n).expect("the model's side is a supported side");
        for (i, &t) in tokens.iter().enumerate().take(n * n) {
            if t == QUEEN {
                b.set(i / n, i % n, true);
            }
        }
        b
    }
}
