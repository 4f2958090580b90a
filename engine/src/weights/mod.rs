//! The weights format: a burnpack `.bpk` file of the module's tensors plus a JSON manifest that
//! says what the tensors are (config), where they came from (task, training command, data seed)
//! and how good they are (eval metrics), with the sha256 of the `.bpk` bytes.
//!
//! Loading checks, in order: the manifest parses and is for this format version; the bytes hash
//! to the manifest's sha256; the bytes are a burnpack of f32 tensors; the config is one a model
//! can be built from and small enough for the file; every tensor in the file has the shape the
//! config implies. Each failure is a [`WeightsError`] that says which check failed, never a panic.

pub mod browser;
pub mod grammar;
pub mod identity;
pub mod reasoner;
pub mod regex;
#[cfg(not(target_arch = "wasm32"))]
pub mod safetensors;
#[cfg(not(target_arch = "wasm32"))]
pub mod trm_import;

use std::fmt;

use burn::module::Module;
use burn::store::ModuleRecord;
use burn::tensor::{Bytes, Device};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::gram::{Gram, GramConfig};

/// Version of the manifest layout; bump when a field changes meaning.
pub const FORMAT_VERSION: u32 = 1;

/// Metrics recorded at export time (the paper's Table-1 row on the held-out split).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct EvalRecord {
    /// Split the numbers come from (e.g. `nqueens8/test`).
    pub split: String,
    pub inputs: usize,
    /// Samples per input for coverage.
    pub samples: usize,
    /// Single-sample accuracy, percent.
    pub accuracy: f64,
    /// Coverage@samples, percent.
    pub coverage: f64,
    /// The command that produced these numbers.
    pub command: String,
    /// The guidance scale the samples were drawn at (GRAM; TRM draws no guidance noise). Absent in
    /// records written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guidance_scale: Option<f64>,
    /// The supervision steps each sample ran. Absent in records written before it was kept, which
    /// ran `eval`'s default of 8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<usize>,
    /// The fraction of those steps, at their end, run without noise (`SampleOptions::settle`;
    /// GRAM). Absent in records written before it was kept, which ran the task's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle: Option<f64>,
    /// Further task-specific figures (e.g. Sudoku's vote accuracy per difficulty band), percent.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub extra: std::collections::BTreeMap<String, f64>,
}

/// A known output: what these weights answer for one puzzle with a fixed seed. The
/// shipped-weights test recomputes it with the current code; any change to the model's maths or
/// the sampler shows up as a difference (then retrain and re-export).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct ReferenceOutput {
    pub puzzle: String,
    pub samples: usize,
    pub seed: u64,
    pub guidance_scale: f64,
    pub steps: usize,
    pub halting: bool,
    /// [`crate::gram::SampleOptions::settle`]; absent in manifests written before it existed (0).
    #[serde(default)]
    pub settle: f64,
    /// The boards of the samples, in order.
    pub outputs: Vec<String>,
}

/// What a `.bpk` file is. Lives beside it as `<name>.json`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Manifest {
    pub format_version: u32,
    /// File stem, e.g. `gram-nqueens8`.
    pub name: String,
    /// `gram` or `trm`.
    pub model: String,
    /// Task id, e.g. `nqueens8`.
    pub task: String,
    pub config: GramConfig,
    pub params: usize,
    /// The command that trained the weights.
    pub training_command: String,
    /// Seed of data order, noise and initialisation.
    pub data_seed: u64,
    pub train_steps: usize,
    pub train_seconds: f64,
    pub eval: Option<EvalRecord>,
    pub reference: Option<ReferenceOutput>,
    /// Hex sha256 of the `.bpk` bytes.
    pub sha256: String,
    pub bytes: usize,
    /// Weights trained in a browser (`/train`): the run's curve as the page drew it, CSV with a
    /// header (the training curve's `curve_csv`); absent for weights trained by `native-trainer`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curve: Option<String>,
}

/// Why weights could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub enum WeightsError {
    /// The manifest is not valid JSON of this format.
    Manifest(String),
    /// The bytes are not what the manifest describes (corrupt or swapped file).
    Hash { expected: String, found: String },
    /// The file's tensors do not fit the configured model (names or shapes differ).
    Mismatch(String),
    /// The bytes are not a burnpack file.
    Format(String),
    /// The bytes are not a SafeTensors file (`weights::safetensors`).
    SafeTensors(String),
    /// The file is a model whose maths ours does not share (`weights::trm_import`: TRM's
    /// `mlp_t` variant, learned positions).
    Unsupported(String),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Manifest(m) => write!(f, "weights manifest is invalid: {m}"),
            WeightsError::Hash { expected, found } => {
                write!(f, "weights file is corrupt or not the one its manifest describes: sha256 {found}, manifest says {expected}")
            }
            WeightsError::Mismatch(m) => {
                write!(f, "weights do not match the model this code builds from their config: {m}")
            }
            WeightsError::Format(m) => write!(f, "weights file is not a burnpack (.bpk) file: {m}"),
            WeightsError::SafeTensors(m) => write!(f, "weights file is not a readable SafeTensors file: {m}"),
            WeightsError::Unsupported(m) => write!(f, "weights are of a model this code does not implement: {m}"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// Lower-case hex sha256.
/// A manifest written by another version of the weights format is refused, not misread.
pub fn check_format_version(found: u32) -> Result<(), WeightsError> {
    if found != FORMAT_VERSION {
        return Err(WeightsError::Manifest(format!("format_version {found} but this code reads {FORMAT_VERSION}")));
    }
    Ok(())
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The file's bytes are the ones the manifest names (every `load_*` checks this first).
pub(crate) fn check_hash(expected: &str, bytes: &[u8]) -> Result<(), WeightsError> {
    let found = sha256_hex(bytes);
    if found != expected {
        return Err(WeightsError::Hash { expected: expected.to_string(), found });
    }
    Ok(())
}

/// A manifest of any family, parsed, with its format version checked (`version` reads it).
pub(crate) fn parse_manifest<T: serde::de::DeserializeOwned>(text: &str, version: impl Fn(&T) -> u32) -> Result<T, WeightsError> {
    let m: T = serde_json::from_str(text).map_err(|e| WeightsError::Manifest(e.to_string()))?;
    check_format_version(version(&m))?;
    Ok(m)
}

impl Manifest {
    /// Parses and checks the format version.
    pub fn from_json(text: &str) -> Result<Manifest, WeightsError> {
        parse_manifest(text, |m: &Manifest| m.format_version)
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("manifest serialises")
    }
}

/// The model's tensors as burnpack bytes.
pub fn gram_to_bytes(model: &Gram) -> Vec<u8> {
    let record = model.clone().into_record();
    record.into_bytes().expect("in-memory burnpack").to_vec()
}

/// Reads burnpack bytes whose tensors are all f32, the only dtype this code writes: burn panics
/// loading an integer, boolean or quantized tensor into a float parameter.
pub(crate) fn read_record(bytes: &[u8]) -> Result<ModuleRecord, WeightsError> {
    let bytes = Bytes::from_bytes_vec(bytes.to_vec());
    let format = |e: &dyn fmt::Display| WeightsError::Format(e.to_string());
    for t in burn_pack::Reader::from_bytes(bytes.clone()).and_then(|r| r.into_tensors()).map_err(|e| format(&e))? {
        if t.dtype != burn::tensor::DType::F32 {
            return Err(WeightsError::Mismatch(format!("tensor {} is {:?}; weights are f32", t.name, t.dtype)));
        }
    }
    ModuleRecord::from_bytes(bytes).map_err(|e| format(&e))
}

/// Refuses a config whose model cannot be the one saved in `file_len` bytes, before anything is
/// allocated: `params` (f32 values the model holds at least) need more bytes than the file has,
/// or its position `tables` (built, not stored) outweigh the file. A corrupt manifest could
/// otherwise ask for terabytes and abort the process.
pub(crate) fn check_size(params: u128, tables: u128, file_len: usize) -> Result<(), WeightsError> {
    let (need, file) = (params.saturating_mul(4), file_len as u128);
    if need > file || tables.saturating_mul(4) > file {
        return Err(WeightsError::Mismatch(format!(
            "the config needs at least {need} bytes of f32 parameters and {tables} position-table values; the file has {file_len} bytes"
        )));
    }
    Ok(())
}

/// Zero widths, or attention heads that do not split `width` into even head widths (RoPE):
/// what `init` would panic on.
pub(crate) fn check_widths(widths: &[(&str, usize)], heads: Option<(usize, usize)>) -> Result<(), WeightsError> {
    if let Some((name, _)) = widths.iter().find(|w| w.1 == 0) {
        return Err(WeightsError::Mismatch(format!("config {name} is 0")));
    }
    match heads {
        Some((width, h)) if h == 0 || width % h != 0 || (width / h) % 2 != 0 => {
            Err(WeightsError::Mismatch(format!("{h} heads do not split width {width} into heads of even width")))
        }
        _ => Ok(()),
    }
}

/// The image path's shape (`GramConfig::image_side`, `patch`): a square image of `seq_len`
/// pixels split evenly into patches, and a width the encoder's D/2 channels can take.
fn check_image(c: &GramConfig) -> Result<(), WeightsError> {
    let bad = |why: String| Err(WeightsError::Mismatch(why));
    match (c.image_side, c.patch) {
        (None, None) => Ok(()),
        (Some(side), Some(patch)) => {
            if side == 0 || patch == 0 || side % patch != 0 {
                return bad(format!("config image_side {side} does not split into patches of {patch}"));
            }
            if side.checked_mul(side) != Some(c.seq_len) {
                return bad(format!("config image_side {side} is not the side of seq_len {} pixels", c.seq_len));
            }
            if c.d_model < 2 {
                return bad("config d_model below 2 leaves the patch encoder no channels".into());
            }
            Ok(())
        }
        _ => bad("config image_side and patch come together".into()),
    }
}

pub(crate) fn check_gram_config(c: &GramConfig, file_len: usize) -> Result<(), WeightsError> {
    let mut widths = vec![("seq_len", c.seq_len), ("vocab", c.vocab), ("d_model", c.d_model), ("d_hidden", c.d_hidden)];
    widths.extend(c.mixer.then_some(("d_token_hidden", c.d_token_hidden)));
    widths.extend(c.guidance.then_some(("d_guidance", c.d_guidance)));
    check_widths(&widths, (!c.mixer).then_some((c.d_model, c.n_heads)))?;
    check_image(c)?;
    if let Some(problem) = c.problem() {
        return Err(WeightsError::Mismatch(format!("config: {problem}")));
    }
    // s: latent positions (one per patch on the image path); p2: pixels a position decodes.
    let [s, v, d, dh, dt, dg, l] =
        [c.latent_len(), c.vocab, c.d_model, c.d_hidden, c.d_token_hidden, c.d_guidance, c.n_layers].map(|x| x as u128);
    let p2 = c.image().map_or(1, |(_, p)| (p as u128).saturating_mul(p as u128));
    let m = |xs: &[u128]| xs.iter().fold(1u128, |a, &x| a.saturating_mul(x));
    let core = if c.mixer { m(&[3, s, dt]).saturating_add(m(&[3, d, dh])) } else { m(&[4, d, d]).saturating_add(m(&[3, d, dh])) };
    let guidance = if c.guidance { m(&[10, d, dg]).saturating_add(m(&[v, d])) } else { 0 };
    // the image path's patch encoder (second conv and projection) and its wider decoder
    let image = if c.image().is_some() { m(&[25, d / 2, d / 2]).saturating_add(m(&[p2, d / 2, d])) } else { 0 };
    let puzzles = m(&[c.n_puzzles.unwrap_or(0) as u128, c.puzzle_emb_ndim.unwrap_or(c.d_model) as u128]);
    let params = m(&[2, v, d])
        .saturating_add(puzzles)
        .saturating_add(m(&[l, core]))
        .saturating_add(guidance)
        .saturating_add(image)
        .saturating_add(m(&[p2.saturating_sub(1), v, d]));
    let tables = if c.mixer { 0 } else { m(&[s, d / c.n_heads as u128]) };
    check_size(params, tables, file_len)
}

/// Loads tensors into a model built from `config`, without a manifest (checkpoints).
pub fn gram_from_bytes(config: &GramConfig, bytes: &[u8], device: &Device) -> Result<Gram, WeightsError> {
    let record = read_record(bytes)?;
    check_gram_config(config, bytes.len())?;
    Gram::init(config, device).try_load_record(record).map_err(|e| WeightsError::Mismatch(e.to_string()))
}

/// Checks the hash, then loads. The error says which check failed.
pub fn load_gram(manifest: &Manifest, bytes: &[u8], device: &Device) -> Result<Gram, WeightsError> {
    check_hash(&manifest.sha256, bytes)?;
    gram_from_bytes(&manifest.config, bytes, device)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> GramConfig {
        GramConfig::new(16, 3).with_d_model(16).with_d_hidden(16).with_d_guidance(16).with_n_heads(2)
    }

    fn manifest_for(config: GramConfig, bytes: &[u8]) -> Manifest {
        Manifest {
            format_version: FORMAT_VERSION,
            name: "t".into(),
            model: "gram".into(),
            task: "nqueens4".into(),
            config,
            params: 0,
            training_command: "test".into(),
            data_seed: 0,
            train_steps: 0,
            train_seconds: 0.0,
            eval: None,
            reference: None,
            sha256: sha256_hex(bytes),
            bytes: bytes.len(),
            curve: None,
        }
    }

    #[test]
    fn round_trip_keeps_every_tensor() {
        let device = Device::flex();
        let model = Gram::init(&tiny(), &device);
        let bytes = gram_to_bytes(&model);
        let manifest = manifest_for(tiny(), &bytes);
        let again = Manifest::from_json(&manifest.to_json()).unwrap();
        assert_eq!(again, manifest);
        let loaded = load_gram(&again, &bytes, &device).unwrap();
        assert_eq!(gram_to_bytes(&loaded), bytes);
    }

    #[test]
    fn corrupt_mismatched_and_garbage_files_are_clear_errors() {
        let device = Device::flex();
        let bytes = gram_to_bytes(&Gram::init(&tiny(), &device));
        let manifest = manifest_for(tiny(), &bytes);
        // One flipped byte: the hash catches it.
        let mut corrupt = bytes.clone();
        let mid = corrupt.len() / 2;
        corrupt[mid] ^= 0xff;
        let err = load_gram(&manifest, &corrupt, &device).unwrap_err();
        assert!(matches!(err, WeightsError::Hash { .. }), "{err}");
        // A manifest whose config does not fit the tensors.
        let wider = manifest_for(tiny().with_d_model(32), &bytes);
        let err = load_gram(&wider, &bytes, &device).unwrap_err();
        assert!(matches!(err, WeightsError::Mismatch(_)), "{err}");
        assert!(err.to_string().contains("do not match"), "{err}");
        // TRM weights read as GRAM: the guidance tensors are missing.
        let trm = gram_to_bytes(&Gram::init(&tiny().with_guidance(false), &device));
        let err = gram_from_bytes(&tiny(), &trm, &device).unwrap_err();
        assert!(matches!(err, WeightsError::Mismatch(_)), "{err}");
        // Not a burnpack at all.
        let err = gram_from_bytes(&tiny(), b"hello", &device).unwrap_err();
        assert!(matches!(err, WeightsError::Format(_) | WeightsError::Mismatch(_)), "{err}");
        // Broken manifest JSON, and a future format version.
        assert!(matches!(Manifest::from_json("{"), Err(WeightsError::Manifest(_))));
        let mut future = manifest.clone();
        future.format_version = 99;
        assert!(matches!(Manifest::from_json(&future.to_json()), Err(WeightsError::Manifest(_))));
    }

    /// A manifest's image fields are checked before anything is built: a zero or uneven patch, a
    /// side that is not the pixels', or a huge side is an error, never a panic or an abort.
    #[test]
    fn image_configs_that_cannot_be_built_are_refused() {
        let device = Device::flex();
        let image = || GramConfig::new(64, 3).with_d_model(16).with_d_hidden(16).with_d_guidance(16).with_n_heads(2);
        let good = image().with_image_side(Some(8)).with_patch(Some(4)).with_grid_cols(2);
        let bytes = gram_to_bytes(&Gram::init(&good, &device));
        assert!(gram_from_bytes(&good, &bytes, &device).is_ok());
        for (side, patch) in [(Some(8), Some(0)), (Some(8), Some(3)), (Some(9), Some(3)), (Some(1 << 40), Some(1)), (Some(8), None)] {
            let bad = image().with_image_side(side).with_patch(patch);
            let err = gram_from_bytes(&bad, &bytes, &device).unwrap_err();
            assert!(matches!(err, WeightsError::Mismatch(_)), "{side:?} {patch:?}: {err}");
        }
    }
}
