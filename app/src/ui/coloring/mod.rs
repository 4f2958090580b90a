//! `/coloring`: draw a graph, sample N 3-colourings with GRAM or TRM, watch the colours settle
//! over the supervision steps, compare what was found with the exact solver's colourings.

#[cfg(target_arch = "wasm32")]
mod editor;
#[cfg(target_arch = "wasm32")]
mod explain;
pub mod headline;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
pub(crate) mod picture;
#[cfg(target_arch = "wasm32")]
mod results;
#[cfg(target_arch = "wasm32")]
mod state;
#[cfg(target_arch = "wasm32")]
mod trajectory;
pub mod url;

#[cfg(target_arch = "wasm32")]
pub use page::ColoringPage;
