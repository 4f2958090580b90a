//! What both training loops share about a run's course: the learning-rate schedule, the
//! randomness of each step (both in the engine, `engine::training::course`, which the
//! page's training shares), when an invocation stops early, and the guard against a diverged
//! (non-finite) state.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use burn::module::{Module, ModuleVisitor, Param};
use burn::tensor::Tensor;

use crate::run::checkpoint::latest_checkpoint;

pub use engine::training::course::{DATA, step_rng, warmup_cosine_lr};

/// Trees of a JEPA step; the phase is added, so each phase draws its own.
pub const TREES: u64 = 16;

/// Why an invocation ends before the run's last step (with a checkpoint either way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// Ctrl-C: exit code 130.
    Interrupted,
    /// `--stop-after K` steps of this invocation: exit code 0.
    StopAfter,
}

/// Decides after each step whether this invocation stops there.
pub struct Stopper {
    ctrl_c: Arc<AtomicBool>,
    stop_at: Option<usize>,
}

impl Stopper {
    /// `start`: the step this invocation began at; `stop_after`: `--stop-after`.
    pub fn new(start: usize, stop_after: Option<usize>) -> Stopper {
        let ctrl_c = Arc::new(AtomicBool::new(false));
        let flag = ctrl_c.clone();
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
        Stopper { ctrl_c, stop_at: stop_after.map(|k| start + k) }
    }

    pub fn check(&self, step: usize) -> Option<Halt> {
        if self.ctrl_c.load(Ordering::SeqCst) {
            Some(Halt::Interrupted)
        } else if self.stop_at.is_some_and(|s| step >= s) {
            Some(Halt::StopAfter)
        } else {
            None
        }
    }
}

/// Ends an invocation stopped early, after its checkpoint was written.
pub fn halt(halt: Halt, step: usize, total: usize, run_dir: &Path) {
    let dir = run_dir.display();
    match halt {
        Halt::Interrupted => {
            eprintln!("\ninterrupted at step {step}: checkpoint saved in {dir}; continue with --resume");
            std::process::exit(130);
        }
        Halt::StopAfter => {
            eprintln!("\nstopped at step {step} of {total} (--stop-after): checkpoint saved in {dir}; continue with --resume")
        }
    }
}

/// Whether every float parameter of a module is finite.
pub fn all_finite<M: Module>(module: &M) -> bool {
    struct Check(bool);
    impl ModuleVisitor for Check {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            if self.0 {
                let v = param.val();
                let v = if v.is_autodiff() { v.inner() } else { v };
                self.0 = v.is_finite().all().into_scalar::<bool>();
            }
        }
    }
    let mut check = Check(true);
    module.visit(&mut check);
    check.0
}

/// The error that stops a diverged run: what went non-finite at which step, that nothing of
/// it was saved, the last good checkpoint, and what to do.
pub fn diverged(step: usize, what: &str, run_dir: &Path, lr: f64) -> String {
    let kept = match latest_checkpoint(run_dir) {
        Ok(ckpt) => format!(
            "the last good checkpoint, {}, is kept; continue from it with --resume and a lower --lr (this step's was {lr:.1e})",
            ckpt.display()
        ),
        Err(_) => format!("no checkpoint was written before it; start again with a lower --lr (this step's was {lr:.1e})"),
    };
    format!("training diverged at step {step}: {what}; stopped without saving this state: {kept}")
}

/// A resumed run is the one asked for: the run directory holds `preset`'s run, and `--seed`, if
/// given, is the run's own.
pub fn check_resumable(run_dir: &Path, held: (&str, u64), preset: &str, seed: Option<u64>) -> Result<(), String> {
    if held.0 != preset {
        return Err(format!("{} holds a {} run, not {preset}", run_dir.display(), held.0));
    }
    match seed.filter(|&s| s != held.1) {
        Some(s) => Err(format!("--seed {s}: this run was seeded with {}; a resumed run keeps its seed", held.1)),
        None => Ok(()),
    }
}

/// What the JEPA and grammar loops take from `train`'s command line besides their preset.
pub struct RunFlags {
    /// Optimiser steps (default: the preset's; on --resume, the run's own).
    pub steps: Option<usize>,
    pub seed: Option<u64>,
    pub run_dir: std::path::PathBuf,
    pub resume: bool,
    pub eval_every: usize,
    pub eval_inputs: usize,
    pub checkpoint_every: usize,
    pub log_every: usize,
    pub stop_after: Option<usize>,
    pub command: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::training::course::NOISE;

    #[test]
    fn step_streams_are_pure_and_distinct() {
        let draw = |seed, step, stream| step_rng(seed, step, stream).normals(4);
        assert_eq!(draw(0, 7, DATA), draw(0, 7, DATA));
        assert_ne!(draw(0, 7, DATA), draw(0, 8, DATA));
        assert_ne!(draw(0, 7, DATA), draw(0, 7, NOISE));
        assert_ne!(draw(0, 7, DATA), draw(1, 7, DATA));
        assert_ne!(draw(0, 7, TREES), draw(0, 7, TREES + 1));
    }

    #[test]
    fn schedule_warms_up_then_decays_to_a_tenth() {
        assert_eq!(warmup_cosine_lr(1.0, 10, 0, 100), 0.1);
        assert_eq!(warmup_cosine_lr(1.0, 10, 10, 100), 1.0);
        assert!((warmup_cosine_lr(1.0, 10, 100, 100) - 0.1).abs() < 1e-12);
    }
}
