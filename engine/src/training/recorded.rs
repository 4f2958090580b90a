//! The training run `/train` opens on: GRAM and TRM trained from the same seed at the page's
//! width, cadence and length, by the page's own code ([`CurveRun`]), computed ahead by
//! `native-trainer record --task train` (`public/runs/train.json`). Its curves are what a
//! visitor's Train computes again step for step; its seconds are the recording machine's.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::curve::{Cadence, CurvePoint, CurveRun, Reported};
use super::held_out::HeldOut;
use super::trainer::{TrainSpec, Trainer};
use crate::tasks::TaskId;

/// How `/train` reports: a point every 5 steps, the held-out measure (16 validation inputs, 10
/// samples each) every 25.
pub const PAGE_CADENCE: Cadence = Cadence { point_every: 5, measure_every: 25, held_out: HeldOut { inputs: 16, samples: 10 } };
/// The widths (`d_model`) the page trains at (its worker and `record` refuse others).
pub const PAGE_WIDTHS: [usize; 2] = [32, 64];
/// Steps a page's Train runs (each model) before it pauses by itself, and the recorded run's.
pub const PAGE_STEPS: usize = 2_000;

/// Both models' curves of one recorded run.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RecordedTraining {
    /// The task's id (`coloring6`).
    pub task: String,
    pub seed: u64,
    /// The networks' width (`d_model`).
    pub width: usize,
    pub steps: usize,
    pub cadence: Cadence,
    pub gram: Vec<CurvePoint>,
    pub trm: Vec<CurvePoint>,
}

/// What a recording trains: both models from `seed` at `width`, `steps` steps each, reported
/// at `cadence`.
#[derive(Clone, Copy, Debug)]
pub struct Recording {
    pub task: TaskId,
    pub seed: u64,
    pub width: usize,
    pub steps: usize,
    pub cadence: Cadence,
}

/// Trains GRAM, then TRM, as the page would, timed by `clock` (milliseconds); `progress` sees
/// every point (which model: GRAM is `true`, the point).
pub fn record_training(
    what: Recording,
    device: &Device,
    clock: &dyn Fn() -> f64,
    progress: &mut dyn FnMut(bool, &Reported),
) -> Result<RecordedTraining, String> {
    let Recording { task, seed, width, steps, cadence } = what;
    let mut curves = Vec::new();
    for guidance in [true, false] {
        let mut run = CurveRun::new(Trainer::new(TrainSpec::at_width(task, guidance, width)?, seed, device)?);
        while run.trainer.steps_taken() < steps {
            let reported = run
                .step(cadence, clock)
                .map_err(|d| format!("diverged at step {} (a loss term was {})", run.trainer.steps_taken() + 1, d.value))?;
            if let Some(r) = reported {
                progress(guidance, &r);
            }
        }
        curves.push(run.curve);
    }
    let trm = curves.pop().unwrap_or_default();
    let gram = curves.pop().unwrap_or_default();
    Ok(RecordedTraining { task: task.id(), seed, width, steps, cadence, gram, trm })
}
