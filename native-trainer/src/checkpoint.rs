//! Checkpoints of a run directory, for both training loops: `ckpt-<step>/` is written in full,
//! then the `latest` pointer is replaced by an atomic rename, then all but the newest two
//! checkpoints are removed, so an interruption at any moment leaves a complete checkpoint that
//! `latest` names. Reading them back: the GRAM/TRM run state with everything the next steps
//! depend on (weights, the optimiser's state and config, the weights' average, the in-flight
//! batch), and weights for `eval` / `--init-from` from a `.bpk` or a run directory.

use std::fs;
use std::path::{Path, PathBuf};

use burn::optim::grad_clipping::GradientClippingConfig;
use burn::optim::{AdamWConfig, ModuleOptimizer};
use burn::tensor::{Bytes, Device};
use engine::gram::{Gram, GramConfig};
use engine::weights::{gram_from_bytes, gram_to_bytes};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::batch::Slot;

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
    let name = fs::read_to_string(dir.join("latest"))
        .map_err(|e| format!("no checkpoint to resume in {}: {e}", dir.display()))?;
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

/// AdamW as both loops configure it. Deviation: burn clips each parameter tensor's gradient to
/// norm 1 (the paper clips the global norm at 1.0); with ~30 tensors the two differ only for
/// outlier steps.
pub fn adamw(weight_decay: f32) -> AdamWConfig {
    AdamWConfig::new().with_weight_decay(weight_decay).with_grad_clipping(Some(GradientClippingConfig::Norm(1.0)))
}

pub fn optimizer_bytes(optim: &ModuleOptimizer) -> std::io::Result<Vec<u8>> {
    Ok(optim.into_bytes().map_err(|e| std::io::Error::other(e.to_string()))?.to_vec())
}

/// The optimiser of a checkpoint: its recorded config with its saved state.
pub fn restore_optimizer(config: &AdamWConfig, bytes: Vec<u8>) -> Result<ModuleOptimizer, String> {
    config.init().from_bytes(Bytes::from_bytes_vec(bytes)).map_err(|e| format!("optimizer state: {e}"))
}

/// Written beside each GRAM/TRM checkpoint's tensors.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct RunState {
    pub preset: String,
    pub step: usize,
    pub total_steps: usize,
    pub seed: u64,
    pub seconds: f64,
    /// The launch command, then each resumption (`... ; resumed at step K: ...`).
    pub command: String,
    pub config: GramConfig,
    /// A run started `--init-from` shipped weights: how those were trained, so the export's
    /// manifest names the whole recipe, steps and time.
    #[serde(default)]
    pub parent: Option<Parent>,
    /// Peak lr, warm-up and EMA decay (absent in checkpoints written before they were recorded).
    #[serde(default)]
    pub schedule: Option<Schedule>,
    /// The optimiser's config (absent in older checkpoints: the preset's is used).
    #[serde(default)]
    pub optimizer: Option<AdamWConfig>,
    /// The in-flight batch; its carried state is `latent.bin` (absent in older checkpoints).
    #[serde(default)]
    pub batch: Option<BatchState>,
    /// The best validation accuracy of a quick evaluation so far (the shipped side: the
    /// weights' average when kept) and its step; that checkpoint is kept in `<run>/best/`.
    #[serde(default)]
    pub best_eval: Option<(f64, usize)>,
    /// Sudoku: the range of target givens the training pool was generated with (`--givens`;
    /// absent = the default range). Part of the run's data, so a resumed run keeps it.
    #[serde(default)]
    pub train_givens: Option<(usize, usize)>,
    /// `--data`: the import directory the run trains on (absent = the task's own data). Part of
    /// the run's data, so a resumed run keeps it.
    #[serde(default)]
    pub train_data: Option<PathBuf>,
}

/// The learning-rate schedule and weights' average a run trains with.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct Schedule {
    pub lr: f64,
    pub warmup: usize,
    /// Decay of the weights' EMA; 0 = none.
    pub ema: f64,
    /// Micro-batches per optimiser step (`accumulate.rs`); 1 in checkpoints written before it.
    #[serde(default = "one")]
    pub grad_accum: usize,
    /// Trajectories per optimiser step; 0 in checkpoints written before it (the preset's).
    #[serde(default)]
    pub batch: usize,
}

fn one() -> usize {
    1
}

/// The batch slots; `latent.bin` holds z's `[B, L, D]` h then l.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct BatchState {
    pub slots: Vec<Slot>,
    pub latent_shape: [usize; 3],
}

/// The training behind the weights a run started from (their manifest's record).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Parent {
    pub command: String,
    pub steps: usize,
    pub seconds: f64,
    pub sha256: String,
}

/// Everything one GRAM/TRM checkpoint holds.
pub struct Snapshot<'a> {
    pub model: &'a Gram,
    pub ema: Option<&'a Gram>,
    pub optim: &'a ModuleOptimizer,
    pub state: &'a RunState,
    pub latent: &'a [u8],
}

/// Saves model, optimiser, the weights' average (if kept), the carried state and the run state
/// as `ckpt-<step>/`, then points `latest` at it.
pub fn save_checkpoint(dir: &Path, s: &Snapshot) -> std::io::Result<()> {
    let optim = optimizer_bytes(s.optim)?;
    let (model, state) = (gram_to_bytes(s.model), serde_json::to_string_pretty(s.state)?);
    let mut files = vec![("model.bpk", &model[..]), ("optim.bpk", &optim[..]), ("state.json", state.as_bytes())];
    files.push(("latent.bin", s.latent));
    let ema = s.ema.map(gram_to_bytes);
    if let Some(ema) = &ema {
        files.push(("ema.bpk", &ema[..]));
    }
    write_checkpoint(dir, s.state.step, &files)
}

/// The newest checkpoint of a run: (model, optimiser, state). The state always names its
/// optimiser config (a checkpoint from before it was recorded gets the preset's).
pub fn load_checkpoint(dir: &Path, device: &Device) -> Result<(Gram, ModuleOptimizer, RunState), String> {
    let ckpt = latest_checkpoint(dir)?;
    let mut state: RunState = read_state(&ckpt)?;
    let model = gram_from_bytes(&state.config, &read_file(&ckpt, "model.bpk")?, device).map_err(|e| e.to_string())?;
    let config = state.optimizer.clone().unwrap_or_else(|| {
        adamw(crate::presets::preset(&state.preset).map_or(0.1, |p| p.weight_decay))
    });
    let optim = restore_optimizer(&config, read_file(&ckpt, "optim.bpk")?)?;
    state.optimizer = Some(config);
    Ok((model, optim, state))
}

/// The carried state of the newest checkpoint (`latent.bin`), if it has one.
pub fn load_latent(dir: &Path) -> Result<Option<Vec<u8>>, String> {
    let path = latest_checkpoint(dir)?.join("latent.bin");
    if !path.exists() {
        return Ok(None);
    }
    fs::read(&path).map(Some).map_err(|e| format!("{}: {e}", path.display()))
}

/// The weights' average of the newest checkpoint, if the run keeps one.
pub fn load_ema(dir: &Path, config: &GramConfig, device: &Device) -> Result<Option<Gram>, String> {
    let path = latest_checkpoint(dir)?.join("ema.bpk");
    if !path.exists() {
        return Ok(None);
    }
    let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    gram_from_bytes(config, &bytes, device).map(Some).map_err(|e| format!("{}: {e}", path.display()))
}
