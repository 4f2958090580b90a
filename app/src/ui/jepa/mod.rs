//! `/jepa`: LLM-JEPA (the LLM-JEPA paper) trained live. Two small language models learn to write the
//! regex an English description means, side by side in the page's worker: one with next-token
//! SFT alone, one with SFT + lambda * (1 - cos) between the description's and the regex's
//! embeddings (k [PRED] tokens end the description). The curves, the accuracy on held-out
//! descriptions and both views' embeddings on a plane come from the engine as they train.
//! Until the first Train the page shows a recorded session of its default settings
//! ([`recorded`]).

#[cfg(target_arch = "wasm32")]
mod curves;
pub mod headline;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod recorded;
#[cfg(target_arch = "wasm32")]
mod scatter;
#[cfg(target_arch = "wasm32")]
mod state;
pub mod url;

#[cfg(target_arch = "wasm32")]
pub use page::JepaPage;
