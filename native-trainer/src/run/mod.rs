//! What every run shares, whatever it trains: its checkpoints (written so an interruption loses
//! nothing), its course (learning-rate schedule, per-step randomness, stopping early, the guard
//! against divergence), the family its directory holds, its log and progress line, its recorded
//! lineage, and a fresh model drawn from its seed.

pub mod checkpoint;
pub mod course;
pub mod family;
pub mod fresh;
pub mod lineage;
pub mod log;
pub mod shipped;
