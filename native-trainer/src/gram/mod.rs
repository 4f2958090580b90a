//! Training GRAM and its TRM baseline (the GRAM paper): the presets (browser-size and the
//! paper's full size, each task's made from its recipe in the engine), the run state, the data
//! (each task's train part, or an import), data-parallel devices, the training loop and its
//! timing for the bench (`step_timing`). The step itself (the batch of carried trajectories,
//! gradient accumulation over micro-batches, the update) is the engine's
//! (`engine::training`), which the page's worker runs too.

pub mod data;
pub mod data_parallel;
pub mod full_presets;
pub mod imports;
pub mod meter;
pub mod presets;
pub mod recipe;
pub mod state;
pub mod step_timing;
pub mod train;
pub mod weights;
