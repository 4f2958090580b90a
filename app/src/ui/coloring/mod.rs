//! `/coloring`: draw a graph, sample N 3-colourings with GRAM or TRM, watch the colours settle
//! over the supervision steps, compare what was found with the exact solver's colourings; and the
//! trial panel `/train`'s "Try it" draws its colourings with (`trial`).

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
#[cfg(target_arch = "wasm32")]
pub mod trial;
pub mod url;

#[cfg(target_arch = "wasm32")]
pub use page::ColoringPage;
