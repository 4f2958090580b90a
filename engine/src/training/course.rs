//! A GRAM/TRM run's course, shared by `native-trainer train` and the page's training: the
//! learning-rate schedule, the optimiser, and the randomness of each step, a pure function of
//! (seed, step, stream), so a run stopped and resumed at any step draws exactly what the
//! uninterrupted run draws.

use burn::optim::AdamWConfig;
use burn::optim::grad_clipping::GradientClippingConfig;

use serde::{Deserialize, Serialize};

use crate::gram::counter_noise::splitmix64;
use crate::gram::noise::NoiseSource;

/// Linear warm-up over `warmup` steps, then cosine from `lr` to `lr / 10` over the rest of the run.
pub fn warmup_cosine_lr(lr: f64, warmup: usize, step: usize, total: usize) -> f64 {
    if step < warmup {
        return lr * (step + 1) as f64 / warmup as f64;
    }
    let t = (step - warmup) as f64 / (total.saturating_sub(warmup)).max(1) as f64;
    lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * t.min(1.0)).cos()))
}

/// AdamW as every training loop configures it. Deviation: burn clips each parameter tensor's
/// gradient to norm 1 (the GRAM paper clips the global norm at 1.0); with ~30 tensors the two
/// differ only for outlier steps.
pub fn adamw(weight_decay: f32) -> AdamWConfig {
    AdamWConfig::new().with_weight_decay(weight_decay).with_grad_clipping(Some(GradientClippingConfig::Norm(1.0)))
}

/// The learning-rate schedule and weights' average a run trains with.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    pub lr: f64,
    pub warmup: usize,
    /// Decay of the weights' EMA; 0 = none.
    pub ema: f64,
    /// Micro-batches per optimiser step (`super::accumulate`); 1 in checkpoints written before it.
    #[serde(default = "one")]
    pub grad_accum: usize,
    /// Trajectories per optimiser step; 0 in checkpoints written before it (the preset's).
    #[serde(default)]
    pub batch: usize,
}

fn one() -> usize {
    1
}

/// Training pairs drawn into the batch (GRAM/TRM: the slots refilled after a step).
pub const DATA: u64 = 1;
/// Posterior noise of a supervision step (GRAM).
pub const NOISE: u64 = 2;

/// The generator of one step's `stream`: a pure function of (seed, step, stream). Nothing else
/// feeds a step's randomness, so a run stopped and resumed at any step draws exactly what the
/// uninterrupted run draws, with no generator state to save.
pub fn step_rng(seed: u64, step: usize, stream: u64) -> NoiseSource {
    NoiseSource::new(step_seed(seed, step, stream))
}

/// A step's posterior noise (GRAM's training draws): [`step_rng`]'s seed, its tensors drawn on
/// the device by the counter-based generator (`crate::gram::counter_noise`).
pub fn step_noise(seed: u64, step: usize) -> NoiseSource {
    NoiseSource::on_device(step_seed(seed, step, NOISE))
}

fn step_seed(seed: u64, step: usize, stream: u64) -> u64 {
    splitmix64(splitmix64(seed ^ stream.rotate_left(48)) ^ step as u64)
}
