//! N-Queens (the GRAM paper, appendix E.1.1): boards and their text format ([`board`]), the exact
//! completion enumerator ([`solver`]), the paper's dataset and its split ([`data`]), accuracy and
//! coverage@N ([`metrics`]), the task interface ([`task`]) and the model configs ([`model`]).

mod board;
mod data;
mod error;
pub mod metrics;
mod model;
mod solver;
mod task;

pub use board::{Board, BoardError, EMPTY, PAD, QUEEN, VOCAB};
pub use data::{Instance, dataset, part_of, puzzles, removed_counts, split};
pub use error::QueensError;
pub use model::{gram_config, gram_mixer_config};
pub use solver::{all_solutions, completions};
pub use task::NQueens;

pub use crate::tasks::split::{Part, fnv1a64, spread};
