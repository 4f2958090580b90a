//! The engine of the latent-reasoning playground: models (GRAM and its TRM baseline), puzzles with
//! exact solvers, the paper's metrics, and the weights format. No UI, no files, no network: the
//! native trainer and the browser app call the same functions.

pub mod gram;
pub mod jepa;
pub mod metrics;
pub mod nn;
pub mod solve;
pub mod sudoku_solve;
pub mod tasks;
pub mod weights;
