//! How a run samples when its user says nothing: per task, the same on the page and in
//! `native-trainer solve`, so a visitor and a script get one answer for one puzzle.

use crate::tasks::Copies;

/// The sampling settings a task's runs start from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InferenceDefaults {
    /// Trajectories per puzzle (N).
    pub samples: usize,
    /// Supervision-step budget.
    pub steps: usize,
    /// Noise scale: 1 = the learned prior.
    pub guidance_scale: f64,
    /// Stop at the first step where a sample passes the task's rules (not the paper's sampler).
    pub verified_stop: bool,
    /// With the verified stop: when a whole budget ends with nothing verified, start all N
    /// trajectories again with fresh noise, up to this many times (`solve_verified`'s rounds
    /// minus one). A run that verifies early never pays for them.
    pub restarts: usize,
    /// With the verified stop: what the rounds solve where the task makes answer-preserving
    /// copies of the puzzle ([`crate::tasks::InputCopy`]): the puzzle as given, a copy per
    /// restart, or a copy per sample.
    pub copies: Copies,
}

impl InferenceDefaults {
    /// The GRAM paper's sampler as the presets train it: N = 20 trajectories, the whole budget of 8
    /// supervision steps, the learned prior, then the task's selection.
    pub const PAPER: InferenceDefaults =
        InferenceDefaults { samples: 20, steps: 8, guidance_scale: 1.0, verified_stop: false, restarts: 0, copies: Copies::None };
}
