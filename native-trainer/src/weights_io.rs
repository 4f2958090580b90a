//! What a weights path is, read once (a shipped `.bpk` with its manifest beside it, or a run
//! directory). Each family reads its own weights: `gram::weights`,
//! `reasoner::weights`, `grammar::weights`, `lm::weights`.

use std::fs;
use std::path::Path;

use engine::weights::identity::{Family, identify};

use crate::grammar::presets::GrammarRunState;
use crate::reasoner::presets::ReasonerRunState;

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
    if let Some(family) = crate::run::family::recorded(path) {
        return Ok(Found { family, manifest: None });
    }
    // A run directory written before runs recorded their family: the run state it parses as.
    if path.is_dir() {
        let name = fs::read_to_string(path.join("latest"))
            .map_err(|e| format!("{} is not a run directory with a checkpoint (no `latest`: {e})", path.display()))?;
        let state = fs::read_to_string(path.join(name.trim()).join("state.json")).unwrap_or_default();
        let parses = |ok: bool, family| ok.then_some(family);
        let family = parses(serde_json::from_str::<crate::lm::presets::LmRunState>(&state).is_ok(), Family::RegexLm)
            .or_else(|| parses(serde_json::from_str::<GrammarRunState>(&state).is_ok(), Family::Grammar))
            .or_else(|| parses(serde_json::from_str::<ReasonerRunState>(&state).is_ok(), Family::JepaReasoner))
            // GRAM and TRM share one run state; the state's config says which (guidance or not).
            .or_else(|| Some(Family::of_gram_config(&serde_json::from_str::<crate::gram::state::RunState>(&state).ok()?.config)))
            .ok_or_else(|| format!("{}: its latest checkpoint's state.json is no run state this trainer writes", path.display()))?;
        return Ok(Found { family, manifest: None });
    }
    let manifest_path = path.with_extension("json");
    let text = fs::read_to_string(&manifest_path)
        .map_err(|e| format!("cannot read the manifest {} beside the weights: {e}", manifest_path.display()))?;
    let family = identify(&text).map(|id| id.family).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
    Ok(Found { family, manifest: Some(text) })
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
            crate::run::family::record(&dir, family).unwrap();
            assert_eq!(found(&dir).unwrap().family, family);
        }
        fs::remove_dir_all(&dir).unwrap();
    }
}
