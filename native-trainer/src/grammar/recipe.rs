//! The grammar study's training flags beyond the preset: which phases a run trains
//! (`grammar/phases.rs`) and the two changes to the JEPA-Reasoner paper's recipe that the robustness diagnosis measures
//! (docs/results/notes/grammar.md):
//!
//! - `--train-corrupt X`: every training sequence's input terminals are corrupted as the
//!   evaluation corrupts them (a share drawn uniformly from 0-X per sequence), its targets kept
//!   clean, so a model learns to read through corruption;
//! - `--sst-rollout N`: SST adds the cosine loss of N free-running latents after a random cut
//!   (the latents looped back as at inference, gradients through the loop), so the Reasoner
//!   learns on the inputs it will read, not only on teacher-forced ones.

use clap::Args;
use serde::{Deserialize, Serialize};

/// The command line's recipe flags (grammar presets only).
#[derive(Args, Debug, Clone, Default)]
pub struct GrammarFlags {
    /// Grammar presets beside --init-from: train only these phases, in the preset's order (a
    /// comma list of pretrain, t-post, coconut, sst, dual-talker, mono-talker); the weights'
    /// models stand in for the others.
    #[arg(long, value_delimiter = ',')]
    pub phases: Vec<String>,
    /// Grammar presets: the steps of each phase trained (a comma list, one per phase in
    /// --phases, or six without it); default the preset's.
    #[arg(long, value_delimiter = ',')]
    pub phase_steps: Vec<usize>,
    /// Grammar presets: corrupt each training sequence's input terminals at a share drawn from
    /// 0 to X (targets stay clean); 0 (default) is the paper's recipe.
    #[arg(long)]
    pub train_corrupt: Option<f64>,
    /// Grammar presets: SST also learns from N free-running latents after a random cut (at most
    /// 8); 0 (default) is the paper's teacher-forced SST.
    #[arg(long)]
    pub sst_rollout: Option<usize>,
    /// Grammar presets: R's depth, the first N of T's layers (the preset's by default; the
    /// paper's Small has 2 of 4). With --init-from, R is branched anew from the weights' T, so
    /// --phases must train sst.
    #[arg(long)]
    pub reasoner_layers: Option<usize>,
}

impl GrammarFlags {
    pub fn any(&self) -> bool {
        !self.phases.is_empty()
            || !self.phase_steps.is_empty()
            || self.train_corrupt.is_some()
            || self.sst_rollout.is_some()
            || self.reasoner_layers.is_some()
    }
}

/// What a run's training adds to the paper's recipe; recorded in its checkpoints and manifest.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq)]
pub struct GrammarRecipe {
    /// Highest share of input terminals corrupted in training (0 = none).
    #[serde(default)]
    pub train_corrupt: f64,
    /// Free-running latents SST learns from after a cut (0 = teacher forcing only).
    #[serde(default)]
    pub sst_rollout: usize,
}

impl GrammarRecipe {
    pub fn from_flags(f: &GrammarFlags) -> Result<GrammarRecipe, String> {
        let train_corrupt = f.train_corrupt.unwrap_or(0.0);
        if !(0.0..=1.0).contains(&train_corrupt) {
            return Err(format!("--train-corrupt is a share between 0 and 1, not {train_corrupt}"));
        }
        let sst_rollout = f.sst_rollout.unwrap_or(0);
        if sst_rollout > engine::studies::grammar::data::WINDOW {
            return Err(format!("--sst-rollout is 0 to {}, not {sst_rollout}", engine::studies::grammar::data::WINDOW));
        }
        Ok(GrammarRecipe { train_corrupt, sst_rollout })
    }

    pub fn is_paper(&self) -> bool {
        *self == GrammarRecipe::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recipe_refuses_shares_and_rollouts_out_of_range() {
        let f = |c: Option<f64>, r: Option<usize>| GrammarFlags { train_corrupt: c, sst_rollout: r, ..Default::default() };
        assert!(GrammarRecipe::from_flags(&f(None, None)).unwrap().is_paper());
        assert_eq!(GrammarRecipe::from_flags(&f(Some(0.3), Some(8))), Ok(GrammarRecipe { train_corrupt: 0.3, sst_rollout: 8 }));
        assert!(GrammarRecipe::from_flags(&f(Some(1.5), None)).is_err());
        assert!(GrammarRecipe::from_flags(&f(None, Some(9))).is_err());
    }
}
