//! One optimiser step of GRAM/TRM training, the same for `native-trainer train` and the page's
//! worker: a deep-supervision step on every slot of the in-flight batch (`super::batch`), the
//! update, the weights' average, the refill of the slots that finished. Its randomness is
//! `step_rng(seed, step, ...)` only (`super::course`), so a step is a pure function of the state
//! it starts from.

use burn::optim::ModuleOptimizer;
use burn::tensor::{Device, Tensor};

use super::accumulate::{Cut, Spread, supervise};
use super::batch::{Finished, InFlight, Refill};
use super::course::{DATA, Schedule, step_noise, step_rng, warmup_cosine_lr};
use super::source::TrainSource;
use crate::gram::{Gram, GramConfig, SupervisionBatch};
use crate::nn::ema_update;

/// What an optimiser step changes: the weights (on the autodiff device), the optimiser's state
/// and the weights' average (off the autodiff graph; none without one).
pub struct Learner {
    pub model: Gram,
    pub optim: ModuleOptimizer,
    pub ema: Option<Gram>,
}

/// Which step this is, of which run.
#[derive(Clone, Copy, Debug)]
pub struct StepPlan<'a> {
    pub config: &'a GramConfig,
    pub schedule: &'a Schedule,
    pub seed: u64,
    /// Steps taken before this one.
    pub step: usize,
    pub total_steps: usize,
}

/// What one step measured.
pub struct StepOut {
    /// The step's loss, on the device, detached.
    pub loss: Tensor<1>,
    pub ce: f32,
    pub kl: f32,
    /// The share of the batch's rows whose prediction was a valid answer.
    pub valid: f64,
    /// The trajectories that ended at this step, and how many with a valid answer.
    pub finished: Finished,
    pub lr: f64,
}

/// A step that stopped before the update: a loss term or halting logit was not finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Diverged {
    /// The first non-finite value.
    pub value: f32,
    /// The step's learning rate.
    pub lr: f64,
}

/// One optimiser step of `plan`'s run on `batch`, drawing refills from `data`. `ads`: the
/// autodiff devices, the model's first (more than one: the trainer's data parallelism, through
/// `spread`). Nothing is changed when the step diverges.
pub fn train_step(
    learner: &mut Learner,
    batch: &mut InFlight,
    data: &dyn TrainSource,
    plan: StepPlan<'_>,
    ads: &[Device],
    spread: Option<Spread>,
) -> Result<StepOut, Diverged> {
    let ad = &ads[0];
    let (seed, step, schedule) = (plan.seed, plan.step, plan.schedule);
    let lr = warmup_cosine_lr(schedule.lr, schedule.warmup, step, plan.total_steps);
    let (x, y) = batch.tensors(ad);
    let reward = |row: usize, pred: &[u32]| data.reward(&batch.slots[row].pair, pred);
    let sup = SupervisionBatch { x, y, z: batch.z.clone() };
    let cut = Cut { micro: schedule.grad_accum, devices: ads, spread };
    let out =
        supervise(&learner.model, plan.config, sup, &reward, &mut step_noise(seed, step), cut).map_err(|value| Diverged { value, lr })?;
    let loss = out.loss;
    learner.model = learner.optim.step(lr, learner.model.clone(), out.grads);
    learner.ema = learner.ema.take().map(|avg| ema_update(avg, &learner.model, schedule.ema));
    let mut rng = step_rng(seed, step + 1, DATA);
    let refill = Refill { model: &learner.model, data, rng: &mut rng, n_sup: plan.config.n_sup };
    let finished = batch.advance(out.z, &out.halt_logits, &out.rewards, refill);
    let valid = out.rewards.iter().sum::<f32>() as f64 / out.rewards.len() as f64;
    Ok(StepOut { loss, ce: out.ce, kl: out.kl, valid, finished, lr })
}
