//! Generation, p(x): the GRAM paper (section 3.3) fixes a model's input to a constant and trains it on
//! the data itself, so sampling the stochastic recursion draws new data; deterministic TRM can
//! only give one answer. Here the data are whole boards: every solution of 8x8 N-Queens
//! ([`queens`]), the input the empty board; and full 9x9 Sudoku grids ([`sudoku_grids`]), a
//! fixed random sample of them, the input the empty grid. What is scored ([`report`]) is the distribution of
//! the samples: the share that are valid, how many distinct valid boards they hold, and how many
//! of all the valid boards they cover, beside what a perfect sampler would cover with as many
//! independent draws.
//!
//! **The split has nothing to hold out**: p(x) has one input, the constant, so every part of the
//! split holds that one instance and training sees every board (as the GRAM paper trains on all of
//! MNIST's training digits). What the eval measures is the sampler, not generalisation to unseen
//! inputs.

mod queens;
pub mod report;
mod sudoku_grids;

pub use queens::{NotEmptyBoard, QueensBoards};
pub use report::BoardsReport;
pub use sudoku_grids::{GRIDS_SEED, GridsInstance, NotEmptyGrid, SUDOKU_GRIDS, SudokuGrids, TRAIN_GRIDS, random_grids};
