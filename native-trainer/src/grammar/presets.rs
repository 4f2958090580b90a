//! The grammar study's presets (the JEPA-Reasoner paper, section 5.2.2) and what its checkpoints hold. One run
//! trains every model of a scale in six phases on one pretraining, so T, C and R are compared
//! on the same start:
//!
//! 1. `pretrain`: next-token cross-entropy on whole sequences (trains T);
//!    then C is copied from T, and R is T's first layers (Table 3's footnote);
//! 2. `t-post`: T's post-training, more of the same objective;
//! 3. `coconut`: C learns to think 4 latents, then write the 4 tokens after them;
//! 4. `sst`: R's self-supervised latent prediction against the EMA target encoder;
//! 5. `dual-talker` and 6. `mono-talker`: each Talker reconstructs the 8 tokens behind the frozen
//!    Reasoner's 8 free-running latents after a random cut.
//!
//! Phases 2-4 get the same number of optimiser steps and batch (equal steps; C's step costs
//! five forward passes, R's Reasoner is smaller than T: docs/results/grammar.md says so beside the results).

use std::path::Path;

use burn::optim::{AdamWConfig, ModuleOptimizer};
use burn::tensor::Device;
use engine::studies::grammar::data::GrammarVariant;
use engine::studies::grammar::models::{GrammarConfig, GrammarModels};
use engine::weights::grammar::{grammar_from_bytes, grammar_to_bytes};
use serde::{Deserialize, Serialize};

use super::recipe::GrammarRecipe;
use crate::run::checkpoint::{latest_checkpoint, optimizer_bytes, read_file, read_state, write_checkpoint};
use crate::run::lineage::program_relative;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GrammarPhase {
    Pretrain,
    TPost,
    Coconut,
    Sst,
    DualTalker,
    MonoTalker,
}

pub const PHASES: [GrammarPhase; 6] = [
    GrammarPhase::Pretrain,
    GrammarPhase::TPost,
    GrammarPhase::Coconut,
    GrammarPhase::Sst,
    GrammarPhase::DualTalker,
    GrammarPhase::MonoTalker,
];

impl GrammarPhase {
    pub fn name(self) -> &'static str {
        match self {
            GrammarPhase::Pretrain => "pretrain",
            GrammarPhase::TPost => "t-post",
            GrammarPhase::Coconut => "coconut",
            GrammarPhase::Sst => "sst",
            GrammarPhase::DualTalker => "dual-talker",
            GrammarPhase::MonoTalker => "mono-talker",
        }
    }
}

#[derive(Clone, Debug)]
pub struct GrammarPreset {
    pub name: &'static str,
    pub config: GrammarConfig,
    pub batch: usize,
    pub lr: f64,
    pub warmup: usize,
    pub weight_decay: f32,
    /// Steps of each phase, in [`PHASES`] order.
    pub steps: [usize; 6],
}

pub const GRAMMAR_NAMES: [&str; 4] = ["grammar-small", "grammar-middle", "grammar-paper-small", "grammar-paper-middle"];

/// A preset's name as it is now: the names these presets had before the study was called the
/// grammar study everywhere (`cfg-small`, ...) are still accepted, and old runs that recorded them
/// still resume.
pub fn canonical_name(name: &str) -> String {
    name.strip_prefix("cfg-").map_or_else(|| name.to_string(), |rest| format!("grammar-{rest}"))
}

pub fn grammar_preset(name: &str) -> Option<GrammarPreset> {
    let name = canonical_name(name);
    let (variant, scale, batch, steps) = match name.as_str() {
        "grammar-small" => (GrammarVariant::Short, "small", 32, [1500, 500, 500, 500, 300, 300]),
        "grammar-middle" => (GrammarVariant::Short, "middle", 32, [1500, 500, 500, 500, 300, 300]),
        // The paper's sequence length and batch (128; lr 1e-4 as theirs), for a GPU.
        "grammar-paper-small" => (GrammarVariant::Paper, "small", 128, [20000, 5000, 5000, 5000, 3000, 3000]),
        "grammar-paper-middle" => (GrammarVariant::Paper, "middle", 128, [20000, 5000, 5000, 5000, 3000, 3000]),
        _ => return None,
    };
    let lr = if variant == GrammarVariant::Paper { 1e-4 } else { 1e-3 };
    Some(GrammarPreset {
        name: GRAMMAR_NAMES.iter().find(|n| **n == name)?,
        config: GrammarConfig::scale(variant, scale)?,
        batch,
        lr,
        warmup: 100,
        weight_decay: 0.01,
        steps,
    })
}

/// Written beside each checkpoint's tensors.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct GrammarRunState {
    pub preset: String,
    pub config: GrammarConfig,
    pub seed: u64,
    /// Index into [`PHASES`] of the phase in progress (6 = done).
    pub phase: usize,
    /// Steps done in that phase.
    pub step: usize,
    /// Steps of each phase (the preset's, or `--steps` scaled).
    pub steps: [usize; 6],
    /// Finished phases: (name, steps, seconds).
    pub done: Vec<(String, usize, f64)>,
    /// Seconds of the phase in progress.
    pub seconds: f64,
    /// The launch command, then each resumption.
    pub command: String,
    pub optimizer: AdamWConfig,
    /// What the run adds to the paper's recipe (`grammar/recipe.rs`); runs before it had none.
    #[serde(default)]
    pub recipe: GrammarRecipe,
    /// A run started `--init-from` weights: how those were trained, so the export's manifest
    /// names the whole lineage.
    #[serde(default)]
    pub parent: Option<GrammarParent>,
}

/// The training behind the weights a grammar run started from.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GrammarParent {
    /// Their training command chain.
    pub command: String,
    /// Their phases: (name, steps, seconds).
    pub phases: Vec<(String, usize, f64)>,
    /// The weights file's sha256 (a run directory's weights have none).
    pub sha256: Option<String>,
}

impl GrammarRunState {
    /// Steps done over all phases.
    pub fn global_step(&self) -> usize {
        self.steps[..self.phase.min(6)].iter().sum::<usize>() + self.step
    }

    pub fn total_steps(&self) -> usize {
        self.steps.iter().sum()
    }

    pub fn total_seconds(&self) -> f64 {
        self.done.iter().map(|d| d.2).sum::<f64>() + self.seconds
    }

    /// The training command chain behind the models: the parent's, then this run's.
    pub fn lineage(&self) -> String {
        match &self.parent {
            None => self.command.clone(),
            Some(p) => format!("{} ; then, from those weights: {}", p.command, program_relative(&self.command)),
        }
    }

    /// Every finished phase behind the models, the parent's first: (name, steps, seconds).
    pub fn lineage_phases(&self) -> Vec<(String, usize, f64)> {
        self.parent.iter().flat_map(|p| p.phases.iter().cloned()).chain(self.done.iter().cloned()).collect()
    }
}

pub fn save_grammar(dir: &Path, models: &GrammarModels, optim: &ModuleOptimizer, state: &GrammarRunState) -> std::io::Result<()> {
    let optim = optimizer_bytes(optim)?;
    let (model, json) = (grammar_to_bytes(models), serde_json::to_string_pretty(state)?);
    write_checkpoint(dir, state.global_step(), &[("model.bpk", &model[..]), ("optim.bpk", &optim[..]), ("state.json", json.as_bytes())])
}

/// The newest checkpoint of a grammar run: models, optimiser bytes, state.
pub fn load_grammar_checkpoint(dir: &Path, device: &Device) -> Result<(GrammarModels, Vec<u8>, GrammarRunState), String> {
    let ckpt = latest_checkpoint(dir)?;
    let state: GrammarRunState = read_state(&ckpt)?;
    let models = grammar_from_bytes(&state.config, &read_file(&ckpt, "model.bpk")?, device).map_err(|e| e.to_string())?;
    Ok((models, read_file(&ckpt, "optim.bpk")?, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every preset is reachable by its name, and by the name it had before (`cfg-small`), which
    /// old runs recorded and still resume under.
    #[test]
    fn every_preset_answers_to_its_name_and_its_old_one() {
        for name in GRAMMAR_NAMES {
            assert_eq!(grammar_preset(name).map(|p| p.name), Some(name));
            let old = name.replace("grammar-", "cfg-");
            assert_eq!(grammar_preset(&old).map(|p| p.name), Some(name), "{old}");
            assert_eq!(canonical_name(&old), name);
        }
        assert!(grammar_preset("grammar-large").is_none() && grammar_preset("cfg-large").is_none());
    }
}
