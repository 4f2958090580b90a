//! `/sudoku`: enter, paste or generate a puzzle; sample N trajectories of GRAM (or run the
//! deterministic TRM beside it); watch each cell's digit distribution settle over the supervision
//! steps, the samples vote, and the exact solver check the vote. Rules, solver, vote and curve
//! are the engine's.

#[cfg(target_arch = "wasm32")]
mod explain;
pub mod headline;
#[cfg(target_arch = "wasm32")]
mod inside_sample;
#[cfg(target_arch = "wasm32")]
pub(crate) mod mini_grid;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod puzzle_editor;
#[cfg(target_arch = "wasm32")]
mod state;
pub mod url;
#[cfg(target_arch = "wasm32")]
mod vote_panel;

#[cfg(target_arch = "wasm32")]
pub use page::SudokuPage;
