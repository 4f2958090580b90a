//! The `family` file of a run directory: what the run trains, as a manifest's `model` names it,
//! written when a run starts and read by `weights_io::found` before any run state.

use std::fs;
use std::path::Path;

use engine::weights::identity::Family;

const FAMILY_FILE: &str = "family";

/// Records a run's family in its directory.
pub fn record(run_dir: &Path, family: Family) -> Result<(), String> {
    let file = run_dir.join(FAMILY_FILE);
    fs::write(&file, format!("{}\n", family.model_name())).map_err(|e| format!("{}: {e}", file.display()))
}

/// The family a run directory recorded, if it did (runs written before the file existed did not).
pub fn recorded(run_dir: &Path) -> Option<Family> {
    fs::read_to_string(run_dir.join(FAMILY_FILE)).ok().and_then(|f| Family::of_model_name(f.trim()))
}
