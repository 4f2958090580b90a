//! Checkpoints of a run directory, for every family's training loop: `ckpt-<step>/` is written in
//! full, then the `latest` pointer is replaced by an atomic rename, then all but the newest two
//! checkpoints are removed, so an interruption at any moment leaves a complete checkpoint that
//! `latest` names; reading a checkpoint's files and state back; the AdamW optimiser every family
//! uses and its state as bytes. Each family's run state is its own, kept in the family's folder
//! (GRAM's `state.rs`, the other families' `presets.rs`).

use std::fs;
use std::path::{Path, PathBuf};

use burn::optim::{AdamWConfig, ModuleOptimizer};
use burn::tensor::Bytes;
use serde::de::DeserializeOwned;

/// Writes `ckpt-<step>/` with the given files (model.bpk, optim.bpk, state.json, ...), then
/// points `latest` at it by an atomic rename, then removes all but the newest two checkpoints.
pub fn write_checkpoint(dir: &Path, step: usize, files: &[(&str, &[u8])]) -> std::io::Result<()> {
    let ckpt = dir.join(format!("ckpt-{step:07}"));
    fs::create_dir_all(&ckpt)?;
    for (name, bytes) in files {
        fs::write(ckpt.join(name), bytes)?;
    }
    let previous = fs::read_to_string(dir.join("latest")).ok();
    write_atomic(&dir.join("latest"), ckpt.file_name().unwrap().to_string_lossy().as_bytes())?;
    if let Some(prev) = previous {
        let current = format!("ckpt-{step:07}");
        let old: Vec<_> = fs::read_dir(dir)?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with("ckpt-") && *n != prev.trim() && *n != current)
            .collect();
        for o in old {
            let _ = fs::remove_dir_all(dir.join(o));
        }
    }
    Ok(())
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes)?;
    fs::rename(tmp, path)
}

/// The directory `latest` points at.
pub fn latest_checkpoint(dir: &Path) -> Result<PathBuf, String> {
    let name = fs::read_to_string(dir.join("latest")).map_err(|e| format!("no checkpoint to resume in {}: {e}", dir.display()))?;
    Ok(dir.join(name.trim()))
}

/// One file of a checkpoint.
pub fn read_file(ckpt: &Path, name: &str) -> Result<Vec<u8>, String> {
    fs::read(ckpt.join(name)).map_err(|e| format!("{}/{name}: {e}", ckpt.display()))
}

/// A checkpoint's `state.json`.
pub fn read_state<T: DeserializeOwned>(ckpt: &Path) -> Result<T, String> {
    serde_json::from_slice(&read_file(ckpt, "state.json")?).map_err(|e| format!("{}/state.json: {e}", ckpt.display()))
}

pub use engine::training::course::adamw;

pub fn optimizer_bytes(optim: &ModuleOptimizer) -> std::io::Result<Vec<u8>> {
    Ok(optim.into_bytes().map_err(|e| std::io::Error::other(e.to_string()))?.to_vec())
}

/// The optimiser of a checkpoint: its recorded config with its saved state.
pub fn restore_optimizer(config: &AdamWConfig, bytes: Vec<u8>) -> Result<ModuleOptimizer, String> {
    config.init().from_bytes(Bytes::from_bytes_vec(bytes)).map_err(|e| format!("optimizer state: {e}"))
}
