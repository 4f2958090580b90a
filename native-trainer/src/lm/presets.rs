//! Presets and checkpoints of the JEPA study's language models: the three arms of
//! the ablation (LM only, + LLM-JEPA, + T-decoder-JEPA) per task (regexes, arithmetic chains),
//! at one size and one budget per task, so they differ only in the objective.

use std::path::Path;

use burn::module::Module;
use burn::optim::{AdamWConfig, ModuleOptimizer};
use burn::tensor::Device;
use engine::lm::Lm;
use engine::lm::LmConfig;
use engine::lm::llm_jepa::LlmJepa;
use engine::lm::objective::JepaLmConfig;
use engine::lm::t_jepa::TJepa;
use engine::studies::arith;
use engine::studies::regex::model::{Objective, RegexConfig, RegexModel, small_config};
use engine::weights::regex::{lm_from_bytes, regex_from_bytes, regex_to_bytes};
use serde::{Deserialize, Serialize};

use crate::run::checkpoint::{latest_checkpoint, optimizer_bytes, read_file, read_state, write_checkpoint};

/// What a language-model preset trains on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LmTask {
    /// Descriptions and regexes; `tenths` of the training meanings (10 = all, the `-low`
    /// presets 1).
    Regex { tenths: u64 },
    /// Multi-step arithmetic chains, drawn fresh every step.
    Arith,
}

pub struct LmPreset {
    pub name: &'static str,
    pub task: LmTask,
    pub config: JepaLmConfig,
    pub batch: usize,
    pub lr: f64,
    pub warmup: usize,
    pub weight_decay: f32,
    pub steps: usize,
}

pub const LM_NAMES: [&str; 9] = [
    "regex-lm",
    "regex-llm-jepa",
    "regex-t-jepa",
    "regex-lm-low",
    "regex-llm-jepa-low",
    "regex-t-jepa-low",
    "arith-lm",
    "arith-llm-jepa",
    "arith-t-jepa",
];

/// LLM-JEPA as the paper's regex runs: k = 1 [PRED], lambda 1, JEPA dropout 0.5.
pub const LLM_JEPA: LlmJepa = LlmJepa { k: 1, lambda: 1.0, dropout: 0.5 };
/// T-decoder-JEPA: LM weight 1, EMA 0.99, up to 2 spans of up to 4 tokens.
pub const T_JEPA: TJepa = TJepa { lambda: 1.0, ema: 0.99, max_spans: 2, max_span_len: 4 };

/// The three arms (`-lm`, `-llm-jepa`, `-t-jepa`) of each task: regexes on all training
/// meanings and (`-low`) on a tenth of them; arithmetic chains. One size and budget per task.
pub fn lm_preset(name: &str) -> Option<LmPreset> {
    let name = LM_NAMES.iter().find(|n| **n == name)?;
    let (base, low) = match name.strip_suffix("-low") {
        Some(base) => (base, true),
        None => (*name, false),
    };
    let (task, arm) = if let Some(arm) = base.strip_prefix("regex-") {
        (LmTask::Regex { tenths: if low { 1 } else { 10 } }, arm)
    } else {
        (LmTask::Arith, base.strip_prefix("arith-")?)
    };
    let objective = match arm {
        "lm" => Objective::Lm,
        "llm-jepa" => Objective::LlmJepa(LLM_JEPA),
        "t-jepa" => Objective::TJepa(T_JEPA),
        _ => return None,
    };
    let config = match task {
        LmTask::Regex { .. } => small_config(objective),
        // Room for 4 [PRED] tokens.
        LmTask::Arith => JepaLmConfig::new(LmConfig::new(arith::VOCAB, arith::MAX_LEN + 4), objective),
    };
    Some(LmPreset { name, task, config, batch: 32, lr: 1e-3, warmup: 100, weight_decay: 0.01, steps: 3000 })
}

impl LmPreset {
    /// The preset with its JEPA term's weight and [PRED] tokens overridden (`--jepa-lambda`,
    /// `--pred-tokens`); an override the objective has no use for is an error.
    pub fn with_objective(mut self, lambda: Option<f64>, k: Option<usize>) -> Result<LmPreset, String> {
        if let Some(l) = lambda.filter(|l| !(l.is_finite() && (0.0..=100.0).contains(l))) {
            return Err(format!("--jepa-lambda is a number from 0 to 100, not {l}"));
        }
        if let Some(k) = k.filter(|&k| k > 4) {
            return Err(format!("--pred-tokens is 0 to 4, not {k}"));
        }
        self.config.objective = match self.config.objective {
            Objective::Lm if lambda.is_some() || k.is_some() => return Err(format!("{} has no JEPA term to set", self.name)),
            Objective::TJepa(_) if k.is_some() => return Err(format!("{}: --pred-tokens is LLM-JEPA's", self.name)),
            Objective::LlmJepa(j) => Objective::LlmJepa(LlmJepa { lambda: lambda.unwrap_or(j.lambda), k: k.unwrap_or(j.k), ..j }),
            Objective::TJepa(t) => Objective::TJepa(TJepa { lambda: lambda.unwrap_or(t.lambda), ..t }),
            o => o,
        };
        Ok(self)
    }
}

/// Written beside each checkpoint's tensors.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct LmRunState {
    pub preset: String,
    pub config: RegexConfig,
    pub seed: u64,
    pub step: usize,
    pub steps: usize,
    pub seconds: f64,
    pub command: String,
    pub optimizer: AdamWConfig,
    /// The best quick evaluation (validation semantic accuracy, %) and its step; kept in `best/`.
    pub best_eval: Option<(f64, usize)>,
}

pub fn save_lm(dir: &Path, model: &RegexModel, target: Option<&Lm>, optim: &ModuleOptimizer, state: &LmRunState) -> std::io::Result<()> {
    let optim = optimizer_bytes(optim)?;
    let (bytes, json) = (regex_to_bytes(model), serde_json::to_string_pretty(state)?);
    let target = target.map(|t| t.clone().into_record().into_bytes().expect("in-memory burnpack").to_vec());
    let mut files: Vec<(&str, &[u8])> = vec![("model.bpk", &bytes[..]), ("optim.bpk", &optim[..]), ("state.json", json.as_bytes())];
    if let Some(t) = &target {
        files.push(("target.bpk", &t[..]));
    }
    write_checkpoint(dir, state.step, &files)
}

/// The newest checkpoint of a regex run: model, EMA target (T-decoder-JEPA), optimiser bytes, state.
pub type LmCheckpoint = (RegexModel, Option<Lm>, Vec<u8>, LmRunState);

pub fn load_lm_checkpoint(dir: &Path, device: &Device, plain: &Device) -> Result<LmCheckpoint, String> {
    let ckpt = latest_checkpoint(dir)?;
    let state: LmRunState = read_state(&ckpt)?;
    let model = regex_from_bytes(&state.config, &read_file(&ckpt, "model.bpk")?, device).map_err(|e| e.to_string())?;
    let target = match state.config.objective {
        Objective::TJepa(_) => Some(lm_from_bytes(&state.config.lm, &read_file(&ckpt, "target.bpk")?, plain).map_err(|e| e.to_string())?),
        _ => None,
    };
    Ok((model, target, read_file(&ckpt, "optim.bpk")?, state))
}
