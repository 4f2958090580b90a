//! What a GRAM/TRM training recipe fixes (a preset: `presets.rs` for the browser-sized models,
//! `full_presets.rs` for the papers' full size), and its Table 10 variants.

use engine::gram::{Ablation, GramConfig};
use engine::tasks::TaskId;

#[derive(Clone, Debug)]
pub struct Preset {
    pub name: &'static str,
    /// The task it trains on; `None` for ARC, which trains on an `arc` import only (`--data`):
    /// ARC has no task interface, its answers are given, not checked by rules.
    pub task: Option<TaskId>,
    pub config: GramConfig,
    /// Trajectories per optimiser step (the paper: 768 on 8 GPUs).
    pub batch: usize,
    /// Peak learning rate after warm-up (the paper: 1e-4 at batch 768; higher here for the
    /// smaller batch and shorter run).
    pub lr: f64,
    pub warmup: usize,
    /// AdamW weight decay (the paper: 1.0 at lr 1e-4; scaled down with the larger lr).
    pub weight_decay: f32,
    /// Optimiser steps of a full run.
    pub steps: usize,
    /// Decay of the weights' EMA when `--ema` is not given (0 = none; the paper: 0.9999, which
    /// the full-size presets keep).
    pub ema: f64,
    /// Micro-batches per optimiser step (gradient accumulation): `batch` rows are run as
    /// `grad_accum` slices of `batch / grad_accum`, their gradients summed before one update, so
    /// a smaller GPU reaches the paper's batch 768. 1 = none.
    pub grad_accum: usize,
}

impl Preset {
    /// The preset with one of Table 10's ablations (the GRAM paper, appendix F.5): the same recipe,
    /// data and budget, one change to the model (`engine::gram::ablation`).
    pub fn with_variant(mut self, variant: &str) -> Result<Preset, String> {
        let names: Vec<&str> = Ablation::ALL.iter().map(|a| a.name()).collect();
        let ablation = Ablation::parse(variant).ok_or_else(|| format!("unknown --variant {variant:?}; variants: {}", names.join(", ")))?;
        if ablation.guided() != self.config.guidance {
            let kind = if ablation.guided() { "a GRAM" } else { "a TRM" };
            return Err(format!("--variant {variant} is an ablation of {kind} preset, and {} is not one", self.name));
        }
        self.config = self.config.with_ablation(Some(ablation));
        Ok(self)
    }
}
