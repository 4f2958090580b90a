//! What `eval` and `solve` share about sampling: the task behind a model, the settle default,
//! and how the eval line names it.

use std::path::Path;

use engine::gram::{GramConfig, SampleOptions, Selection};
use engine::weights::Manifest;

use crate::run::checkpoint::{latest_checkpoint, read_state};

use crate::gram::presets::preset;
use crate::gram::state::RunState;
use engine::tasks::{TaskId, TokenTask};

/// The task of GRAM/TRM weights, or a readable error: the one they name (`named`: a manifest's
/// `task`, a run directory's preset's), which their config's shapes must fit
/// ([`TaskId::of_weights`]); weights that name none are read from their shapes, with a note.
pub fn task_of(config: &GramConfig, named: Option<&str>) -> Result<TaskId, String> {
    let task = TaskId::of_weights(config, named).map_err(|e| e.to_string())?;
    if named.is_none_or(str::is_empty) {
        eprintln!("note: these weights name no task; read as {} from their shapes", task.id());
    }
    Ok(task)
}

/// The task id weights name: a manifest's `task`, or a run directory's preset's task.
pub fn named_task(path: &Path, manifest: Option<&Manifest>) -> Option<String> {
    match manifest {
        Some(m) => Some(m.task.clone()),
        None => {
            let state: RunState = read_state(&latest_checkpoint(path).ok()?).ok()?;
            preset(&state.preset).and_then(|p| p.task).map(|t| t.id())
        }
    }
}

/// `--settle`, a fraction of the step budget, or the task's default.
pub fn with_settle<T: TokenTask>(options: SampleOptions, settle: Option<f64>, task: &T) -> Result<SampleOptions, String> {
    let settle = settle.unwrap_or_else(|| task.default_settle());
    if !(0.0..=1.0).contains(&settle) {
        return Err(format!("--settle must be a fraction between 0 and 1, not {settle}"));
    }
    Ok(SampleOptions { settle, ..options })
}

/// How the eval line names the settled steps: "" or " (the last 2 without noise)".
pub fn settle_note(options: &SampleOptions) -> String {
    match options.settle_steps() {
        0 => String::new(),
        s => format!(" (the last {s} without noise)"),
    }
}

/// `--samples`, `--steps` and `--guidance-scale` within what a run can do.
pub fn check_ranges(options: &SampleOptions) -> Result<(), String> {
    let SampleOptions { samples, guidance_scale, max_steps: steps, .. } = *options;
    if !(1..=1024).contains(&samples) {
        return Err(format!("--samples must be between 1 and 1024, not {samples}"));
    }
    // 512: room for the GRAM paper's Figure 4, where TRM runs 320 supervision steps.
    if !(1..=512).contains(&steps) {
        return Err(format!("--steps must be between 1 and 512, not {steps}"));
    }
    if !(guidance_scale.is_finite() && guidance_scale >= 0.0) {
        return Err(format!("--guidance-scale must be a number >= 0, not {guidance_scale}"));
    }
    Ok(())
}

/// `--latent-noise` for GRAM/TRM weights: PTRM's sigma, a number >= 0, set in `options`.
pub fn with_latent_noise(options: SampleOptions, sigma: f64) -> Result<SampleOptions, String> {
    if !(sigma.is_finite() && sigma >= 0.0) {
        return Err(format!("--latent-noise (PTRM's sigma) must be a number >= 0, not {sigma}"));
    }
    Ok(SampleOptions { latent_noise: sigma, ..options })
}

/// `--select vote|lprm|q`, or `auto` where the command allows it (`None`: the task's default).
pub fn parse_select(text: &str, auto: bool) -> Result<Option<Selection>, String> {
    match text {
        "auto" if auto => Ok(None),
        other => match Selection::parse(other) {
            Some(s) => Ok(Some(s)),
            None if auto => Err(format!("--select must be auto, lprm, vote or q, not {other:?}")),
            None => Err(format!("--select must be lprm, vote or q, not {other:?}")),
        },
    }
}
