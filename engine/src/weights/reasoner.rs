//! Weights of a Reasoner + Talker pair: one burnpack `.bpk` (both modules) and a JSON manifest,
//! checked like GRAM's (format version, sha256, tensor shapes against the config).

use burn::module::Module;
use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::{WeightsError, check_hash, check_size, check_widths, parse_manifest, read_record};
use crate::reasoner::{ReasonerModel, ReasonerModelConfig, TalkerKind};
use crate::tasks::tree::reasoner::TreeEval;

/// Held-out figures recorded at export.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ReasonerEvalRecord {
    pub split: String,
    pub eval: TreeEval,
    /// Exact match under latent noise: (sigma as a fraction of max |h|, percent).
    pub noise_curve: Vec<(f64, f64)>,
    pub command: String,
}

/// A known output: the routes these weights write for fixed inputs (no noise), and the first
/// components of the first task's first latent. The shipped-weights test recomputes both.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ReasonerReference {
    pub inputs: Vec<String>,
    pub routes: Vec<Option<String>>,
    pub first_latent: Vec<f32>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ReasonerManifest {
    pub format_version: u32,
    pub name: String,
    /// `jepa-reasoner`.
    pub model: String,
    /// `tree`.
    pub task: String,
    pub config: ReasonerModelConfig,
    pub params: usize,
    /// One command per phase, in order.
    pub training_commands: Vec<String>,
    pub data_seed: u64,
    /// Optimiser steps per phase (pretrain, SST, Talker).
    pub train_steps: Vec<usize>,
    pub train_seconds: f64,
    pub eval: Option<ReasonerEvalRecord>,
    pub reference: Option<ReasonerReference>,
    pub sha256: String,
    pub bytes: usize,
}

impl ReasonerManifest {
    pub fn from_json(text: &str) -> Result<ReasonerManifest, WeightsError> {
        let m = parse_manifest(text, |m: &ReasonerManifest| m.format_version)?;
        // serde_json reads a number beyond f32's range as infinity, which `to_json` writes as null.
        if m.reference.as_ref().is_some_and(|r| r.first_latent.iter().any(|x| !x.is_finite())) {
            return Err(WeightsError::Manifest("reference.first_latent holds a number beyond f32's range".into()));
        }
        Ok(m)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("manifest serialises")
    }
}

pub fn reasoner_to_bytes(model: &ReasonerModel) -> Vec<u8> {
    model.clone().into_record().into_bytes().expect("in-memory burnpack").to_vec()
}

/// Refuses, before anything is allocated, a config `init` would panic on or whose model cannot
/// fit in `file_len` bytes (see [`check_size`]).
fn check_reasoner_config(c: &ReasonerModelConfig, file_len: usize) -> Result<(), WeightsError> {
    let (r, t) = (&c.reasoner, &c.talker);
    let m = |xs: &[usize]| xs.iter().fold(1u128, |a, &x| a.saturating_mul(x as u128));
    let mut params = m(&[2, r.vocab, r.d_model]).saturating_add(m(&[t.vocab, t.d_model]));
    let mut tables = 0u128;
    let dual_encoder = if t.kind == TalkerKind::Dual { t.n_encoder } else { 0 };
    for (d, a, f, h, v, len, layers) in [
        (r.d_model, r.d_attn, r.d_ffn, r.n_heads, r.vocab, r.max_len, r.n_layers),
        (t.d_model, t.d_attn, t.d_ffn, t.n_heads, t.vocab, t.max_len, t.n_layers.saturating_add(dual_encoder)),
    ] {
        let widths = [("d_model", d), ("d_attn", a), ("d_ffn", f), ("vocab", v), ("max_len", len)];
        check_widths(&widths, Some((a, h)))?;
        let layer = m(&[4, d, a]).saturating_add(m(&[3, d, f]));
        params = params.saturating_add(m(&[layers]).saturating_mul(layer));
        tables = tables.saturating_add(m(&[len, a / h]));
    }
    check_size(params, tables, file_len)
}

/// Loads tensors into a model built from `config` (checkpoints; no hash).
pub fn reasoner_from_bytes(config: &ReasonerModelConfig, bytes: &[u8], device: &Device) -> Result<ReasonerModel, WeightsError> {
    let record = read_record(bytes)?;
    check_reasoner_config(config, bytes.len())?;
    ReasonerModel::init(config, device).try_load_record(record).map_err(|e| WeightsError::Mismatch(e.to_string()))
}

/// Checks the hash, then loads.
pub fn load_reasoner(manifest: &ReasonerManifest, bytes: &[u8], device: &Device) -> Result<ReasonerModel, WeightsError> {
    check_hash(&manifest.sha256, bytes)?;
    reasoner_from_bytes(&manifest.config, bytes, device)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::tree::reasoner::solve_trees;
    use crate::tasks::tree::training_tests::{tasks, tiny};

    #[test]
    fn both_talkers_round_trip_through_bytes_and_decode() {
        let device = Device::flex();
        device.seed(5);
        for kind in [TalkerKind::Mono, TalkerKind::Dual] {
            let c = tiny(kind);
            let m = ReasonerModel::init(&c, &device);
            let bytes = reasoner_to_bytes(&m);
            let again = reasoner_from_bytes(&c, &bytes, &device).unwrap();
            assert_eq!(reasoner_to_bytes(&again), bytes);
            let ts = tasks(3);
            let a = solve_trees(&m, &ts, 0.0, 0, &device);
            let b = solve_trees(&again, &ts, 0.0, 0, &device);
            assert_eq!(a.iter().map(|x| x.tokens.clone()).collect::<Vec<_>>(), b.iter().map(|x| x.tokens.clone()).collect::<Vec<_>>());
            assert!(a.iter().all(|x| x.tokens.len() == crate::tasks::tree::ROUTE_LATENTS));
            // The other Talker's weights do not load into this config.
            let other = tiny(if kind == TalkerKind::Mono { TalkerKind::Dual } else { TalkerKind::Mono });
            assert!(reasoner_from_bytes(&other, &bytes, &device).is_err());
        }
    }
}
