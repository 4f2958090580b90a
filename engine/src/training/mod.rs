//! GRAM/TRM training, one loop for `native-trainer train` and the page's worker: the run's
//! course (learning-rate schedule, optimiser, each step's randomness), its training pairs, the
//! in-flight batch of carried trajectories, gradient accumulation over micro-batches, the
//! optimiser step, a run held in memory for the page ([`Trainer`]), the page's held-out measure
//! of it ([`held_out`], what `native-trainer eval --part validation` computes), its curve
//! ([`curve`]), the recorded run the page opens on ([`recorded`]) and "Try it" ([`trial`]). The trainer adds what only
//! it does: files, checkpoints, logs, Sudoku's generated pool and imports, and data parallelism
//! over several devices (threads, which the page's worker does not have).

pub mod accumulate;
pub mod batch;
pub mod course;
pub mod curve;
pub mod held_out;
pub mod listed;
pub mod micro_batch;
pub mod recorded;
pub mod source;
pub mod step;
pub mod trainer;
pub mod trial;

pub use course::Schedule;
pub use held_out::{HeldOut, HeldOutScore};
pub use listed::Listed;
pub use source::{Pair, TrainSource};
pub use step::{Diverged, Learner, StepOut, StepPlan, train_step};
pub use trainer::{TrainSpec, Trainer};
