//! N trajectories of GRAM on one puzzle, as the N-Queens and Sudoku pages run them: the run's
//! record, its lifecycle (start, stop, step reports from the worker) and what every such page
//! says about it.

pub mod coverage;
pub mod instant;
pub mod latent_map;
pub mod opening;
pub mod page;
pub mod reasoner;
pub mod session;
pub mod shell;
pub mod sized_editor;
pub mod views;

/// The run's record and status line: plain Rust, tested natively (`crate::run_record`).
pub use crate::run_record as record;
