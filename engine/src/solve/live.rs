//! One puzzle's run as the browser shows it, step by step: N trajectories (one when they would
//! all be the same), the verified stop with restarts, and the visitor's changes mid-run (a new
//! guidance scale, a burst of noise on one sample), each step read as the page's [`StepView`].
//! The worker drives it asynchronously (WebGPU) and `native-trainer record` synchronously, so a
//! recorded run is exactly what the page would have computed.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::step_answers::StepTask;
use super::{Restarts, VerifiedAt, round_copy, round_seed, rounds_to_run, trajectories_to_run};
use crate::gram::{Gram, Observation, SampleOptions, Trajectories};
use crate::tasks::InputCopy;

/// A change to running trajectories before supervision step `step` (1-based, counted over
/// restarts, as the page numbers its steps).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub enum Intervention {
    /// The guidance scale from `step` on.
    Scale { step: usize, scale: f64 },
    /// A burst of latent noise (sigma relative to the RMS-1 state) on one sample before `step`.
    Perturb { step: usize, sample: usize, sigma: f64 },
}

impl Intervention {
    pub fn step(self) -> usize {
        match self {
            Self::Scale { step, .. } | Self::Perturb { step, .. } => step,
        }
    }
}

/// One supervision step of every sample, as the page reads it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct StepView {
    /// 0-based round (restart) the step belongs to.
    pub round: usize,
    /// 1-based supervision step within its round.
    pub step: usize,
    /// Each sample's answer as puzzle text.
    pub boards: Vec<String>,
    /// Per sample, what the page shades its answer with, in the task's order
    /// ([`crate::tasks::TokenTask::shading`]: N-Queens P(queen) per cell, Sudoku P(digit 1..9)
    /// per cell, colouring P(colour 0..3) per vertex, digits P(white) per pixel).
    pub probs: Vec<Vec<f32>>,
    /// LPRM value per sample.
    pub values: Vec<f32>,
    /// The guidance scale this step ran with.
    pub scale: f64,
    /// Per sample, a sketch of its high-level state h ([`LATENT_SKETCH`] numbers): the latent map's input.
    #[serde(default)]
    pub latents: Vec<Vec<f32>>,
    /// Per sample, the Q-head's halting logit: PTRM's best-Q pick is the highest at the step.
    #[serde(default)]
    pub halt_logits: Vec<f32>,
}

/// One projection for every run, so maps of two runs are drawn from the same sketch.
const SKETCH_SEED: u64 = 0x5eed;

/// Dimensions of the h sketch a step carries (`Trajectories::with_latent_sketch`).
pub const LATENT_SKETCH: usize = 32;

/// What a run is asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    /// N, guidance scale, step budget, seed (`samples` is what the page shows).
    pub options: SampleOptions,
    /// End at the first step where a sample passes the rules.
    pub verified_stop: bool,
    /// With the stop: whole budgets run again with fresh noise when nothing passes
    /// (`usize::MAX`: until a sample passes or the caller stops asking for steps).
    pub restarts: usize,
    /// Each restart solves a fresh answer-preserving copy of the puzzle (shown in the puzzle's
    /// own frame) where the task makes one.
    pub restart_copies: bool,
    pub interventions: Vec<Intervention>,
}

/// A run in progress.
pub struct LiveRun<'m> {
    model: &'m Gram,
    task: &'m dyn StepTask,
    tokens: Vec<u32>,
    spec: RunSpec,
    /// Trajectories actually run (1 for a deterministic run left as it is).
    run: SampleOptions,
    rounds: usize,
    round: usize,
    /// The copy this round solves (none in round 0 or without copies).
    copy: Option<InputCopy>,
    trajectories: Trajectories<'m>,
    device: Device,
    scale: f64,
    /// Steps taken over every round.
    steps: usize,
    verified: Option<VerifiedAt>,
}

impl<'m> LiveRun<'m> {
    /// Reads `puzzle` as `task` says; a malformed puzzle is a sentence.
    pub fn new(model: &'m Gram, task: &'m dyn StepTask, puzzle: &str, spec: RunSpec, device: &Device) -> Result<Self, String> {
        let tokens = task.tokens(puzzle)?;
        // Not once the visitor changed the run: a raised scale or a perturbed sample makes the N differ.
        let run = if spec.interventions.is_empty() { trajectories_to_run(model, &spec.options) } else { spec.options.clone() };
        let restarts = Restarts { rounds: spec.restarts.saturating_add(1), copies: spec.restart_copies };
        let rounds = if spec.verified_stop { rounds_to_run(model, &spec.options, restarts) } else { 1 };
        let trajectories = Trajectories::new(model, std::slice::from_ref(&tokens), run.clone(), device).with_latent_sketch(LATENT_SKETCH, SKETCH_SEED);
        let scale = spec.options.guidance_scale;
        Ok(Self { model, task, tokens, spec, run, rounds, round: 0, copy: None, trajectories, device: device.clone(), scale, steps: 0, verified: None })
    }

    /// The budget of every round is spent, or a sample verified.
    pub fn is_done(&self) -> bool {
        self.verified.is_some() || (self.trajectories.is_done() && self.round + 1 >= self.rounds)
    }

    /// Steps taken so far, over every round.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Where the verified stop found a sample that passes the rules.
    pub fn verified(&self) -> Option<VerifiedAt> {
        self.verified
    }

    /// The next step, computed on the CPU (native: `native-trainer record`).
    pub fn step(&mut self) -> StepView {
        self.before_step();
        let obs = self.trajectories.step().clone();
        self.after_step(&self.back(obs))
    }

    /// The next step with an asynchronous read-back (WebGPU in a browser).
    pub async fn step_async(&mut self) -> Result<StepView, String> {
        self.before_step();
        let obs = self.trajectories.step_async().await?.clone();
        Ok(self.after_step(&self.back(obs)))
    }

    /// A step in the puzzle's own frame (a copy's read back).
    fn back(&self, obs: Observation) -> Observation {
        match &self.copy {
            Some(c) => c.observation_back(&obs),
            None => obs,
        }
    }

    /// A new round when the last one is spent (all N from z0 with the round's noise, on the
    /// round's copy when there is one), then the visitor's changes due at this step.
    fn before_step(&mut self) {
        if self.trajectories.is_done() {
            self.round += 1;
            let options = SampleOptions { seed: round_seed(self.spec.options.seed, self.round), ..self.run.clone() };
            let (task, tokens) = (self.task, &self.tokens);
            self.copy = round_copy(self.spec.options.seed, self.round, self.spec.restart_copies, |rng| task.restart_copy(tokens, rng));
            let input = self.copy.as_ref().map_or_else(|| self.tokens.clone(), |c| c.x.clone());
            self.trajectories =
                Trajectories::new(self.model, std::slice::from_ref(&input), options, &self.device).with_latent_sketch(LATENT_SKETCH, SKETCH_SEED);
            self.scale = self.spec.options.guidance_scale;
        }
        let next = self.steps + 1;
        let rows = self.run.samples;
        for change in self.spec.interventions.iter().filter(|i| i.step() <= next) {
            match *change {
                // Every change up to now again, so a new round takes the newest scale.
                Intervention::Scale { scale, .. } => {
                    self.scale = scale;
                    self.trajectories.set_guidance_scale(scale);
                }
                Intervention::Perturb { step, sample, sigma } if step == next => {
                    self.trajectories.perturb(sample.min(rows - 1), sigma, round_seed(self.spec.options.seed ^ 0x9e37_79b9, step))
                }
                Intervention::Perturb { .. } => {}
            }
        }
    }

    fn after_step(&mut self, obs: &Observation) -> StepView {
        self.steps += 1;
        let rows = self.run.samples;
        let take = |s: usize| s.min(rows - 1);
        let n = self.spec.options.samples;
        let mut view = StepView {
            round: self.round,
            step: obs.step,
            boards: Vec::with_capacity(n),
            probs: Vec::with_capacity(n),
            values: (0..n).map(|s| obs.values[take(s)]).collect(),
            scale: self.scale,
            latents: (0..n).map(|s| obs.latents[take(s)].clone()).collect(),
            halt_logits: (0..n).map(|s| obs.halt_logits[take(s)]).collect(),
        };
        for s in 0..n {
            let a = self.task.answer(obs, take(s));
            view.boards.push(a.text);
            view.probs.push(a.probs);
        }
        if self.spec.verified_stop {
            let sample = (0..rows).find(|&r| self.task.is_right(&self.tokens, &obs.predictions[r]));
            self.verified = sample.map(|sample| VerifiedAt { round: self.round, step: obs.step, sample });
        }
        view
    }
}
