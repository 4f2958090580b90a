//! Reading weights from disk: a shipped `.bpk` with its manifest beside it, or a run directory
//! (its latest checkpoint), for GRAM/TRM, the JEPA-Reasoner, the grammar study and the regex LMs.

use std::fs;
use std::path::Path;

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::{Gram, GramConfig};
use engine::jepa::Jepa;
use engine::weights::jepa::{JepaManifest, load_jepa};
use engine::weights::identity::{Family, gram_manifest, identify};
use engine::weights::{Manifest, load_gram};

use crate::cfg_presets::{CfgRunState, load_cfg_checkpoint};
use crate::jepa_train::{JepaRunState, Phase, load_jepa_checkpoint};
use engine::tasks::cfg::models::{CfgConfig, CfgModels};
use engine::weights::cfg::{CfgManifest, load_cfg};
use engine::weights::regex::{RegexManifest, load_regex};
use crate::checkpoint::{load_checkpoint, load_ema};

/// What a weights path holds: its family and, for a `.bpk`, its manifest's text, read once and
/// handed on to the loader.
pub struct Found {
    pub family: Family,
    pub manifest: Option<String>,
}

/// What `path` holds, read once: a `.bpk`'s family from its manifest, by the engine's one reader
/// of a manifest ([`identify`]: a manifest whose task its weights do not fit is refused here, with
/// both named); a run directory's from the `family` file its run wrote (older runs: the run state
/// it parses as).
pub fn found(path: &Path) -> Result<Found, String> {
    if let Some(family) = crate::run_family::recorded(path) {
        return Ok(Found { family, manifest: None });
    }
    // A run directory written before runs recorded their family: the run state it parses as.
    if path.is_dir() {
        let name = fs::read_to_string(path.join("latest"))
            .map_err(|e| format!("{} is not a run directory with a checkpoint (no `latest`: {e})", path.display()))?;
        let state = fs::read_to_string(path.join(name.trim()).join("state.json")).unwrap_or_default();
        let parses = |ok: bool, family| ok.then_some(family);
        let family = parses(serde_json::from_str::<crate::lm_presets::LmRunState>(&state).is_ok(), Family::RegexLm)
            .or_else(|| parses(serde_json::from_str::<CfgRunState>(&state).is_ok(), Family::Grammar))
            .or_else(|| parses(serde_json::from_str::<JepaRunState>(&state).is_ok(), Family::JepaReasoner))
            // GRAM and TRM share one run state; the state's config says which (guidance or not).
            .or_else(|| Some(Family::of_gram_config(&serde_json::from_str::<crate::checkpoint::RunState>(&state).ok()?.config)))
            .ok_or_else(|| format!("{}: its latest checkpoint's state.json is no run state this trainer writes", path.display()))?;
        return Ok(Found { family, manifest: None });
    }
    let manifest_path = path.with_extension("json");
    let text = fs::read_to_string(&manifest_path)
        .map_err(|e| format!("cannot read the manifest {} beside the weights: {e}", manifest_path.display()))?;
    let family = identify(&text).map(|id| id.family).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
    Ok(Found { family, manifest: Some(text) })
}

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

/// JEPA weights from a `.bpk` (manifest beside it) or a run directory.
pub fn load_jepa_weights(path: &Path, device: &Device) -> Result<(Jepa, Option<JepaManifest>), String> {
    if path.is_dir() {
        let (model, _, state) = load_jepa_checkpoint(path, device)?;
        if state.phase != Phase::Talker {
            eprintln!(
                "note: {} is a {:?}-phase run; its Talker is untrained until the talker phase",
                path.display(),
                state.phase
            );
        }
        return Ok((model, None));
    }
    let mp = path.with_extension("json");
    let text = fs::read_to_string(&mp).map_err(|e| format!("cannot read the manifest {}: {e}", mp.display()))?;
    let manifest = JepaManifest::from_json(&text).map_err(|e| format!("{}: {e}", mp.display()))?;
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let model = load_jepa(&manifest, &bytes, device).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((model, Some(manifest)))
}

/// Grammar weights from a `.bpk` (manifest beside it) or a run directory.
pub fn load_cfg_weights(path: &Path, device: &Device) -> Result<(CfgModels, CfgConfig, Option<CfgManifest>), String> {
    if path.is_dir() {
        let (models, _, state) = load_cfg_checkpoint(path, device)?;
        if state.phase < crate::cfg_presets::PHASES.len() {
            eprintln!("note: {} is still in phase {} of 6; later phases' models are untrained", path.display(), state.phase + 1);
        }
        return Ok((models.valid(), state.config, None));
    }
    let mp = path.with_extension("json");
    let text = fs::read_to_string(&mp).map_err(|e| format!("cannot read the manifest {}: {e}", mp.display()))?;
    let manifest = CfgManifest::from_json(&text).map_err(|e| format!("{}: {e}", mp.display()))?;
    let bytes = fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let models = load_cfg(&manifest, &bytes, device).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((models, manifest.config.clone(), Some(manifest)))
}

/// Writes shipped weights: `<out_dir>/<name>.bpk` and its manifest `<name>.json`; returns the
/// `.bpk` path (every `export` ends here).
pub fn write_weights(out_dir: &Path, name: &str, bytes: &[u8], manifest_json: &str) -> Result<std::path::PathBuf, String> {
    fs::create_dir_all(out_dir).map_err(|e| e.to_string())?;
    let bpk = out_dir.join(format!("{name}.bpk"));
    fs::write(&bpk, bytes).map_err(|e| e.to_string())?;
    fs::write(out_dir.join(format!("{name}.json")), manifest_json.to_string() + "\n").map_err(|e| e.to_string())?;
    Ok(bpk)
}

/// Regex weights: (model, config, the preset that trained it, the manifest of a `.bpk`).
pub type RegexWeights = (engine::tasks::regex::model::RegexModel, engine::tasks::regex::model::RegexConfig, String, Option<RegexManifest>);

/// Regex weights from a `.bpk` (manifest beside it) or a run directory (its latest checkpoint).
pub fn load_regex_weights(path: &Path, device: &Device) -> Result<RegexWeights, String> {
    if path.is_dir() {
        let (model, _, _, state) = crate::lm_presets::load_lm_checkpoint(path, device, device)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A run directory says its family through the file its run wrote, read before any state.
    #[test]
    fn a_run_directory_names_its_family() {
        let dir = std::env::temp_dir().join(format!("family-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        assert!(found(&dir).is_err(), "no family file and no checkpoint: nothing to go on");
        for family in Family::ALL {
            crate::run_family::record(&dir, family).unwrap();
            assert_eq!(found(&dir).unwrap().family, family);
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
