//! A GRAM or TRM run held in memory, stepped by its caller: what the page's worker trains
//! (`/train`), from a fresh initialisation on a listed task (`Listed`), with the trainer's own
//! step (`super::step`). `native-trainer train` runs the same step over the same state and adds
//! what only it does (files, checkpoints, logs, data parallelism), so a `Trainer` and
//! `train --preset P --seed S` hold the same weights after the same steps (a test in the trainer
//! holds it).

use burn::module::Module;
use burn::tensor::Device;

use super::batch::InFlight;
use super::course::{DATA, Schedule, adamw, step_rng};
use super::held_out::{HeldOut, HeldOutScore, measure};
use super::listed::Listed;
use super::step::{Diverged, Learner, StepOut, StepPlan, train_step};
use crate::gram::{Gram, GramConfig};
use crate::tasks::TaskId;
use crate::tasks::recipe::recipe_of;

/// The optimiser every browser-size GRAM/TRM recipe uses: peak lr 1e-3 after 200 warm-up steps
/// (cosine to 1e-4), AdamW weight decay 0.1.
pub const LR: f64 = 1e-3;
pub const WARMUP: usize = 200;
pub const WEIGHT_DECAY: f32 = 0.1;

/// What a run trains: the task, the network, and the optimiser's recipe.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSpec {
    pub task: TaskId,
    pub config: GramConfig,
    /// Trajectories per optimiser step.
    pub batch: usize,
    pub schedule: Schedule,
    pub weight_decay: f32,
    /// Optimiser steps of the whole run (the learning rate's cosine ends there).
    pub steps: usize,
}

impl TrainSpec {
    /// The task's own recipe (`TokenTask::recipe`), GRAM's network with `guidance`, TRM's
    /// without: the trainer's presets `gram-<task>` and `trm-<task>`. None for a task without one.
    pub fn of_task(task: TaskId, guidance: bool) -> Option<TrainSpec> {
        let r = recipe_of(task)?;
        let schedule = Schedule { lr: LR, warmup: WARMUP, ema: 0.0, grad_accum: 1, batch: r.batch };
        Some(TrainSpec {
            task,
            config: r.config.with_guidance(guidance),
            batch: r.batch,
            schedule,
            weight_decay: WEIGHT_DECAY,
            steps: r.steps,
        })
    }

    /// The task's recipe as [`TrainSpec::of_task`] makes it, at network width (`d_model`)
    /// `width`: what the page trains. An error for a task without a recipe.
    pub fn at_width(task: TaskId, guidance: bool, width: usize) -> Result<TrainSpec, String> {
        let spec = TrainSpec::of_task(task, guidance).ok_or_else(|| format!("{} has no training recipe", task.id()))?;
        Ok(TrainSpec { config: spec.config.clone().with_d_model(width), ..spec })
    }
}

/// A run in memory.
pub struct Trainer {
    pub spec: TrainSpec,
    pub seed: u64,
    learner: Learner,
    batch: InFlight,
    data: Listed,
    /// Optimiser steps taken.
    step: usize,
    /// The autodiff device the model trains on.
    device: Device,
}

impl Trainer {
    /// A fresh run of `spec` from `seed` on `device` (its autodiff twin is taken here): the
    /// model drawn from the seed as the trainer draws it (`crate::nn::fresh`), the batch's slots
    /// filled from the task's train part.
    pub fn new(spec: TrainSpec, seed: u64, device: &Device) -> Result<Trainer, String> {
        let data = Listed::new(spec.task, false)?;
        let ad = device.clone().autodiff();
        ad.seed(seed);
        let model = crate::nn::fresh::fresh(seed, &ad, |d| Gram::init(&spec.config, d));
        let optim = adamw(spec.weight_decay).init();
        let ema = (spec.schedule.ema > 0.0).then(|| model.valid());
        let batch = InFlight::fresh(&model, &data, spec.batch, spec.config.seq_len, &mut step_rng(seed, 0, DATA));
        Ok(Trainer { spec, seed, learner: Learner { model, optim, ema }, batch, data, step: 0, device: ad })
    }

    /// One optimiser step (past the run's last step the learning rate stays at its floor).
    pub fn step(&mut self) -> Result<StepOut, Diverged> {
        let plan = StepPlan {
            config: &self.spec.config,
            schedule: &self.spec.schedule,
            seed: self.seed,
            step: self.step,
            total_steps: self.spec.steps,
        };
        let out = train_step(&mut self.learner, &mut self.batch, &self.data, plan, std::slice::from_ref(&self.device), None)?;
        self.step += 1;
        Ok(out)
    }

    /// Optimiser steps taken.
    pub fn steps_taken(&self) -> usize {
        self.step
    }

    /// The weights as they would ship (their average where kept), off the autodiff graph.
    pub fn model(&self) -> Gram {
        self.learner.ema.clone().unwrap_or_else(|| self.learner.model.valid())
    }

    /// The page's held-out measure of the weights as they would ship (`super::held_out`).
    pub fn held_out(&self, held_out: HeldOut) -> HeldOutScore {
        let plain = self.model();
        let device = plain.devices()[0].clone();
        measure(self.spec.task, &plain, held_out, &device)
    }
}
