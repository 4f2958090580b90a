//! A recorded tree answer: what `/tree` shows the moment it opens, before the JEPA-Reasoner's
//! weights have loaded. `native-trainer record` answers the page's default question with the
//! shipped weights through [`reason_and_explain`] (the worker's own call) and writes this as
//! JSON under `public/runs/`. Small: an explanation is a few numbers per route latent.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::TreeTask;
use super::reasoner::{Explanation, reason_and_explain};
use crate::reasoner::ReasonerModel;

/// One answered question, with what made it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RecordedTree {
    /// The weights' name (`reasoner-tree`) and the sha256 of the `.bpk` that answered.
    pub model: String,
    pub weights_sha256: String,
    /// The question as the engine writes it ([`TreeTask::input_text`]).
    pub input: String,
    /// Latent noise, sigma as a fraction of max |h|, and its seed.
    pub noise: f64,
    pub seed: u64,
    pub explanation: Explanation,
}

impl RecordedTree {
    /// The question this answers (`None` if the file's input is not a valid question).
    pub fn task(&self) -> Option<TreeTask> {
        TreeTask::parse(&self.input).ok()
    }
}

/// Answers `input` (a tree line up to `[ROUTE]`) as `/tree`'s worker does; `weights` is the
/// weights' (name, sha256). Refuses a malformed line or a noise outside 0-1, as the worker does.
pub fn record_tree(
    model: &ReasonerModel,
    weights: (&str, &str),
    input: &str,
    noise: f64,
    seed: u64,
    device: &Device,
) -> Result<RecordedTree, String> {
    if !(noise.is_finite() && (0.0..=1.0).contains(&noise)) {
        return Err(format!("latent noise must be between 0 and 1, not {noise}"));
    }
    let task = TreeTask::parse(input).map_err(|e| format!("bad tree: {e}"))?;
    let explanation = reason_and_explain(model, &task, noise, seed, device);
    Ok(RecordedTree { model: weights.0.into(), weights_sha256: weights.1.into(), input: task.input_text(), noise, seed, explanation })
}
