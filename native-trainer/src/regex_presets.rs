//! Presets and checkpoints of the regex task's language models (issue 23): the three arms of
//! the ablation (LM only, + LLM-JEPA, + T-decoder-JEPA) at one size and one budget, so they
//! differ only in the objective.

use std::path::Path;

use burn::module::Module;
use burn::optim::{AdamWConfig, ModuleOptimizer};
use burn::tensor::Device;
use engine::lm::Lm;
use engine::lm::llm_jepa::LlmJepa;
use engine::lm::t_jepa::TJepa;
use engine::tasks::regex::model::{Objective, RegexConfig, RegexModel};
use engine::weights::regex::{lm_from_bytes, regex_from_bytes, regex_to_bytes};
use serde::{Deserialize, Serialize};

use crate::checkpoint::{latest_checkpoint, optimizer_bytes, read_file, read_state, write_checkpoint};

pub struct RegexPreset {
    pub name: &'static str,
    pub config: RegexConfig,
    pub batch: usize,
    pub lr: f64,
    pub warmup: usize,
    pub weight_decay: f32,
    pub steps: usize,
    /// Tenths of the training meanings trained on (10 = all; the `-low` presets: 1).
    pub train_tenths: u64,
}

pub const REGEX_NAMES: [&str; 6] = ["regex-lm", "regex-llm-jepa", "regex-t-jepa", "regex-lm-low", "regex-llm-jepa-low", "regex-t-jepa-low"];

/// LLM-JEPA as the paper's regex runs: k = 1 [PRED], lambda 1, JEPA dropout 0.5.
pub const LLM_JEPA: LlmJepa = LlmJepa { k: 1, lambda: 1.0, dropout: 0.5 };
/// T-decoder-JEPA: LM weight 1, EMA 0.99, up to 2 spans of up to 4 tokens.
pub const T_JEPA: TJepa = TJepa { lambda: 1.0, ema: 0.99, max_spans: 2, max_span_len: 4 };

/// The three arms on all training meanings, and (`-low`) on a tenth of them.
pub fn regex_preset(name: &str) -> Option<RegexPreset> {
    let (arm, train_tenths) = match name.strip_suffix("-low") {
        Some(arm) => (arm, 1),
        None => (name, 10),
    };
    let objective = match arm {
        "regex-lm" => Objective::Lm,
        "regex-llm-jepa" => Objective::LlmJepa(LLM_JEPA),
        "regex-t-jepa" => Objective::TJepa(T_JEPA),
        _ => return None,
    };
    let name = REGEX_NAMES.iter().find(|n| **n == name)?;
    Some(RegexPreset { name, config: RegexConfig::small(objective), batch: 32, lr: 1e-3, warmup: 100, weight_decay: 0.01, steps: 3000, train_tenths })
}

/// Written beside each checkpoint's tensors.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct RegexRunState {
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

pub fn save_regex(dir: &Path, model: &RegexModel, target: Option<&Lm>, optim: &ModuleOptimizer, state: &RegexRunState) -> std::io::Result<()> {
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
pub type RegexCheckpoint = (RegexModel, Option<Lm>, Vec<u8>, RegexRunState);

pub fn load_regex_checkpoint(dir: &Path, device: &Device, plain: &Device) -> Result<RegexCheckpoint, String> {
    let ckpt = latest_checkpoint(dir)?;
    let state: RegexRunState = read_state(&ckpt)?;
    let model = regex_from_bytes(&state.config, &read_file(&ckpt, "model.bpk")?, device).map_err(|e| e.to_string())?;
    let target = match state.config.objective {
        Objective::TJepa(_) => Some(lm_from_bytes(&state.config.lm, &read_file(&ckpt, "target.bpk")?, plain).map_err(|e| e.to_string())?),
        _ => None,
    };
    Ok((model, target, read_file(&ckpt, "optim.bpk")?, state))
}
