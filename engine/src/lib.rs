//! The engine of the latent-reasoning playground: models (GRAM and its TRM baseline in `gram`,
//! the JEPA-Reasoner with its Talkers in `reasoner`, the language models of the JEPA objectives
//! in `lm`), the puzzle tasks behind one interface and one registry (`tasks`: text formats,
//! exact oracles, splits, metrics), the studies that bring their own models and data
//! (`studies`), the one solve/eval path, the one GRAM/TRM training step (`training`: the
//! trainer's and the page's), and the weights format. No UI, no files, no
//! network: the native trainer and the browser app call the same functions.
//!
//! The modules form layers, and a module imports only from the layers below it: `transfer` and
//! `nn`; `gram`; `reasoner` (gram's noise source only); `lm` (the Reasoner's layers); `tasks`;
//! `solve`, `training` and `studies`; `weights`. The models never name a task: a weights manifest names its
//! family and task, read once by `weights::identity`. burn's `flex` backend is always on (the CPU
//! path of every target); GPU backends are features of the binaries, not of the engine.
//! `docs/ARCHITECTURE.md` draws the layout.

pub mod gram;
pub mod lm;
pub mod nn;
pub mod reasoner;
pub mod solve;
pub mod studies;
pub mod tasks;
pub mod training;
pub mod transfer;
pub mod weights;

#[cfg(test)]
mod test_support;
