//! What every run shares, whatever it trains: its checkpoints (written so an interruption loses
//! nothing), its course (learning-rate schedule, per-step randomness, stopping early, the guard
//! against divergence), the family its directory holds, its log and progress line, and its recorded
//! lineage (a fresh model drawn from its seed is `engine::nn::fresh`, which the page's training
//! shares).

pub mod checkpoint;
pub mod course;
pub mod family;
pub mod lineage;
pub mod log;
pub mod shipped;
