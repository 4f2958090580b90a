//! Language models with a JEPA term (the T-decoder-JEPA and LLM-JEPA papers): [`model`], a small
//! decoder-only LM whose attention mask is an argument; [`masks`] (causal, bidirectional,
//! LLM-JEPA's block mask); [`sft`] (paired-view SFT batches and loss, greedy decoding);
//! [`llm_jepa`] (the LLM-JEPA paper: the packed two-view pass, [PRED] tokens, cosine loss);
//! [`t_jepa`] (the T-decoder-JEPA paper: the predictor, span masking, the EMA non-causal target encoder's
//! states, MSE); [`objective`] (the three arms, one weights shape, one step's loss); [`probe`]
//! (text vs code embeddings: a linear map's R^2, cosine).

pub mod llm_jepa;
pub mod masks;
pub mod model;
pub mod objective;
pub mod probe;
pub mod sft;
pub mod t_jepa;

#[cfg(test)]
mod tests;

pub use model::{Lm, LmConfig};
pub use sft::{Example, Layout};
