//! Training the language models of the JEPA objectives (the LLM-JEPA and T-decoder-JEPA
//! papers) on the regex and arithmetic studies: the presets with their run state, and the
//! training loop.

pub mod arith;
pub mod commands;
pub mod presets;
pub mod train;
pub mod weights;
