//! `/nqueens`: build a board, sample N trajectories, watch the supervision steps, compare what
//! was found with the exact solver's completions.

#[cfg(target_arch = "wasm32")]
mod board_editor;
#[cfg(target_arch = "wasm32")]
mod explain;
pub mod headline;
#[cfg(target_arch = "wasm32")]
pub(crate) mod mini_board;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod solutions;
#[cfg(target_arch = "wasm32")]
mod state;
#[cfg(target_arch = "wasm32")]
mod trajectory;
pub mod url;

#[cfg(target_arch = "wasm32")]
pub use page::NQueensPage;
