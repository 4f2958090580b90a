//! `/tree`: route search with the JEPA-Reasoner. Edit or generate a tree, ask for the route from
//! the root to a leaf, and look inside each latent the Reasoner wrote: what the Talker read from
//! it, its cosines to the vocabulary, how much of the right node and of its sibling it holds, and
//! where it lies among the node embeddings (PCA). Parsing, layout, latents and every figure come
//! from the engine.

#[cfg(target_arch = "wasm32")]
mod explain;
pub mod headline;
#[cfg(target_arch = "wasm32")]
mod latents_panel;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod pca_plot;
#[cfg(target_arch = "wasm32")]
mod question_panel;
#[cfg(target_arch = "wasm32")]
mod reasoner_panel;
#[cfg(target_arch = "wasm32")]
mod state;
#[cfg(target_arch = "wasm32")]
mod step_card;
#[cfg(target_arch = "wasm32")]
mod tree_drawing;
pub mod url;

#[cfg(target_arch = "wasm32")]
pub use page::TreePage;
