//! JEPA-Reasoner + Talker on tree route search, in the paper's three phases (the JEPA-Reasoner paper, sections
//! 4 and 5.1.3), one preset each; and what a JEPA checkpoint holds.
//!
//! - `reasoner-tree-pretrain`: next-token cross-entropy through the tied LM head, all positions.
//! - `reasoner-tree-sst`: starts from the pretrain run; the EMA target encoder is copied from
//!   the embedding, then `k - k cos` on route positions, EMA update (0.98) after every step.
//! - `reasoner-tree-talker`: starts from the SST run; the Reasoner frozen, its free-running route
//!   latents (the ones the Talker reads at run time) decoded back to the route by cross-entropy.

use std::path::Path;

use burn::optim::{AdamWConfig, ModuleOptimizer};
use burn::tensor::Device;
use engine::reasoner::{ReasonerModel, ReasonerModelConfig};
use engine::weights::reasoner::{reasoner_from_bytes, reasoner_to_bytes};
use serde::{Deserialize, Serialize};

use crate::run::checkpoint::{adamw, latest_checkpoint, optimizer_bytes, read_file, read_state, restore_optimizer, write_checkpoint};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Pretrain,
    Sst,
    Talker,
}

#[derive(Clone, Debug)]
pub struct ReasonerPreset {
    pub name: &'static str,
    pub phase: Phase,
    /// The run whose final model this phase starts from.
    pub from: Option<&'static str>,
    pub config: ReasonerModelConfig,
    pub batch: usize,
    pub lr: f64,
    pub warmup: usize,
    pub weight_decay: f32,
    pub steps: usize,
}

pub const REASONER_NAMES: [&str; 3] = ["reasoner-tree-pretrain", "reasoner-tree-sst", "reasoner-tree-talker"];

pub fn reasoner_preset(name: &str) -> Option<ReasonerPreset> {
    let base = |name, phase, from, lr, steps| ReasonerPreset {
        name,
        phase,
        from,
        config: engine::tasks::tree::reasoner_config(),
        batch: 64,
        lr,
        warmup: 100,
        weight_decay: 0.01,
        steps,
    };
    Some(match name {
        "reasoner-tree-pretrain" => base("reasoner-tree-pretrain", Phase::Pretrain, None, 1e-3, 6000),
        "reasoner-tree-sst" => base("reasoner-tree-sst", Phase::Sst, Some("reasoner-tree-pretrain"), 3e-4, 1500),
        "reasoner-tree-talker" => base("reasoner-tree-talker", Phase::Talker, Some("reasoner-tree-sst"), 1e-3, 500),
        _ => return None,
    })
}

/// Written beside each checkpoint's tensors; carries the history of earlier phases.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ReasonerRunState {
    pub preset: String,
    pub phase: Phase,
    pub step: usize,
    pub total_steps: usize,
    pub seed: u64,
    /// Seconds of this phase.
    pub seconds: f64,
    /// This phase's launch command, then each resumption (`... ; resumed at step K: ...`).
    pub command: String,
    pub config: ReasonerModelConfig,
    /// Earlier phases: (command, steps, seconds), oldest first.
    pub history: Vec<(String, usize, f64)>,
    /// The optimiser's config (absent in older checkpoints: the preset's is used).
    #[serde(default)]
    pub optimizer: Option<AdamWConfig>,
}

/// Writes `ckpt-<step>/` of a JEPA run.
pub fn save_reasoner(dir: &Path, model: &ReasonerModel, optim: &ModuleOptimizer, state: &ReasonerRunState) -> std::io::Result<()> {
    let optim = optimizer_bytes(optim)?;
    let (model, state_json) = (reasoner_to_bytes(model), serde_json::to_string_pretty(state)?);
    write_checkpoint(dir, state.step, &[("model.bpk", &model[..]), ("optim.bpk", &optim[..]), ("state.json", state_json.as_bytes())])
}

/// The newest checkpoint of a JEPA run: model, optimiser bytes, state.
pub fn load_reasoner_checkpoint(dir: &Path, device: &Device) -> Result<(ReasonerModel, Vec<u8>, ReasonerRunState), String> {
    let ckpt = latest_checkpoint(dir)?;
    let state: ReasonerRunState = read_state(&ckpt)?;
    let model = reasoner_from_bytes(&state.config, &read_file(&ckpt, "model.bpk")?, device).map_err(|e| e.to_string())?;
    Ok((model, read_file(&ckpt, "optim.bpk")?, state))
}

/// The optimiser of a checkpoint, with its recorded config (or, in older checkpoints, the
/// preset's: the weight decay the phase was started with).
pub fn restore_reasoner_optimizer(state: &mut ReasonerRunState, p: &ReasonerPreset, bytes: Vec<u8>) -> Result<ModuleOptimizer, String> {
    let config = state.optimizer.clone().unwrap_or_else(|| adamw(p.weight_decay));
    let optim = restore_optimizer(&config, bytes)?;
    state.optimizer = Some(config);
    Ok(optim)
}
