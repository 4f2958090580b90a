//! A recorded grammar exploration: what `/grammar` shows the moment it opens, before the T/C/R
//! weights have loaded. `native-trainer record` runs the page's default request with the shipped
//! weights exactly as the page's worker does ([`explore`], then one [`curve_point`] per level of
//! [`CORRUPTION`], [`DRAWS`] draws each) and writes this as JSON under `public/runs/`.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::data::GrammarVariant;
use super::explore::{DRAWS, GrammarView, check_levels, curve_point, explore, held_out};
use super::models::GrammarModels;
use super::sweep::CORRUPTION;

/// One exploration, with what made it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RecordedGrammar {
    /// The weights' name (`cfg-small`) and the sha256 of the `.bpk` that ran.
    pub model: String,
    pub weights_sha256: String,
    /// Which held-out sequence ([`held_out`]), the share of its prefix corrupted, the latent
    /// noise (a fraction of max |h|) and the seed of both: the page's request.
    pub sequence: usize,
    pub corrupt: f64,
    pub noise: f64,
    pub seed: u64,
    /// What the page shows, its curve complete (the worker sends the curve a point at a time;
    /// the page appends each to `view.curve`, so this is the page's state once it has all).
    pub view: GrammarView,
}

/// Explores held-out sequence `sequence` as `/grammar`'s worker does; `weights` is the weights'
/// (name, sha256). Refuses a corruption or noise outside 0-1, as the worker does.
// The recorded run's request, field by field, as `native-trainer record` passes it from its flags.
#[allow(clippy::too_many_arguments)]
pub fn record_grammar(
    models: &GrammarModels,
    variant: GrammarVariant,
    weights: (&str, &str),
    sequence: usize,
    corrupt: f64,
    noise: f64,
    seed: u64,
    device: &Device,
) -> Result<RecordedGrammar, String> {
    check_levels(corrupt, noise)?;
    let instance = held_out(variant, sequence);
    let grammar = variant.grammar();
    let mut view = explore(models, &grammar, &instance, corrupt, noise, seed, DRAWS, device);
    view.curve = CORRUPTION.iter().map(|&frac| curve_point(models, &grammar, &instance, frac, seed, DRAWS, device)).collect();
    Ok(RecordedGrammar { model: weights.0.into(), weights_sha256: weights.1.into(), sequence, corrupt, noise, seed, view })
}
