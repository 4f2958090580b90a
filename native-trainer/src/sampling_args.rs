//! How `eval` and `solve` sample: their shared flags, and the plan they make of them (the
//! sampler's options and the verified stop's restarts) with a task's defaults for what is left out.

use clap::{Args, ValueEnum};
use engine::gram::SampleOptions;
use engine::gram::sample::Decoding;
use engine::solve::{Copies, Restarts};
use engine::tasks::InferenceDefaults;

/// How `eval` and `solve` sample: one set of flags, one meaning. A flag left out takes
/// `eval`'s defaults (the GRAM paper's sampler: N 20, 8 steps, scale 1, no verified stop) or, for
/// `solve`, the task's (`TokenTask::inference_defaults`, the same as its page's).
#[derive(Args)]
pub struct SamplingArgs {
    /// Trajectories per puzzle (N). Default 20.
    #[arg(long)]
    pub samples: Option<usize>,
    /// Supervision-step budget. Default 8 (N_sup of the presets).
    #[arg(long)]
    pub steps: Option<usize>,
    /// Noise scale: 0 = mean path, 1 = learned prior, > 1 amplified. Default 1 (`solve
    /// --task sudoku`: 0.5; `solve --task coloring10`: 1.5).
    #[arg(long)]
    pub guidance_scale: Option<f64>,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Let the halting Q-head freeze trajectories early (off by default: measured, it halts
    /// too early; see docs/results/nqueens.md).
    #[arg(long)]
    pub halt: bool,
    /// Fraction of the step budget, at its end, run without noise (the mean path): 0.25 of 8
    /// steps = the last 2. Default: the task's (0.25 for N-Queens, its boards from nothing and
    /// 10-vertex colouring, 0 for Sudoku and 8-vertex colouring; see docs/results/nqueens.md,
    /// docs/results/coloring.md, docs/results/generation.md).
    #[arg(long)]
    pub settle: Option<f64>,
    /// How an answer is read from the logits: `greedy` (argmax, the default) or `sample` (drawn
    /// from each position's softmax: the GRAM paper's "TRM w/ stochastic decoding" ablation).
    #[arg(long, value_enum, default_value_t = DecodingArg::Greedy)]
    pub decoding: DecodingArg,
    /// Check every sample against the task's rules after each supervision step and stop a
    /// puzzle's run at the first step where one passes, answering with it (not the paper's
    /// sampler, which votes after the whole budget; docs/results/sudoku.md). `solve --task
    /// sudoku` does this by default.
    #[arg(long, conflicts_with = "no_verified_stop")]
    pub verified_stop: bool,
    /// Run the paper's sampler (the whole budget, then the selection) where the task's default
    /// is the verified stop (`solve --task sudoku`).
    #[arg(long)]
    pub no_verified_stop: bool,
    /// With --verified-stop: when a whole step budget ends with no sample verified, restart all
    /// N trajectories with fresh noise, up to this many times. Default: the task's (`solve
    /// --task sudoku`: `engine::tasks::sudoku::INFERENCE`; the /sudoku page goes on until one
    /// verifies), else 0.
    #[arg(long)]
    pub restarts: Option<usize>,
    /// What the samples solve where the task makes answer-preserving copies of the puzzle
    /// (Sudoku: digits relabelled, rows, columns, bands and stacks shuffled, transposed;
    /// colouring: the vertices relabelled; every answer read back into the puzzle's frame):
    /// `none` (the puzzle as given; restarts with fresh noise only), `restarts` (with
    /// --verified-stop: one fresh copy per restart, all N samples on it) or `samples` (a copy
    /// per sample, in every round; the first sample solves the puzzle as given). Without
    /// --verified-stop only `samples`, and only when asked: the paper's sampler with each of the
    /// N samples on its own copy, so even TRM's N answers differ. Default: the task's, for
    /// verified runs.
    #[arg(long, value_enum, conflicts_with_all = ["restart_copies", "no_restart_copies"])]
    pub copies: Option<CopiesArg>,
    /// Shorthand for `--copies restarts`.
    #[arg(long, conflicts_with = "no_restart_copies")]
    pub restart_copies: bool,
    /// Shorthand for `--copies none`.
    #[arg(long)]
    pub no_restart_copies: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CopiesArg {
    None,
    Restarts,
    Samples,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DecodingArg {
    Greedy,
    Sample,
}

impl SamplingArgs {
    /// The options and the verified stop's restarts (`None` for the plain run), from the flags
    /// given and `defaults` for those left out; no settle (the caller applies the task's).
    pub fn plan(&self, defaults: &InferenceDefaults) -> Result<(SampleOptions, Option<Restarts>), String> {
        let options = SampleOptions {
            samples: self.samples.unwrap_or(defaults.samples),
            guidance_scale: self.guidance_scale.unwrap_or(defaults.guidance_scale),
            max_steps: self.steps.unwrap_or(defaults.steps),
            halting: self.halt,
            seed: self.seed,
            settle: 0.0,
            decoding: match self.decoding {
                DecodingArg::Greedy => Decoding::Greedy,
                DecodingArg::Sample => Decoding::Sample,
            },
            // `--latent-noise` is its command's own flag (its meaning depends on the weights).
            latent_noise: 0.0,
            // The CLI runs every sample itself.
            first_row: 0,
        };
        let stop = self.stops(defaults);
        let asked = match (self.copies, self.restart_copies, self.no_restart_copies) {
            (Some(CopiesArg::None), ..) | (None, false, true) => Some(Copies::None),
            (Some(CopiesArg::Restarts), ..) | (None, true, _) => Some(Copies::Restarts),
            (Some(CopiesArg::Samples), ..) => Some(Copies::Samples),
            (None, false, false) => None,
        };
        let copies = asked.unwrap_or(defaults.copies);
        let rounds = match (stop, self.restarts) {
            (false, None | Some(0)) if asked != Some(Copies::Restarts) => None,
            (false, _) => {
                return Err(
                    "--restarts and --copies restarts need --verified-stop (a restart follows a budget with nothing verified)".into()
                );
            }
            (true, r) => match r.unwrap_or(defaults.restarts) {
                r if r > 64 => return Err(format!("--restarts must be at most 64, not {r}")),
                r => Some(Restarts { rounds: 1 + r, copies }),
            },
        };
        Ok((options, rounds))
    }

    /// `--copies samples` without the verified stop: the paper's sampler (the whole budget),
    /// each sample on its own copy of the puzzle (`engine::solve::solve_on_copies`). The task's
    /// default copies apply to its verified runs only.
    pub fn copies_without_stop(&self, defaults: &InferenceDefaults) -> bool {
        !self.stops(defaults) && self.copies == Some(CopiesArg::Samples)
    }

    /// Whether the run has the verified stop: asked for, or the task's default and not refused.
    fn stops(&self, defaults: &InferenceDefaults) -> bool {
        self.verified_stop || (defaults.verified_stop && !self.no_verified_stop)
    }
}

/// The error for `--copies samples` on a task that makes no copies of its inputs.
pub fn no_copies(task_id: &str) -> String {
    format!("{task_id} makes no copies of its inputs: --copies samples needs {}", engine::tasks::copy_maker::restarting())
}
