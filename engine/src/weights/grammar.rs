//! Weights of the grammar study's models (T, C, R with both Talkers: `studies::grammar::models`): one
//! burnpack `.bpk` and a JSON manifest, checked like the others (format version, sha256, the
//! config's shapes before anything is allocated).

use burn::module::Module;
use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::{WeightsError, check_hash, check_size, check_widths, parse_manifest, read_record};
use crate::studies::grammar::models::{GrammarConfig, GrammarModels};
use crate::studies::grammar::sweep::{CorruptionRow, NoiseRow};

/// Held-out figures recorded at export (`eval --record`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GrammarEvalRecord {
    pub split: String,
    pub completions: usize,
    pub corruption: Vec<CorruptionRow>,
    pub noise: Vec<NoiseRow>,
    pub command: String,
}

/// A known output: each model's completion (4 tokens; C's after its thoughts) of fixed test
/// prefixes, no corruption, no noise. The shipped-weights test recomputes them.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GrammarReference {
    pub inputs: Vec<String>,
    /// (model name, completions as terminal text, one per input).
    pub completions: Vec<(String, Vec<String>)>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GrammarManifest {
    pub format_version: u32,
    pub name: String,
    /// `cfg-models`.
    pub model: String,
    /// `cfg`.
    pub task: String,
    pub config: GrammarConfig,
    pub params: usize,
    /// (phase, steps, seconds), in order.
    pub phases: Vec<(String, usize, f64)>,
    /// The launch command, then each resumption.
    pub training_command: String,
    pub data_seed: u64,
    pub train_seconds: f64,
    pub eval: Option<GrammarEvalRecord>,
    pub reference: Option<GrammarReference>,
    pub sha256: String,
    pub bytes: usize,
}

impl GrammarManifest {
    pub fn from_json(text: &str) -> Result<GrammarManifest, WeightsError> {
        let m = parse_manifest(text, |m: &GrammarManifest| m.format_version)?;
        if m.task != "cfg" {
            return Err(WeightsError::Manifest(format!("task {:?}: these are not grammar weights", m.task)));
        }
        Ok(m)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("manifest serialises")
    }
}

pub fn grammar_to_bytes(models: &GrammarModels) -> Vec<u8> {
    models.clone().into_record().into_bytes().expect("in-memory burnpack").to_vec()
}

/// Refuses a config `init` would panic on, or whose models cannot fit in `file_len` bytes.
fn check_grammar_config(c: &GrammarConfig, file_len: usize) -> Result<(), WeightsError> {
    let (r, t) = (&c.coupled, &c.talker);
    if c.reasoner_layers == 0 || c.reasoner_layers > r.n_layers {
        return Err(WeightsError::Mismatch(format!("reasoner_layers {} of {} layers", c.reasoner_layers, r.n_layers)));
    }
    let m = |xs: &[usize]| xs.iter().fold(1u128, |a, &x| a.saturating_mul(x as u128));
    let mut params = m(&[6, r.vocab, r.d_model]);
    let mut tables = 0u128;
    for (d, a, f, h, v, len, layers) in [
        (r.d_model, r.d_attn, r.d_ffn, r.n_heads, r.vocab, r.max_len, 2 * r.n_layers + c.reasoner_layers),
        (t.d_model, t.d_attn, t.d_ffn, t.n_heads, t.vocab, t.max_len, 2 * t.n_layers + t.n_encoder),
    ] {
        check_widths(&[("d_model", d), ("d_attn", a), ("d_ffn", f), ("vocab", v), ("max_len", len)], Some((a, h)))?;
        let layer = m(&[4, d, a]).saturating_add(m(&[3, d, f]));
        params = params.saturating_add(m(&[layers]).saturating_mul(layer));
        tables = tables.saturating_add(m(&[len, a / h]));
    }
    check_size(params, tables, file_len)
}

/// Loads tensors into models built from `config` (checkpoints; no hash).
pub fn grammar_from_bytes(config: &GrammarConfig, bytes: &[u8], device: &Device) -> Result<GrammarModels, WeightsError> {
    let record = read_record(bytes)?;
    check_grammar_config(config, bytes.len())?;
    config.init(device).try_load_record(record).map_err(|e| WeightsError::Mismatch(e.to_string()))
}

/// Checks the hash, then loads.
pub fn load_grammar(manifest: &GrammarManifest, bytes: &[u8], device: &Device) -> Result<GrammarModels, WeightsError> {
    check_hash(&manifest.sha256, bytes)?;
    grammar_from_bytes(&manifest.config, bytes, device)
}
