//! Weights of the regex task's language models (`studies::regex::model`): one burnpack `.bpk`
//! and a JSON manifest, checked like the others (format version, sha256, the config's shapes
//! before anything is allocated).

use burn::module::Module;
use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::{WeightsError, check_hash, check_size, check_widths, parse_manifest, read_record};
use crate::lm::{Lm, LmConfig};
use crate::studies::regex::model::{RegexConfig, RegexModel};
use crate::studies::regex::score::Score;

/// Held-out figures recorded at export (`eval --record`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RegexEvalRecord {
    pub split: String,
    pub score: Score,
    pub command: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct RegexManifest {
    pub format_version: u32,
    pub name: String,
    /// `regex-lm`.
    pub model: String,
    /// `regex`.
    pub task: String,
    pub config: RegexConfig,
    /// The trainer's preset (objective and training data).
    pub preset: String,
    pub params: usize,
    pub steps: usize,
    /// The launch command, then each resumption.
    pub training_command: String,
    pub data_seed: u64,
    pub train_seconds: f64,
    pub eval: Option<RegexEvalRecord>,
    /// A known output: fixed test descriptions and the regexes these weights write for them.
    pub reference: Option<Vec<(String, String)>>,
    pub sha256: String,
    pub bytes: usize,
}

impl RegexManifest {
    pub fn from_json(text: &str) -> Result<RegexManifest, WeightsError> {
        let m = parse_manifest(text, |m: &RegexManifest| m.format_version)?;
        if m.task != "regex" {
            return Err(WeightsError::Manifest(format!("task {:?}: these are not regex weights", m.task)));
        }
        Ok(m)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("manifest serialises")
    }
}

pub fn regex_to_bytes(model: &RegexModel) -> Vec<u8> {
    model.clone().into_record().into_bytes().expect("in-memory burnpack").to_vec()
}

/// Refuses an LM config `init` would panic on, or whose model cannot fit in `file_len` bytes.
fn check_lm_config(c: &LmConfig, file_len: usize) -> Result<(), WeightsError> {
    let (d, f, h) = (c.d_model, c.d_ffn, c.n_heads);
    check_widths(&[("d_model", d), ("d_ffn", f), ("vocab", c.vocab), ("max_len", c.max_len)], Some((d, h)))?;
    let m = |xs: &[usize]| xs.iter().fold(1u128, |a, &x| a.saturating_mul(x as u128));
    let layer = m(&[4, d, d]).saturating_add(m(&[3, d, f]));
    let params = m(&[2, c.vocab, d]).saturating_add(m(&[c.n_layers]).saturating_mul(layer));
    check_size(params, m(&[c.max_len, d / h]), file_len)
}

/// Loads tensors into a model built from `config` (checkpoints; no hash).
pub fn regex_from_bytes(config: &RegexConfig, bytes: &[u8], device: &Device) -> Result<RegexModel, WeightsError> {
    let record = read_record(bytes)?;
    check_lm_config(&config.lm, bytes.len())?;
    config.init(device).try_load_record(record).map_err(|e| WeightsError::Mismatch(e.to_string()))
}

/// A bare LM (T-decoder-JEPA's EMA target encoder in a checkpoint).
pub fn lm_from_bytes(config: &LmConfig, bytes: &[u8], device: &Device) -> Result<Lm, WeightsError> {
    let record = read_record(bytes)?;
    check_lm_config(config, bytes.len())?;
    config.init(device).try_load_record(record).map_err(|e| WeightsError::Mismatch(e.to_string()))
}

/// Checks the hash, then loads.
pub fn load_regex(manifest: &RegexManifest, bytes: &[u8], device: &Device) -> Result<RegexModel, WeightsError> {
    check_hash(&manifest.sha256, bytes)?;
    regex_from_bytes(&manifest.config, bytes, device)
}
