//! Reading the JEPA-Reasoner's weights (the Reasoner with its Talker): a shipped `.bpk` with its
//! manifest, or a run directory's latest checkpoint.

use std::fs;
use std::path::Path;

use burn::tensor::Device;
use engine::reasoner::ReasonerModel;
use engine::weights::reasoner::{ReasonerManifest, load_reasoner};

use super::presets::{Phase, load_reasoner_checkpoint};

/// JEPA-Reasoner weights from a `.bpk` (manifest beside it) or a run directory.
pub fn load_reasoner_weights(path: &Path, device: &Device) -> Result<(ReasonerModel, Option<ReasonerManifest>), String> {
    if path.is_dir() {
        let (model, _, state) = load_reasoner_checkpoint(path, device)?;
        if state.phase != Phase::Talker {
            eprintln!("note: {} is a {:?}-phase run; its Talker is untrained until the talker phase", path.display(), state.phase);
        }
        return Ok((model, None));
    }
    let mp = path.with_extension("json");
    let text = fs::read_to_string(&mp).map_err(|e| format!("cannot read the manifest {}: {e}", mp.display()))?;
    let manifest = ReasonerManifest::from_json(&text).map_err(|e| format!("{}: {e}", mp.display()))?;
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let model = load_reasoner(&manifest, &bytes, device).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((model, Some(manifest)))
}
