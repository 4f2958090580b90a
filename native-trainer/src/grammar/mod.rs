//! Training the grammar study's three models (the JEPA-Reasoner paper, section 5.2: a
//! Transformer, COCONUT and the JEPA-Reasoner with its Dual-Talker): the presets with their run
//! state, and the training loop.

pub mod commands;
pub mod phases;
pub mod presets;
pub mod recipe;
pub mod train;
pub mod weights;
