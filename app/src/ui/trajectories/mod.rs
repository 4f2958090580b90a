//! N trajectories of GRAM on one puzzle, as the N-Queens and Sudoku pages run them: the run's
//! record, its lifecycle (start, stop, step reports from the worker) and what every such page
//! says about it.

pub mod reasoner;
pub mod record;
pub mod session;
pub mod views;
