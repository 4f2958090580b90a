//! Puzzle generation (unique solution, a chosen number of givens, rated by the solver's search
//! effort) and the validity-preserving augmentation used in training.

use super::solver::{DIGITS, Instance, Search, solve_with_limit};
use super::{CELLS, SudokuGrid};
use crate::gram::noise::NoiseSource;

/// A random full grid: the solver on an empty grid with a shuffled digit order per fill. Also
/// the data of unconditional grid generation (`tasks::boards::SudokuGrids`).
pub fn random_solution(rng: &mut NoiseSource) -> SudokuGrid {
    let mut grid = SudokuGrid::empty();
    // Seed the three diagonal boxes (independent of each other), then complete.
    for b in [0usize, 4, 8] {
        let mut digits = DIGITS;
        shuffle(&mut digits, rng);
        for (k, d) in digits.iter().enumerate() {
            let (r, c) = ((b / 3) * 3 + k / 3, (b % 3) * 3 + k % 3);
            grid.set(r * 9 + c, *d);
        }
    }
    let mut order = DIGITS;
    shuffle(&mut order, rng);
    let mut s = Search::new(&grid, 1, order).expect("diagonal boxes never clash");
    s.hidden_singles = false;
    s.run();
    s.report.solutions.pop().expect("diagonal boxes always complete")
}

fn shuffle<T>(items: &mut [T], rng: &mut NoiseSource) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.index(i + 1));
    }
}

/// Generates a unique-solution puzzle: a random full grid, then givens removed in random order
/// while the solution stays unique, until `target_givens` remain. If no further removal keeps
/// the solution unique, the puzzle stops above the target (rare above 24 givens).
pub fn generate(target_givens: usize, rng: &mut NoiseSource) -> Instance {
    let solution = random_solution(rng);
    let mut puzzle = solution.clone();
    let mut order: Vec<usize> = (0..CELLS).collect();
    shuffle(&mut order, rng);
    for &cell in &order {
        if puzzle.givens() <= target_givens {
            break;
        }
        let d = puzzle.get(cell);
        puzzle.set(cell, 0);
        if solve_with_limit(&puzzle, 2).solutions.len() != 1 {
            puzzle.set(cell, d);
        }
    }
    let guesses = solve_with_limit(&puzzle, 2).guesses;
    Instance { puzzle, solution, guesses }
}

/// Difficulty levels a visitor chooses, as ranges of givens (fewer givens, more search).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    Easy,
    Medium,
    Hard,
    Expert,
}

impl Difficulty {
    pub const ALL: [Difficulty; 4] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard, Difficulty::Expert];

    /// Inclusive range of givens.
    pub fn givens(self) -> (usize, usize) {
        match self {
            Difficulty::Easy => (36, 40),
            Difficulty::Medium => (32, 35),
            Difficulty::Hard => (28, 31),
            Difficulty::Expert => (22, 27),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
            Difficulty::Expert => "expert",
        }
    }

    pub fn parse(text: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == text)
    }

    /// The band a puzzle with `givens` givens falls in (more than 40 counts as easy, fewer than
    /// 22 as expert).
    pub fn of_givens(givens: usize) -> Difficulty {
        Difficulty::ALL.into_iter().find(|d| givens >= d.givens().0).unwrap_or(Difficulty::Expert)
    }

    /// A puzzle of this difficulty from `seed` (a pure function of both).
    pub fn generate(self, seed: u64) -> Instance {
        let mut rng = NoiseSource::new(seed ^ 0x5d0c_u64.wrapping_mul(self as u64 + 1));
        let (lo, hi) = self.givens();
        let target = lo + rng.index(hi - lo + 1);
        generate(target, &mut rng)
    }
}

/// A validity-preserving transformation of the grid (the GRAM paper and TRM train on such
/// augmentations): relabel digits, transpose, permute bands and stacks, permute rows within a
/// band and columns within a stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Augmentation {
    /// New digit for old digit `d` is `digits[d - 1]`.
    pub digits: [u8; 9],
    pub transpose: bool,
    /// Output row `r` reads input row `rows[r]`; likewise columns. Both keep bands intact.
    pub rows: [usize; 9],
    pub cols: [usize; 9],
}

impl Augmentation {
    pub fn identity() -> Self {
        Augmentation { digits: DIGITS, transpose: false, rows: std::array::from_fn(|i| i), cols: std::array::from_fn(|i| i) }
    }

    pub fn random(rng: &mut NoiseSource) -> Self {
        let mut digits = DIGITS;
        shuffle(&mut digits, rng);
        let lines = |rng: &mut NoiseSource| {
            let mut bands = [0usize, 1, 2];
            shuffle(&mut bands, rng);
            let mut out = [0usize; 9];
            for (k, &band) in bands.iter().enumerate() {
                let mut within = [0usize, 1, 2];
                shuffle(&mut within, rng);
                for j in 0..3 {
                    out[k * 3 + j] = band * 3 + within[j];
                }
            }
            out
        };
        let rows = lines(rng);
        let cols = lines(rng);
        Augmentation { digits, transpose: rng.uniform() < 0.5, rows, cols }
    }

    /// The input cell that output cell `cell` (row-major) reads.
    pub fn source(&self, cell: usize) -> usize {
        let (sr, sc) = (self.rows[cell / 9], self.cols[cell % 9]);
        let (sr, sc) = if self.transpose { (sc, sr) } else { (sr, sc) };
        sr * 9 + sc
    }

    pub fn apply(&self, grid: &SudokuGrid) -> SudokuGrid {
        let mut out = SudokuGrid::empty();
        for cell in 0..CELLS {
            let d = grid.get(self.source(cell));
            out.set(cell, if d == 0 { 0 } else { self.digits[d as usize - 1] });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::sudoku::unique_solution;

    #[test]
    fn generated_puzzles_are_unique_and_hit_their_band() {
        for d in Difficulty::ALL {
            for seed in 0..3 {
                let inst = d.generate(seed);
                assert_eq!(inst, d.generate(seed), "pure function of the seed");
                let (lo, hi) = d.givens();
                assert!((lo..=hi).contains(&inst.givens()), "{d:?} gave {}", inst.givens());
                assert_eq!(unique_solution(&inst.puzzle), Some(inst.solution.clone()));
                assert!(inst.solution.solves(&inst.puzzle));
            }
        }
    }

    #[test]
    fn augmentation_keeps_validity_and_uniqueness() {
        let mut rng = NoiseSource::new(3);
        let inst = generate(30, &mut rng);
        assert_eq!(Augmentation::identity().apply(&inst.puzzle), inst.puzzle);
        for _ in 0..20 {
            let a = Augmentation::random(&mut rng);
            let (p, s) = (a.apply(&inst.puzzle), a.apply(&inst.solution));
            assert!(s.is_solved());
            assert!(s.solves(&p));
            assert_eq!(p.givens(), inst.puzzle.givens());
            assert_eq!(unique_solution(&p), Some(s));
        }
    }
}
