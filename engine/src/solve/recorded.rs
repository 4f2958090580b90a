//! A recorded run: what a page shows the moment it opens, before its model's weights have
//! loaded. `native-trainer record` runs the shipped weights through [`LiveRun`] (the browser's
//! own path) with the page's default settings and writes this as JSON under `public/runs/`.
//! Small, since it must arrive before the weights: each sample's probabilities are one hex digit
//! each (16 levels: the page shades with no finer steps than it can show), LPRM values three
//! decimals.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::VerifiedAt;
use super::error::SolveError;
use super::live::{LiveRun, RunSpec, StepView};
use super::step_answers::StepTask;
use crate::gram::Gram;
use crate::tasks::Copies;

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RecordedRun {
    /// The weights' name (e.g. `gram-nqueens8`) and the sha256 of the `.bpk` that made the run.
    pub model: String,
    pub weights_sha256: String,
    pub puzzle: String,
    pub samples: usize,
    pub steps: usize,
    pub seed: u64,
    pub scale: f64,
    pub verified_stop: bool,
    pub restarts: usize,
    /// What the rounds solved: the puzzle as given, or shuffled copies of it ([`RunSpec::copies`]).
    #[serde(default)]
    pub copies: Copies,
    pub verified: Option<VerifiedAt>,
    pub steps_recorded: Vec<RecordedStep>,
}

/// A [`StepView`] with its probabilities packed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RecordedStep {
    pub round: usize,
    pub step: usize,
    pub boards: Vec<String>,
    pub values: Vec<f32>,
    pub scale: f64,
    /// Per sample, one hex digit per probability of [`StepView::probs`], `round(15 p)`.
    pub probs: Vec<String>,
    /// Per sample, the h sketch (two decimals).
    pub latents: Vec<Vec<f32>>,
    /// Per sample, the Q-head's halting logit (two decimals; absent from older recordings).
    #[serde(default)]
    pub halt_logits: Vec<f32>,
}

fn pack(p: &[f32]) -> String {
    p.iter().map(|&x| char::from_digit((x.clamp(0.0, 1.0) * 15.0).round() as u32, 16).unwrap_or('0')).collect()
}

fn unpack(s: &str) -> Vec<f32> {
    s.chars().map(|c| c.to_digit(16).unwrap_or(0) as f32 / 15.0).collect()
}

impl RecordedStep {
    fn of(v: StepView) -> Self {
        let packed = |rows: &[Vec<f32>]| rows.iter().map(|r| pack(r)).collect();
        Self {
            round: v.round,
            step: v.step,
            values: v.values.iter().map(|x| (x * 1000.0).round() / 1000.0).collect(),
            scale: v.scale,
            probs: packed(&v.probs),
            latents: v.latents.iter().map(|r| r.iter().map(|x| (x * 100.0).round() / 100.0).collect()).collect(),
            halt_logits: v.halt_logits.iter().map(|x| (x * 100.0).round() / 100.0).collect(),
            boards: v.boards,
        }
    }

    /// The step as the page reads it (probabilities to within 1/30).
    pub fn view(&self) -> StepView {
        let unpacked = |rows: &[String]| rows.iter().map(|r| unpack(r)).collect();
        StepView {
            round: self.round,
            step: self.step,
            boards: self.boards.clone(),
            probs: unpacked(&self.probs),
            values: self.values.clone(),
            scale: self.scale,
            latents: self.latents.clone(),
            halt_logits: self.halt_logits.clone(),
        }
    }
}

/// Runs `puzzle` to the end as the page would and records every step.
pub fn record(
    model: &Gram,
    task: &dyn StepTask,
    (name, sha256): (&str, &str),
    puzzle: &str,
    spec: RunSpec,
    device: &Device,
) -> Result<RecordedRun, SolveError> {
    let options = spec.options.clone();
    let (verified_stop, restarts, copies) = (spec.verified_stop, spec.restarts, spec.copies);
    let mut run = LiveRun::new(model, task, puzzle, spec, device)?;
    let mut steps_recorded = Vec::new();
    while !run.is_done() {
        steps_recorded.push(RecordedStep::of(run.step()));
    }
    Ok(RecordedRun {
        model: name.into(),
        weights_sha256: sha256.into(),
        puzzle: puzzle.into(),
        samples: options.samples,
        steps: options.max_steps,
        seed: options.seed,
        scale: options.guidance_scale,
        verified_stop,
        restarts,
        copies,
        verified: run.verified(),
        steps_recorded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_probabilities_come_back_within_a_thirtieth() {
        let p: Vec<f32> = (0..=100).map(|i| i as f32 / 100.0).chain([-0.5, 1.5]).collect();
        let back = unpack(&pack(&p));
        assert_eq!(back.len(), p.len());
        for (a, b) in p.iter().zip(&back) {
            assert!((a.clamp(0.0, 1.0) - b).abs() <= 1.0 / 30.0 + 1e-6, "{a} -> {b}");
        }
        assert_eq!(pack(&[0.0, 1.0, 0.5]), "0f8");
    }
}
