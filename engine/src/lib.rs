//! The engine of the latent-reasoning playground: models (GRAM and its TRM baseline, the
//! JEPA-Reasoner with its Talkers), tasks behind one interface (text formats, exact oracles,
//! splits, metrics), the one solve/eval path, and the weights format. No UI, no files, no
//! network: the native trainer and the browser app call the same functions.
//! `docs/ARCHITECTURE.md` draws the layout.

pub mod gram;
pub mod jepa;
pub mod lm;
pub mod nn;
pub mod solve;
pub mod tasks;
pub mod weights;

#[cfg(test)]
mod test_support;
