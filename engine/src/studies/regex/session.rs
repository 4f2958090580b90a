//! A `/jepa` training session: the LM-only model and the LM + LLM-JEPA model trained
//! side by side from the same seed on the training pairs, one [`LiveModel`] step each per
//! session step, with the page's figures: the means of both models' training figures every
//! [`PROGRESS_EVERY`] steps and a [`Snapshot`] of each every [`SNAPSHOT_EVERY`]. Plain
//! synchronous Rust: the browser's worker calls it step by step between its messages, and
//! [`record_session`] runs it straight through for the recorded session the page shows the
//! moment it opens (`native-trainer record --task jepa`, `public/runs/jepa.json`).

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::language::{Pair, pairs};
use super::live::{LiveModel, Snapshot};
use super::model::{Objective, RegexModel, example};
use crate::lm::llm_jepa::LlmJepa;
use crate::lm::objective::StepFigures;
use crate::lm::sft::Example;
use crate::tasks::split::{Part, spread};

/// Steps between two snapshots of both models.
pub const SNAPSHOT_EVERY: usize = 50;
/// Steps between two progress points (the loss curves).
pub const PROGRESS_EVERY: usize = 5;
/// Validation descriptions a snapshot judges, and pairs it projects.
pub const JUDGED: usize = 48;
pub const PROJECTED: usize = 40;
/// Steps of the recorded session `/jepa` shows the moment it opens (`public/runs/jepa.json`).
pub const RECORDED_STEPS: usize = 600;

/// LLM-JEPA with the page's knobs. No JEPA dropout live: every step shows the term's effect.
pub fn live_objective(lambda: f64, k: usize) -> Objective {
    Objective::LlmJepa(LlmJepa { k, lambda, dropout: 0.0 })
}

/// Both models' training figures over [`PROGRESS_EVERY`] steps (means).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct ProgressPoint {
    pub step: usize,
    /// (LM-only, LM + LLM-JEPA) SFT cross-entropy per answer token.
    pub ce: (f32, f32),
    /// LLM-JEPA's mean cos(text, code) on its batches (NaN when no step had the term).
    pub jepa_cos: f32,
}

/// The running sums behind the next [`ProgressPoint`]. A caller keeps one per stretch of
/// training (the worker: one per request, so a resumed session reports every 5 steps from
/// where it resumed).
#[derive(Default, Clone, Debug)]
pub struct Averages {
    ce: (f64, f64),
    cos: f64,
    n: usize,
    n_cos: usize,
}

impl Averages {
    fn add(&mut self, lm: &StepFigures, jepa: &StepFigures) {
        self.ce = (self.ce.0 + lm.ce as f64, self.ce.1 + jepa.ce as f64);
        self.n += 1;
        if let Some(c) = jepa.jepa {
            self.cos += c as f64;
            self.n_cos += 1;
        }
    }

    /// After [`PROGRESS_EVERY`] steps: their means at `step`, and the sums start over.
    fn report(&mut self, step: usize) -> Option<ProgressPoint> {
        if self.n < PROGRESS_EVERY {
            return None;
        }
        let n = self.n as f64;
        let jepa_cos = if self.n_cos > 0 { (self.cos / self.n_cos as f64) as f32 } else { f32::NAN };
        let point = ProgressPoint { step, ce: ((self.ce.0 / n) as f32, (self.ce.1 / n) as f32), jepa_cos };
        *self = Averages::default();
        Some(point)
    }
}

/// What one session step produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Stepped {
    /// Every [`PROGRESS_EVERY`] steps of the caller's [`Averages`].
    pub progress: Option<ProgressPoint>,
    /// The step is a multiple of [`SNAPSHOT_EVERY`]: time for [`Session::snapshots`].
    pub snapshot_due: bool,
}

/// The two models and what they train on and are judged on.
pub struct Session {
    pub lm: LiveModel,
    pub jepa: LiveModel,
    data: Vec<Example>,
    judged: Vec<Pair>,
    projected: Vec<Pair>,
}

impl Session {
    /// Two fresh models from `seed` (LM only first, then LM + LLM-JEPA, each after seeding the
    /// device), on the training pairs; the snapshots judge [`JUDGED`] validation descriptions
    /// and project [`PROJECTED`] pairs. `device` is an autodiff device.
    pub fn new(seed: u64, lambda: f64, k: usize, device: &Device) -> Session {
        let data = pairs(Part::Train).iter().map(|p| example(&p.description, &p.regex).expect("task pairs tokenize")).collect();
        let validation = pairs(Part::Validation);
        Session {
            lm: LiveModel::new(Objective::Lm, seed, device),
            jepa: LiveModel::new(live_objective(lambda, k), seed, device),
            data,
            judged: spread(&validation, JUDGED),
            projected: spread(&validation[1..], PROJECTED),
        }
    }

    /// A session that goes on from trained models (`(model, its steps)`, on the autodiff
    /// device), each with a fresh optimiser ("start from the end of training").
    pub fn from_trained(seed: u64, lambda: f64, k: usize, lm: (RegexModel, usize), jepa: (RegexModel, usize), device: &Device) -> Session {
        // Fresh models first, as a fresh session: the device's seeding is the same either way.
        let mut s = Session::new(seed, lambda, k, device);
        s.lm = LiveModel::from_model(lm.0, Objective::Lm, seed);
        s.jepa = LiveModel::from_model(jepa.0, live_objective(lambda, k), seed);
        s.lm.step = lm.1;
        s.jepa.step = jepa.1;
        s
    }

    /// LLM-JEPA's knobs from the next step on.
    pub fn retune(&mut self, lambda: f64, k: usize) {
        self.jepa.objective = live_objective(lambda, k);
    }

    /// The session's step (the JEPA model's).
    pub fn step_count(&self) -> usize {
        self.jepa.step
    }

    /// One step of each model (LM only first), its figures added to `averages`.
    pub fn step(&mut self, averages: &mut Averages, device: &Device) -> Stepped {
        let (_, a) = self.lm.step(&self.data, device);
        let (_, b) = self.jepa.step(&self.data, device);
        averages.add(&a, &b);
        let step = self.jepa.step;
        Stepped { progress: averages.report(step), snapshot_due: step.is_multiple_of(SNAPSHOT_EVERY) }
    }

    /// Both models' snapshots (LM only, LM + LLM-JEPA), on the inner backend `device`.
    pub fn snapshots(&self, device: &Device) -> (Snapshot, Snapshot) {
        (self.lm.snapshot(&self.judged, &self.projected, device), self.jepa.snapshot(&self.judged, &self.projected, device))
    }
}

/// A session of fresh models trained straight through, as the page computes it when Train is
/// pressed with these settings: what `/jepa` shows the moment it opens. Rounded so
/// the JSON stays small ([`RecordedSession::rounded`]).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RecordedSession {
    /// LLM-JEPA's weight and [PRED] tokens, the seed, and the steps trained (each model); the
    /// models always start fresh.
    pub lambda: f64,
    pub k: usize,
    pub seed: u64,
    pub steps: usize,
    /// Every [`PROGRESS_EVERY`] steps.
    pub progress: Vec<ProgressPoint>,
    /// (LM only, LM + LLM-JEPA) at step 0 and every [`SNAPSHOT_EVERY`] steps.
    pub snapshots: Vec<(Snapshot, Snapshot)>,
}

/// `x` to `digits` decimals, through its decimal text (so the JSON writes it short).
fn decimals(x: f64, digits: usize) -> f64 {
    if !x.is_finite() {
        return x;
    }
    // + 0.0: no "-0.0" in the JSON.
    format!("{x:.digits$}").parse::<f64>().unwrap_or(x) + 0.0
}

/// `x` to `significant` significant digits.
fn significant(x: f64, significant: usize) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    decimals(x, (significant as i32 - 1 - x.abs().log10().floor() as i32).max(0) as usize)
}

/// Points on a plane to a thousandth of their largest coordinate (the scatter scales each
/// plane to fit, so finer steps cannot show).
fn plane(points: &mut [(f32, f32)], span: f32) {
    let digits = (3 - (span as f64).log10().floor() as i32).max(0) as usize;
    for p in points {
        *p = (decimals(p.0 as f64, digits) as f32, decimals(p.1 as f64, digits) as f32);
    }
}

fn rounded_snapshot(mut s: Snapshot) -> Snapshot {
    let span = s.text.iter().chain(&s.code).fold(1e-12f32, |m, p| m.max(p.0.abs()).max(p.1.abs()));
    plane(&mut s.text, span);
    plane(&mut s.code, span);
    s.semantic = decimals(s.semantic, 2);
    s.exact = decimals(s.exact, 2);
    s.cosine = decimals(s.cosine, 4);
    s.spread = significant(s.spread, 3);
    s.explained = (decimals(s.explained.0, 3), decimals(s.explained.1, 3));
    s
}

impl RecordedSession {
    /// The figures to what the page can show: cross-entropies 4 significant digits, cosines
    /// 4 decimals, accuracies 2, plane coordinates a thousandth of the plane's span.
    pub fn rounded(mut self) -> RecordedSession {
        for p in &mut self.progress {
            p.ce = (significant(p.ce.0 as f64, 4) as f32, significant(p.ce.1 as f64, 4) as f32);
            p.jepa_cos = decimals(p.jepa_cos as f64, 4) as f32;
        }
        self.snapshots = self.snapshots.into_iter().map(|(a, b)| (rounded_snapshot(a), rounded_snapshot(b))).collect();
        self
    }
}

/// Trains a fresh session `steps` steps with these settings on `device` (the inner backend;
/// training runs on its autodiff) and records what the page would show: snapshots at step 0
/// and every [`SNAPSHOT_EVERY`], progress every [`PROGRESS_EVERY`]. `on_step` hears each step.
pub fn record_session(lambda: f64, k: usize, seed: u64, steps: usize, device: &Device, mut on_step: impl FnMut(usize)) -> RecordedSession {
    let ad = device.clone().autodiff();
    let mut s = Session::new(seed, lambda, k, &ad);
    // First, as in the worker: the snapshots read the lazily initialised weights first.
    let mut snapshots = vec![s.snapshots(device)];
    let (mut progress, mut averages) = (Vec::new(), Averages::default());
    while s.step_count() < steps {
        let done = s.step(&mut averages, &ad);
        progress.extend(done.progress);
        if done.snapshot_due {
            snapshots.push(s.snapshots(device));
        }
        on_step(s.step_count());
    }
    RecordedSession { lambda, k, seed, steps, progress, snapshots }.rounded()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_keeps_what_shows_and_writes_short_numbers() {
        assert_eq!(decimals(0.123456, 3), 0.123);
        assert_eq!(significant(0.00512345, 3), 0.00512);
        assert_eq!(significant(2.345678, 4), 2.346);
        assert!(decimals(f64::NAN, 2).is_nan());
        let mut p = vec![(0.0123456f32, -0.00001f32), (0.5, 0.25)];
        plane(&mut p, 0.5);
        assert_eq!(p, vec![(0.0123, 0.0), (0.5, 0.25)]);
        assert!(p[0].1.is_sign_positive());
        assert_eq!(serde_json::to_string(&p[0]).unwrap(), "[0.0123,0.0]");
    }

    // That a recording is the session the worker steps is tested in its own process
    // (engine/tests/jepa_recorded_session.rs): it draws initial weights from the device's
    // generator, which other tests running beside it in this binary would draw from too.
}
