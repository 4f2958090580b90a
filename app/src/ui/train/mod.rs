//! `/train`: GRAM and TRM (the GRAM paper) trained from scratch side by side, each in a worker
//! of its own, on 3-colourings of 6-vertex graphs (the engine's `registry::LEARNABLE`), with the
//! engine's training step (`engine::training`, the one `native-trainer train` runs): live
//! curves of the loss and of the held-out accuracy and coverage, pause, resume, restart, and the
//! trained weights as files the trainer reads.

#[cfg(target_arch = "wasm32")]
mod curves;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod state;
pub mod url;

#[cfg(target_arch = "wasm32")]
pub use page::TrainPage;
