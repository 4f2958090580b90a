//! Live training for the browser's `/jepa` page: a model of the regex task trained
//! one step at a time on the training part, with its objective's knobs (LLM-JEPA's lambda and k)
//! changeable between steps, and a **snapshot** of what a visitor sees: semantic accuracy on
//! validation descriptions and both views' embeddings projected on their first two principal
//! axes. The same step as the trainer's (`lm::objective::objective_loss`); a constant learning
//! rate after a short warm-up, since a live run has no planned end.

use burn::module::Module;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::language::Pair;
use super::model::{LAYOUT, Objective, RegexModel, example, small_config};
use super::score::score_model;
use crate::gram::noise::NoiseSource;
use crate::lm::objective::{ContextStart, StepFigures, objective_loss};
use crate::lm::probe::{mean_cosine, spread, view_embeddings};
use crate::lm::sft::Example;
use crate::reasoner::analysis::Pca;

/// Batch of a live step (smaller than the trainer's 32: more steps per second on one core).
pub const LIVE_BATCH: usize = 16;
pub const LIVE_LR: f64 = 1e-3;
pub const LIVE_WARMUP: usize = 50;

/// One model trained live.
pub struct LiveModel {
    model: RegexModel,
    optim: ModuleOptimizer,
    pub objective: Objective,
    pub step: usize,
    seed: u64,
}

/// What the page draws for one model at one moment.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub step: usize,
    /// Semantic / exact accuracy (%) of greedy answers on the snapshot's descriptions.
    pub semantic: f64,
    pub exact: f64,
    /// Mean cos(text, code) of the projected pairs.
    pub cosine: f64,
    /// How spread out the description embeddings are (`lm::probe::spread`; 0: collapsed to one
    /// vector, where a cosine of 1 says nothing).
    pub spread: f64,
    /// Each pair's text and code embedding on the PCA plane (fitted on both views together).
    pub text: Vec<(f32, f32)>,
    pub code: Vec<(f32, f32)>,
    /// Share of variance on the two axes.
    pub explained: (f64, f64),
}

impl LiveModel {
    /// A fresh model; `device` is an autodiff device.
    pub fn new(objective: Objective, seed: u64, device: &Device) -> LiveModel {
        device.seed(seed);
        let model = small_config(objective).init(device);
        LiveModel::from_model(model, objective, seed)
    }

    /// Training continues from `model` (on an autodiff device) with a fresh optimiser.
    pub fn from_model(model: RegexModel, objective: Objective, seed: u64) -> LiveModel {
        let optim = AdamWConfig::new().with_weight_decay(0.01).init();
        LiveModel { model, optim, objective, step: 0, seed }
    }

    /// One optimiser step on a batch drawn from `data` (a pure function of seed and step).
    pub fn step(&mut self, data: &[Example], device: &Device) -> (f32, StepFigures) {
        let mut rng = NoiseSource::new(self.seed.wrapping_mul(0x9e37_79b9).wrapping_add(self.step as u64));
        let batch: Vec<Example> = (0..LIVE_BATCH).map(|_| data[rng.index(data.len())].clone()).collect();
        let (loss, figures) =
            objective_loss(&self.model, None, &batch, &LAYOUT, self.objective, ContextStart::AfterPrompt, &mut rng, device);
        let value: f32 = loss.clone().into_scalar();
        let lr = LIVE_LR * ((self.step + 1) as f64 / LIVE_WARMUP as f64).min(1.0);
        if value.is_finite() {
            let grads = GradientsParams::from_grads(loss.backward(), &self.model);
            self.model = self.optim.step(lr, self.model.clone(), grads);
        }
        self.step += 1;
        (value, figures)
    }

    /// Accuracy on `judged` and the two views of `projected`, on the inner backend.
    pub fn snapshot(&self, judged: &[Pair], projected: &[Pair], device: &Device) -> Snapshot {
        let lm = self.model.valid().lm;
        let k = self.objective.k();
        let s = score_model(&lm, judged, k, device);
        let ex: Vec<Example> = projected.iter().map(|p| example(&p.description, &p.regex).expect("task pairs tokenize")).collect();
        let (text, code) = view_embeddings(&lm, &ex, &LAYOUT, k, device);
        let pca = Pca::fit(&text.iter().chain(&code).cloned().collect::<Vec<_>>());
        let plane = |v: &[Vec<f32>]| v.iter().map(|e| pca.project(e)).map(|(x, y)| (x as f32, y as f32)).collect();
        Snapshot {
            step: self.step,
            semantic: 100.0 * s.semantic,
            exact: 100.0 * s.exact,
            cosine: mean_cosine(&text, &code),
            spread: spread(&text),
            text: plane(&text),
            code: plane(&code),
            explained: (pca.explained[0], pca.explained[1]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lm::llm_jepa::LlmJepa;
    use crate::studies::regex::language::pairs;
    use crate::tasks::split::{Part, spread};

    /// A few live steps move the JEPA model's views together faster than the LM's: the visible
    /// difference the page is built on (cosine after 60 steps, same seed and batches).
    #[test]
    fn live_steps_train_and_the_jepa_term_aligns_the_views() {
        let ad = Device::flex().autodiff();
        let data: Vec<Example> = spread(&pairs(Part::Train), 400).iter().map(|p| example(&p.description, &p.regex).unwrap()).collect();
        let probe = spread(&pairs(Part::Validation), 24);
        let jepa = Objective::LlmJepa(LlmJepa { k: 1, lambda: 2.0, dropout: 0.0 });
        let mut a = LiveModel::new(Objective::Lm, 1, &ad);
        let mut b = LiveModel::new(jepa, 1, &ad);
        let (first, _) = a.step(&data, &ad);
        let mut last = first;
        for _ in 0..59 {
            last = a.step(&data, &ad).0;
            b.step(&data, &ad);
        }
        assert!(last < first * 0.7, "the LM's loss falls: {first} -> {last}");
        let plain = Device::flex();
        let (sa, sb) = (a.snapshot(&probe[..4], &probe, &plain), b.snapshot(&probe[..4], &probe, &plain));
        assert_eq!((sa.step, sa.text.len(), sa.code.len()), (60, 24, 24));
        assert!(sb.cosine > sa.cosine + 0.2, "LLM-JEPA's views align: cos {} vs the LM's {}", sb.cosine, sa.cosine);
    }
}
