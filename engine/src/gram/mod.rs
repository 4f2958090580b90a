//! GRAM, generative recursive reasoning (the GRAM paper), and its deterministic TRM baseline (the same
//! network with stochastic guidance off).
//!
//! - [`config`]: hyper-parameters, each with its reason; [`ablation`]: Table 10's variants;
//! - [`core`]: encoder, the shared recursive block as f_L / f_H, fixed z0, decoder and heads;
//! - [`puzzle_embedding`]: TRM's per-puzzle positions before the board (the ARC runs);
//! - [`guidance`]: the learned prior p(eps | u) and posterior q(eps | u, y), and their KL;
//! - [`loss`]: one deep-supervision step of training: truncated ELBO + halting + LPRM losses;
//! - [`noise`]: the seeded sequential generator; [`counter_noise`]: training's noise, drawn on
//!   the device from a counter;
//! - [`sample`]: N trajectories in one batch, observed step by step;
//! - [`ptrm`]: PTRM's test-time noise on the reasoning latent (arXiv 2605.19943);
//! - [`select`]: the vote, LPRM and Q (halting-head) selection of one answer among them.
//!
//! Their training step is the engine's `training` module, a layer above, beside the solve path
//! (it reads the tasks).

pub mod ablation;
pub mod config;
pub mod core;
pub mod counter_noise;
pub mod guidance;
pub mod loss;
pub mod noise;
pub mod ptrm;
pub mod puzzle_embedding;
pub mod sample;
pub mod select;

pub use ablation::Ablation;
pub use config::GramConfig;
pub use core::{Gram, Latent};
pub use loss::{SupervisionBatch, SupervisionOutput};
pub use sample::{Observation, SampleOptions, Trajectories};
pub use select::{Selection, lprm_select, majority_vote, q_select};
