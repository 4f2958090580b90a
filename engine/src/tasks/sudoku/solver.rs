//! The exact Sudoku solver: finds solutions up to a limit (so it proves uniqueness) and counts
//! its search effort, the puzzles' difficulty rating.

use super::{CELLS, SudokuGrid, units_of};

/// What the exact solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// Up to `limit` solutions, in search order.
    pub solutions: Vec<SudokuGrid>,
    /// Search nodes visited (digit placements tried).
    pub nodes: u64,
    /// Placements tried at cells with more than one candidate: the search effort a puzzle costs
    /// beyond forced moves, used as its difficulty rating.
    pub guesses: u64,
}

/// Exact depth-first solver: bitmask candidates per row, column and box. Forced moves first: a
/// cell with one candidate (naked single), then a digit with one place left in a row, column or
/// box (hidden single); otherwise it branches on the blank cell with the fewest candidates.
pub(super) struct Search {
    cells: [u8; CELLS],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    limit: usize,
    /// Digit order per search (for the generator's random fills); identity when solving.
    order: [u8; 9],
    /// Look for hidden singles. Off for the generator's random fills, whose grids (and so the
    /// shipped split) were defined by the search without them.
    pub(super) hidden_singles: bool,
    pub(super) report: SolveReport,
}

impl Search {
    pub(super) fn new(grid: &SudokuGrid, limit: usize, order: [u8; 9]) -> Option<Search> {
        let mut s = Search {
            cells: [0; CELLS],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            limit,
            order,
            hidden_singles: true,
            report: SolveReport { solutions: vec![], nodes: 0, guesses: 0 },
        };
        for i in 0..CELLS {
            let d = grid.get(i);
            if d != 0 {
                let (r, c, b) = units_of(i);
                let bit = 1u16 << d;
                if (s.rows[r] | s.cols[c] | s.boxes[b]) & bit != 0 {
                    return None; // the givens already conflict
                }
                s.place(i, d);
            }
        }
        Some(s)
    }

    fn place(&mut self, i: usize, d: u8) {
        let (r, c, b) = units_of(i);
        let bit = 1u16 << d;
        self.cells[i] = d;
        self.rows[r] |= bit;
        self.cols[c] |= bit;
        self.boxes[b] |= bit;
    }

    fn clear(&mut self, i: usize, d: u8) {
        let (r, c, b) = units_of(i);
        let bit = !(1u16 << d);
        self.cells[i] = 0;
        self.rows[r] &= bit;
        self.cols[c] &= bit;
        self.boxes[b] &= bit;
    }

    fn candidates(&self, i: usize) -> u16 {
        let (r, c, b) = units_of(i);
        !(self.rows[r] | self.cols[c] | self.boxes[b]) & 0b11_1111_1110
    }

    /// A (cell, digit) that is the only place for the digit in one of the 27 units; `Err` when
    /// some missing digit has no place in its unit (a dead end).
    fn hidden_single(&self) -> Result<Option<(usize, u8)>, ()> {
        for unit in 0..27 {
            let cells: [usize; 9] = std::array::from_fn(|k| unit_cell(unit, k));
            let present = match unit / 9 {
                0 => self.rows[unit % 9],
                1 => self.cols[unit % 9],
                _ => self.boxes[unit % 9],
            };
            let mut once = 0u16;
            let mut twice = 0u16;
            for &c in &cells {
                if self.cells[c] == 0 {
                    let cand = self.candidates(c);
                    twice |= once & cand;
                    once |= cand;
                }
            }
            let missing = !present & 0b11_1111_1110;
            if missing & !once != 0 {
                return Err(());
            }
            let single = once & !twice;
            if single != 0 {
                let d = single.trailing_zeros() as u8;
                let cell = cells.iter().copied().find(|&c| self.cells[c] == 0 && self.candidates(c) & (1 << d) != 0);
                return Ok(cell.map(|c| (c, d)));
            }
        }
        Ok(None)
    }

    pub(super) fn run(&mut self) {
        if self.report.solutions.len() >= self.limit {
            return;
        }
        // The blank with the fewest candidates.
        let mut best: Option<(usize, u16)> = None;
        for i in 0..CELLS {
            if self.cells[i] == 0 {
                let cand = self.candidates(i);
                let n = cand.count_ones();
                if n == 0 {
                    return; // dead end
                }
                if best.is_none_or(|(_, b)| n < b.count_ones()) {
                    best = Some((i, cand));
                    if n == 1 {
                        break;
                    }
                }
            }
        }
        let Some((i, cand)) = best else {
            self.report.solutions.push(SudokuGrid::from_cells(self.cells));
            return;
        };
        if self.hidden_singles && cand.count_ones() > 1 {
            match self.hidden_single() {
                Err(()) => return, // a digit has no place left in some unit
                Ok(Some((cell, d))) => {
                    self.report.nodes += 1;
                    self.place(cell, d);
                    self.run();
                    self.clear(cell, d);
                    return;
                }
                Ok(None) => {}
            }
        }
        let branching = cand.count_ones() > 1;
        for k in 0..9 {
            let d = self.order[k];
            if cand & (1 << d) != 0 {
                self.report.nodes += 1;
                self.report.guesses += branching as u64;
                self.place(i, d);
                self.run();
                self.clear(i, d);
                if self.report.solutions.len() >= self.limit {
                    return;
                }
            }
        }
    }
}

pub(super) const DIGITS: [u8; 9] = [1, 2, 3, 4, 5, 6, 7, 8, 9];

/// The `k`-th cell of unit `unit`: units 0-8 are rows, 9-17 columns, 18-26 boxes.
fn unit_cell(unit: usize, k: usize) -> usize {
    let i = unit % 9;
    match unit / 9 {
        0 => i * 9 + k,
        1 => k * 9 + i,
        _ => ((i / 3) * 3 + k / 3) * 9 + (i % 3) * 3 + k % 3,
    }
}

/// Up to `limit` solutions of `grid` and the search effort; givens that already conflict give
/// no solution and no search.
pub fn solve_with_limit(grid: &SudokuGrid, limit: usize) -> SolveReport {
    match Search::new(grid, limit, DIGITS) {
        Some(mut s) => {
            s.run();
            s.report
        }
        None => SolveReport { solutions: vec![], nodes: 0, guesses: 0 },
    }
}

/// The solution if there is exactly one (the standard for a proper puzzle).
pub fn unique_solution(grid: &SudokuGrid) -> Option<SudokuGrid> {
    let mut r = solve_with_limit(grid, 2);
    (r.solutions.len() == 1).then(|| r.solutions.remove(0))
}

/// Why a well-formed grid is not a proper puzzle (exactly one solution): what [`assess`] finds.
/// The text is the words a player reads (the Sudoku page's verdict; `impossible puzzle: ...` in
/// the task's parse).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SudokuProblem {
    /// The same digit twice in a row, column or box among the givens.
    #[error("two givens clash (same digit twice in a row, column or box)")]
    Clash,
    /// The givens admit no solution.
    #[error("this puzzle has no solution")]
    NoSolution,
    /// The givens admit two solutions or more.
    #[error("this puzzle has more than one solution")]
    SeveralSolutions,
}

/// Why a grid has no single answer; `None` for a proper puzzle.
pub fn problem_with(grid: &SudokuGrid) -> Option<SudokuProblem> {
    assess(grid).err()
}

/// One exact search that says both whether `grid` is a proper puzzle and what it costs:
/// `Ok(guesses)` (the search effort, the difficulty rating) when it has exactly one solution,
/// else why not.
pub fn assess(grid: &SudokuGrid) -> Result<u64, SudokuProblem> {
    if !grid.conflicts().is_empty() {
        return Err(SudokuProblem::Clash);
    }
    let r = solve_with_limit(grid, 2);
    match r.solutions.len() {
        0 => Err(SudokuProblem::NoSolution),
        1 => Ok(r.guesses),
        _ => Err(SudokuProblem::SeveralSolutions),
    }
}

/// A puzzle with its unique solution and rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub puzzle: SudokuGrid,
    pub solution: SudokuGrid,
    /// Search effort of the exact solver ([`SolveReport::guesses`] to prove uniqueness).
    pub guesses: u64,
}

impl Instance {
    /// Rates and checks a puzzle; `None` unless it has exactly one solution.
    pub fn from_puzzle(puzzle: SudokuGrid) -> Option<Instance> {
        let mut r = solve_with_limit(&puzzle, 2);
        (r.solutions.len() == 1).then(|| Instance { solution: r.solutions.remove(0), puzzle, guesses: r.guesses })
    }

    pub fn givens(&self) -> usize {
        self.puzzle.givens()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::sudoku::FAMOUS;

    #[test]
    fn solver_finds_the_known_solution_and_counts() {
        let g = SudokuGrid::parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79").unwrap();
        let s = unique_solution(&g).unwrap();
        assert_eq!(assess(&g), Ok(solve_with_limit(&g, 2).guesses));
        assert_eq!(s.to_text(), "534678912672195348198342567859761423426853791713924856961537284287419635345286179");
        assert!(s.solves(&g));
        // An empty grid has many solutions; the limit caps the count.
        assert_eq!(solve_with_limit(&SudokuGrid::empty(), 5).solutions.len(), 5);
        // Clashing givens and an unsolvable grid.
        let mut clash = g.clone();
        clash.set(1, 5);
        assert_eq!(clash.conflicts(), vec![0, 1]);
        assert_eq!(problem_with(&clash), Some(SudokuProblem::Clash));
        assert_eq!(SudokuProblem::Clash.to_string(), "two givens clash (same digit twice in a row, column or box)");
        let mut stuck = SudokuGrid::empty();
        for (i, d) in [1u8, 2, 3, 4, 5, 6, 7, 8].iter().enumerate() {
            stuck.set(i, *d);
        }
        stuck.set(9 * 4 + 8, 9); // row 1's last cell can only be 9, but column 9 has one
        assert_eq!(problem_with(&stuck), Some(SudokuProblem::NoSolution));
        assert_eq!(problem_with(&SudokuGrid::empty()), Some(SudokuProblem::SeveralSolutions));
        assert_eq!(SudokuProblem::NoSolution.to_string(), "this puzzle has no solution");
        assert_eq!(SudokuProblem::SeveralSolutions.to_string(), "this puzzle has more than one solution");
    }

    #[test]
    fn famous_puzzles_are_unique() {
        for (name, text) in FAMOUS {
            let g = SudokuGrid::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let r = solve_with_limit(&g, 2);
            assert_eq!(r.solutions.len(), 1, "{name}");
            assert!(r.guesses > 2, "{name} should need search, took {}", r.guesses);
        }
    }
}
