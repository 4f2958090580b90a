//! JEPA-Reasoner with its Talkers (the JEPA-Reasoner paper): a latent autoregressive reasoner on the unit
//! hypersphere, trained by next-token pretraining then self-supervised latent prediction (SST)
//! against an EMA target encoder; Talkers that turn latents into tokens; the mixed-latent
//! analysis. The tree route-search glue lives with its task (`tasks::tree::reasoner`).

pub mod analysis;
pub mod coconut;
pub mod latent_loop;
pub mod layers;
pub mod loss;
pub mod model;
pub mod talker;

pub use model::{Reasoner, ReasonerConfig, ReasonerModel, ReasonerModelConfig, Talker, TalkerConfig, TalkerKind};
