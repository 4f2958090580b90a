//! Writing shipped weights, for every family's `export`: the `.bpk` and its manifest beside it.

use std::fs;
use std::path::Path;

/// Writes shipped weights: `<out_dir>/<name>.bpk` and its manifest `<name>.json`; returns the
/// `.bpk` path (every `export` ends here).
pub fn write_weights(out_dir: &Path, name: &str, bytes: &[u8], manifest_json: &str) -> Result<std::path::PathBuf, String> {
    fs::create_dir_all(out_dir).map_err(|e| e.to_string())?;
    let bpk = out_dir.join(format!("{name}.bpk"));
    fs::write(&bpk, bytes).map_err(|e| e.to_string())?;
    fs::write(out_dir.join(format!("{name}.json")), manifest_json.to_string() + "\n").map_err(|e| e.to_string())?;
    Ok(bpk)
}
