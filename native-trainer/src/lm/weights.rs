//! Reading the regex language models' weights: a shipped `.bpk` with its manifest, or a run
//! directory's latest checkpoint.

use std::fs;
use std::path::Path;

use burn::tensor::Device;
use engine::weights::regex::{RegexManifest, load_regex};

/// Regex weights: (model, config, the preset that trained it, the manifest of a `.bpk`).
pub type RegexWeights =
    (engine::studies::regex::model::RegexModel, engine::studies::regex::model::RegexConfig, String, Option<RegexManifest>);

/// Regex weights from a `.bpk` (manifest beside it) or a run directory (its latest checkpoint).
pub fn load_regex_weights(path: &Path, device: &Device) -> Result<RegexWeights, String> {
    if path.is_dir() {
        let (model, _, _, state) = super::presets::load_lm_checkpoint(path, device, device)?;
        if state.step < state.steps {
            eprintln!("note: {} is at step {} of {}", path.display(), state.step, state.steps);
        }
        return Ok((model, state.config, state.preset, None));
    }
    let mp = path.with_extension("json");
    let text = fs::read_to_string(&mp).map_err(|e| format!("cannot read the manifest {}: {e}", mp.display()))?;
    let manifest = RegexManifest::from_json(&text).map_err(|e| format!("{}: {e}", mp.display()))?;
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let model = load_regex(&manifest, &bytes, device).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((model, manifest.config.clone(), manifest.preset.clone(), Some(manifest)))
}
