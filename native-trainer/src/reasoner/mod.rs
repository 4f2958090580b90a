//! Training the JEPA-Reasoner and its Talkers on tree route search (the JEPA-Reasoner paper,
//! section 5.1): the presets of its three phases with their run state, and the training loop.

pub mod commands;
pub mod presets;
pub mod train;
pub mod weights;
