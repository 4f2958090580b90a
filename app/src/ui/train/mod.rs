//! `/train`: GRAM and TRM (the GRAM paper) trained from scratch side by side, each in a worker
//! of its own, on 3-colourings of 6-vertex graphs (the engine's `registry::LEARNABLE`), with the
//! engine's training step (`engine::training`, the one `native-trainer train` runs): live
//! curves of the loss and of the held-out accuracy and coverage, pause, resume, restart, "Try
//! it" (both models colour a held-out graph), the trained weights as files the trainer reads,
//! and a recorded run the page opens on.

#[cfg(target_arch = "wasm32")]
mod curves;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod recorded;
#[cfg(target_arch = "wasm32")]
mod state;
pub mod url;

#[cfg(target_arch = "wasm32")]
pub use page::TrainPage;
