//! Reading the grammar study's weights (T, C and R with both Talkers in one file): a shipped
//! `.bpk` with its manifest, or a run directory's latest checkpoint.

use std::fs;
use std::path::Path;

use burn::module::Module;
use burn::tensor::Device;
use engine::studies::grammar::models::{GrammarConfig, GrammarModels};
use engine::weights::grammar::{GrammarManifest, load_grammar};

use super::presets::{PHASES, load_grammar_checkpoint};

/// Grammar weights from a `.bpk` (manifest beside it) or a run directory.
pub fn load_grammar_weights(path: &Path, device: &Device) -> Result<(GrammarModels, GrammarConfig, Option<GrammarManifest>), String> {
    if path.is_dir() {
        let (models, _, state) = load_grammar_checkpoint(path, device)?;
        if state.phase < PHASES.len() {
            eprintln!("note: {} is still in phase {} of 6; later phases' models are untrained", path.display(), state.phase + 1);
        }
        return Ok((models.valid(), state.config, None));
    }
    let mp = path.with_extension("json");
    let text = fs::read_to_string(&mp).map_err(|e| format!("cannot read the manifest {}: {e}", mp.display()))?;
    let manifest = GrammarManifest::from_json(&text).map_err(|e| format!("{}: {e}", mp.display()))?;
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let models = load_grammar(&manifest, &bytes, device).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((models, manifest.config.clone(), Some(manifest)))
}
