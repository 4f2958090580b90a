//! N-Queens: boards, tokens, the exact solver and completion enumerator, and the dataset of the
//! GRAM paper (seed 003, appendix E.1.1): complete solutions with `k` queens removed.
//!
//! Text format (the CLI's and the browser's): `n*n` characters, row-major, `.` for an empty cell and
//! `Q` for a queen (`q` is accepted on input). Tokens: 0 pad, 1 empty, 2 queen.

use std::collections::BTreeSet;
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
            BoardError::Char { index, found, n } => write!(
                f,
                "row {}, column {} is {found:?}: use '.' for empty and 'Q' for a queen",
                index / n + 1,
                index % n + 1
            ),
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
        (0..self.n * self.n)
            .filter(|&i| self.queens[i])
            .map(|i| (i / self.n, i % self.n))
            .collect()
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
            let row: String =
                (0..self.n).map(|c| if self.has_queen(r, c) { 'Q' } else { '.' }).collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

fn attacks(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

/// Every completion of `given` (a solution keeping all its queens), in lexicographic order of the
/// queen columns per row. Exact: a bitmask backtracking search over rows.
pub fn completions(given: &Board) -> Vec<Board> {
    let n = given.n;
    // The column forced in each row by a given queen; two given queens in a row have no completion.
    let mut forced = vec![None; n];
    for (r, c) in given.queens() {
        if forced[r].is_some() {
            return Vec::new();
        }
        forced[r] = Some(c);
    }
    let mut out = Vec::new();
    let mut cols = vec![0usize; n];
    search(n, 0, 0, 0, 0, &forced, &mut cols, &mut out);
    out
}

#[allow(clippy::too_many_arguments)]
fn search(
    n: usize,
    row: usize,
    used_cols: u32,
    diag: u32,
    anti: u32,
    forced: &[Option<usize>],
    cols: &mut [usize],
    out: &mut Vec<Board>,
) {
    if row == n {
        let mut board = Board { n, queens: vec![false; n * n] };
        for (r, &c) in cols.iter().enumerate() {
            board.queens[r * n + c] = true;
        }
        out.push(board);
        return;
    }
    let full = (1u32 << n) - 1;
    let mut free = full & !(used_cols | diag | anti);
    if let Some(c) = forced[row] {
        free &= 1 << c;
    }
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free &= free - 1;
        cols[row] = bit.trailing_zeros() as usize;
        search(
            n,
            row + 1,
            used_cols | bit,
            ((diag | bit) << 1) & full,
            (anti | bit) >> 1,
            forced,
            cols,
            out,
        );
    }
}

/// All solutions of the `n`-queens problem (92 for 8, 724 for 10).
pub fn all_solutions(n: usize) -> Vec<Board> {
    completions(&Board::empty(n).expect("supported side"))
}

/// Numbers of removed queens used by the paper: {5,6,7} on 8x8 and {7,8,9} on 10x10.
pub fn removed_counts(n: usize) -> Vec<usize> {
    match n {
        8 => vec![5, 6, 7],
        10 => vec![7, 8, 9],
        _ => vec![n / 2, n / 2 + 1, n / 2 + 2],
    }
}

/// Which part of the split a puzzle belongs to: train, validation (carved from the training
/// side: training never reads it, training-time choices are made on it) or test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    Train,
    Validation,
    Test,
}

impl Part {
    /// `train`, `validation` or `test`.
    pub fn parse(text: &str) -> Option<Part> {
        match text {
            "train" => Some(Part::Train),
            "validation" => Some(Part::Validation),
            "test" => Some(Part::Test),
            _ => None,
        }
    }

    /// The name [`Part::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Part::Train => "train",
            Part::Validation => "validation",
            Part::Test => "test",
        }
    }
}

/// 64-bit FNV-1a of the bytes of `text`.
pub fn fnv1a64(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The split is a pure function of the puzzle text, so anyone can recompute it:
/// **test iff `fnv1a64(text) % 20 < 3`** (17% of the 8x8 inputs), **validation iff
/// `fnv1a64(text) % 100` is in `15..20`** (5%; the same validation rule as Sudoku's and the
/// trees'), train otherwise, where `text` is the puzzle in the text format (`Q`/`.`, row-major,
/// no newline). In Python:
/// `h=0xcbf29ce484222325; for b in s.encode(): h=((h^b)*0x100000001b3)%2**64; test = h%20<3`.
/// (FNV-1a's low bits are uneven on these texts: `% 20 == 3` alone would hold 2.4%.)
pub fn part_of(puzzle: &Board) -> Part {
    let h = fnv1a64(&puzzle.to_text());
    if h % 20 < 3 {
        Part::Test
    } else if (15..20).contains(&(h % 100)) {
        Part::Validation
    } else {
        Part::Train
    }
}

/// One input of the dataset with all its valid completions.
#[derive(Clone, Debug)]
pub struct Instance {
    pub puzzle: Board,
    pub solutions: Vec<Board>,
}

impl Instance {
    /// Number of removed queens (`n` minus the given ones).
    pub fn removed(&self) -> usize {
        self.puzzle.n() - self.puzzle.queen_count()
    }
}

/// Every unique input of the task (solutions with `k` queens removed, `k` in
/// [`removed_counts`]), sorted by text, with its completions.
pub fn dataset(n: usize) -> Vec<Instance> {
    let mut inputs = BTreeSet::new();
    for solution in all_solutions(n) {
        let qs = solution.queens();
        for k in removed_counts(n) {
            for_each_subset(qs.len(), n - k, &mut |keep| {
                let mut puzzle = Board::empty(n).expect("supported side");
                for &i in keep {
                    puzzle.set(qs[i].0, qs[i].1, true);
                }
                inputs.insert(puzzle.to_text());
            });
        }
    }
    inputs
        .into_iter()
        .map(|text| {
            let puzzle = Board::parse(&text, n).expect("generated board");
            let solutions = completions(&puzzle);
            Instance { puzzle, solutions }
        })
        .collect()
}

/// The instances of one side of the split, in dataset order.
pub fn split(n: usize, part: Part) -> Vec<Instance> {
    dataset(n).into_iter().filter(|i| part_of(&i.puzzle) == part).collect()
}

/// `k` items spread evenly over the list (all of it when `k` >= its length). Over a split in
/// dataset order this keeps every removed-queen count represented.
pub fn spread<T: Clone>(list: &[T], k: usize) -> Vec<T> {
    if k >= list.len() {
        return list.to_vec();
    }
    (0..k).map(|i| list[i * list.len() / k].clone()).collect()
}

fn for_each_subset(len: usize, size: usize, f: &mut dyn FnMut(&[usize])) {
    fn go(start: usize, len: usize, size: usize, cur: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if cur.len() == size {
            f(cur);
            return;
        }
        for i in start..len {
            cur.push(i);
            go(i + 1, len, size, cur, f);
            cur.pop();
        }
    }
    go(0, len, size, &mut Vec::with_capacity(size), f);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solution_counts_match_known_values() {
        assert_eq!(all_solutions(8).len(), 92);
        assert_eq!(all_solutions(10).len(), 724);
        assert_eq!(all_solutions(6).len(), 4);
        assert!(all_solutions(8).iter().all(Board::is_solution));
    }

    #[test]
    fn completions_keep_given_queens_and_are_complete() {
        let puzzle = Board::parse(&format!("Q{}", ".".repeat(63)), 8).unwrap();
        let found = completions(&puzzle);
        assert_eq!(found.len(), 4, "a queen in a corner of 8x8 has 4 completions");
        assert!(found.iter().all(|b| b.completes(&puzzle)));
        // Brute force cross-check: filter all 92 solutions.
        let brute = all_solutions(8).into_iter().filter(|s| s.keeps(&puzzle)).count();
        assert_eq!(brute, found.len());
    }

    #[test]
    fn impossible_puzzles_have_no_completion() {
        let mut b = Board::empty(8).unwrap();
        b.set(0, 0, true);
        b.set(1, 1, true);
        assert_eq!(b.conflicts().len(), 1);
        assert!(completions(&b).is_empty());
        let mut two_in_row = Board::empty(8).unwrap();
        two_in_row.set(3, 0, true);
        two_in_row.set(3, 5, true);
        assert!(completions(&two_in_row).is_empty());
    }

    #[test]
    fn text_and_token_round_trips() {
        for s in all_solutions(8).iter().take(10) {
            assert_eq!(&Board::parse(&s.to_text(), 8).unwrap(), s);
            assert_eq!(&Board::from_tokens(&s.tokens(), 8).unwrap(), s);
            assert_eq!(s.tokens().iter().filter(|&&t| t == QUEEN).count(), 8);
        }
    }

    #[test]
    fn malformed_text_is_a_clear_error() {
        assert_eq!(
            Board::parse("Q...", 8),
            Err(BoardError::Length { expected: 64, found: 4 })
        );
        let bad = format!("{}x{}", ".".repeat(10), ".".repeat(53));
        let err = Board::parse(&bad, 8).unwrap_err();
        assert_eq!(err, BoardError::Char { index: 10, found: 'x', n: 8 });
        assert!(err.to_string().contains("row 2, column 3"), "{err}");
        assert!(matches!(Board::from_tokens(&[0; 64], 8), Err(BoardError::Token { .. })));
        assert_eq!(Board::empty(3), Err(BoardError::Size(3)));
    }

    #[test]
    fn dataset_is_deduplicated_and_every_input_is_solvable() {
        let data = dataset(8);
        let texts: BTreeSet<_> = data.iter().map(|i| i.puzzle.to_text()).collect();
        assert_eq!(texts.len(), data.len());
        for inst in &data {
            assert!((5..=7).contains(&inst.removed()));
            assert!(!inst.solutions.is_empty());
        }
    }

    #[test]
    fn split_is_disjoint_stable_and_near_85_15() {
        let train = split(8, Part::Train);
        let validation = split(8, Part::Validation);
        let test = split(8, Part::Test);
        let train_texts: BTreeSet<_> = train.iter().map(|i| i.puzzle.to_text()).collect();
        assert!(test.iter().chain(&validation).all(|i| !train_texts.contains(&i.puzzle.to_text())));
        assert!(test.iter().all(|i| part_of(&i.puzzle) == Part::Test));
        assert_eq!(train.len() + validation.len() + test.len(), dataset(8).len());
        let frac = validation.len() as f64 / dataset(8).len() as f64;
        assert!((0.035..0.065).contains(&frac), "validation fraction {frac}");
        let frac = test.len() as f64 / dataset(8).len() as f64;
        assert!((0.12..0.18).contains(&frac), "test fraction {frac}");
        // Stable: the rule is a pure function of the text (value computed independently in Python).
        assert_eq!(fnv1a64("Q"), 0xaf64_0c4c_8602_3e1c);
    }
}
