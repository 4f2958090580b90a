//! The three objectives the JEPA study compares, for any task of paired views: SFT
//! alone; + LLM-JEPA's cosine term (the LLM-JEPA paper, skipped with probability `dropout`); or
//! T-decoder-JEPA's `L_JEPA + lambda * L_LM` (the T-decoder-JEPA paper). One weights shape for all three
//! ([`JepaLm`]: the LM, and T-decoder-JEPA's predictor while it trains), and one step's loss
//! ([`objective_loss`]) shared by the trainer and the browser's live training.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Tensor};

use super::llm_jepa::{LlmJepa, jepa_loss, pack};
use super::model::{Lm, LmConfig};
use super::sft::{Example, Layout, sft_batch, sft_loss};
use super::t_jepa::{Predictor, PredictorConfig, Spans, TJepa, sample_spans, t_jepa_loss};
use crate::gram::noise::NoiseSource;

/// Which objective trains the LM (the ablation's three arms).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Objective {
    /// SFT alone (lambda = 0).
    Lm,
    LlmJepa(LlmJepa),
    TJepa(TJepa),
}

impl Objective {
    pub fn name(&self) -> &'static str {
        match self {
            Objective::Lm => "lm",
            Objective::LlmJepa(_) => "llm-jepa",
            Objective::TJepa(_) => "t-jepa",
        }
    }

    /// [PRED] tokens in the prompt (LLM-JEPA's k; 0 otherwise).
    pub fn k(&self) -> usize {
        match self {
            Objective::LlmJepa(j) => j.k,
            _ => 0,
        }
    }
}

#[derive(Config, Debug, PartialEq)]
pub struct JepaLmConfig {
    pub lm: LmConfig,
    pub objective: Objective,
    /// T-decoder-JEPA's predictor layers.
    #[config(default = 1)]
    pub predictor_layers: usize,
}

impl JepaLmConfig {
    pub fn init(&self, device: &Device) -> JepaLm {
        let l = &self.lm;
        let predictor = matches!(self.objective, Objective::TJepa(_))
            .then(|| PredictorConfig::new(l.d_model, l.d_ffn, l.n_heads, l.max_len).with_n_layers(self.predictor_layers).init(device));
        JepaLm { lm: l.init(device), predictor }
    }
}

/// What a weights file of the study holds: the LM (and, with T-decoder-JEPA, its predictor;
/// the EMA target encoder is kept by the trainer's checkpoints).
#[derive(Module, Debug)]
pub struct JepaLm {
    pub lm: Lm,
    pub predictor: Option<Predictor>,
}

/// Where T-decoder-JEPA's context may end at the earliest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ContextStart {
    /// After the prompt (through SEP): the targets are the answer's future (paired views).
    AfterPrompt,
    /// After this many positions (a sequence task: the targets are the sequence's future).
    At(usize),
}

/// What a step reports besides the loss to differentiate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepFigures {
    /// SFT cross-entropy per answer token.
    pub ce: f32,
    /// Teacher-forced answer-token accuracy.
    pub acc: f32,
    /// LLM-JEPA: mean cos(text, code); T-decoder-JEPA: L_JEPA; None when the step has no JEPA
    /// term (LM only, or LLM-JEPA's dropout).
    pub jepa: Option<f32>,
}

/// The loss of one batch under `objective`. `target` is T-decoder-JEPA's EMA encoder (inner
/// backend); `rng` draws the dropout and the spans.
// The objective's terms and their weights as LLM-JEPA's loss names them, each set by the caller's arm.
#[allow(clippy::too_many_arguments)]
pub fn objective_loss(
    model: &JepaLm,
    target: Option<&Lm>,
    batch: &[Example],
    layout: &Layout,
    objective: Objective,
    context: ContextStart,
    rng: &mut NoiseSource,
    device: &Device,
) -> (Tensor<1>, StepFigures) {
    let sft = sft_batch(batch, layout, objective.k(), device);
    let lm_out = sft_loss(&model.lm, &sft);
    let figures = |jepa| StepFigures { ce: lm_out.ce, acc: lm_out.acc, jepa };
    match objective {
        Objective::Lm => (lm_out.loss.clone(), figures(None)),
        Objective::LlmJepa(j) => {
            if rng.uniform() < j.dropout {
                return (lm_out.loss.clone(), figures(None));
            }
            let (jl, cos) = jepa_loss(&model.lm, &pack(batch, layout, j.k, device));
            (lm_out.loss.clone() + jl * j.lambda, figures(Some(cos)))
        }
        Objective::TJepa(t) => {
            let min = |sep: usize| match context {
                ContextStart::AfterPrompt => sep + 1,
                ContextStart::At(n) => n,
            };
            let spans: Vec<Spans> = sft.lens.iter().zip(&sft.sep_at).map(|(&len, &sep)| sample_spans(len, min(sep), &t, rng)).collect();
            let predictor = model.predictor.as_ref().expect("a T-JEPA model has its predictor");
            let target = target.expect("T-JEPA trains with its target encoder");
            let jl = t_jepa_loss(&model.lm, predictor, target, &sft, lm_out.hidden.clone(), &spans);
            let value = jl.clone().into_scalar();
            (jl + lm_out.loss.clone() * t.lambda, figures(Some(value)))
        }
    }
}
