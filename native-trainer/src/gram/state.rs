//! A GRAM/TRM run's state and checkpoints: everything the next steps depend on (weights, the
//! optimiser's state and config, the weights' average, the in-flight batch), written through the
//! shared checkpoint writer (`crate::run::checkpoint`) and read back to resume.

use std::fs;
use std::path::{Path, PathBuf};

use burn::optim::{AdamWConfig, ModuleOptimizer};
use burn::tensor::Device;
use engine::gram::{Gram, GramConfig};
use engine::weights::{gram_from_bytes, gram_to_bytes};
use serde::{Deserialize, Serialize};

use crate::run::checkpoint::{adamw, latest_checkpoint, optimizer_bytes, read_file, read_state, restore_optimizer, write_checkpoint};
use engine::training::batch::Slot;

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
    /// Sudoku: each pool puzzle the hardest of this many by the solver's rating (`--hardest-of`;
    /// absent = 1, the plain generator). Part of the run's data, so a resumed run keeps it.
    #[serde(default)]
    pub train_hardest_of: Option<usize>,
    /// `--data`: the import directory the run trains on (absent = the task's own data). Part of
    /// the run's data, so a resumed run keeps it.
    #[serde(default)]
    pub train_data: Option<PathBuf>,
    /// `--augment`: the draws are random answer-preserving copies (absent = false). Part of the
    /// run's data, so a resumed run keeps it.
    #[serde(default)]
    pub train_augment: bool,
}

pub use engine::training::course::Schedule;

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
    let config = state.optimizer.clone().unwrap_or_else(|| adamw(super::presets::preset(&state.preset).map_or(0.1, |p| p.weight_decay)));
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
