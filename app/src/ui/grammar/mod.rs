//! `/grammar`: the JEPA-Reasoner's robustness claim (the JEPA-Reasoner paper, section 5.2) on one held-out
//! sequence of a context-free grammar. Flip a share of the prefix, perturb every latent, and
//! watch T (a Transformer), C (COCONUT) and R (the Reasoner with its Talker) complete it; the
//! grammar judges each completion, and the curve shows how this sequence's accuracy falls with
//! corruption. Sequences, corruption, completions and every verdict come from the engine.

#[cfg(target_arch = "wasm32")]
mod answers_panel;
#[cfg(target_arch = "wasm32")]
mod curve_plot;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod sequence_view;
#[cfg(target_arch = "wasm32")]
mod state;
pub mod url;

#[cfg(target_arch = "wasm32")]
pub use page::GrammarPage;
