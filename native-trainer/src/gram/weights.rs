//! Reading GRAM/TRM weights: a shipped `.bpk` through the engine's one reader of what a file is
//! (family and task checked), or a run directory's latest checkpoint (the weights' average when
//! the run keeps one, as `export` ships).

use std::fs;
use std::path::Path;

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::{Gram, GramConfig};
use engine::weights::identity::gram_manifest;
use engine::weights::{Manifest, load_gram};

use super::state::{load_checkpoint, load_ema};

/// GRAM/TRM weights from a `.bpk` (with its manifest) or a run directory (latest checkpoint: the
/// weights' average when the run keeps one, as `export` ships).
pub fn load_weights(path: &Path, device: &Device) -> Result<(Gram, GramConfig, Option<Manifest>), String> {
    load_found(path, None, device)
}

/// [`load_weights`] with the manifest's text already read ([`found`]), so it is read once.
pub fn load_found(path: &Path, manifest_text: Option<&str>, device: &Device) -> Result<(Gram, GramConfig, Option<Manifest>), String> {
    if path.is_dir() {
        let (model, _, state) = load_checkpoint(path, device)?;
        let model = load_ema(path, &state.config, device)?.unwrap_or(model);
        return Ok((model.valid(), state.config, None));
    }
    let manifest_path = path.with_extension("json");
    let read;
    let text = match manifest_text {
        Some(text) => text,
        None => {
            read = fs::read_to_string(&manifest_path)
                .map_err(|e| format!("cannot read the manifest {} beside the weights: {e}", manifest_path.display()))?;
            &read
        }
    };
    // Every GRAM/TRM file is read through the engine's one reader of what a file is.
    let (manifest, _) = gram_manifest(text).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let model = load_gram(&manifest, &bytes, device).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((model, manifest.config.clone(), Some(manifest)))
}
