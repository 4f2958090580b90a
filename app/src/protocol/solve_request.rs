//! The page's request for one GRAM (or TRM) run, and its one builder: every caller (a Solve, the
//! recorded run shown while the model loads, the tests) names the run, the weights, the puzzle
//! and how to sample ([`Knobs`]); a run starts alone on one worker, unchanged, reporting every
//! step, and the worker pool splits it afterwards (`lane`, `share`).

use engine::solve::Copies;
use serde::{Deserialize, Serialize};

use super::{Intervention, Lane, Share};

/// A run request: one puzzle, N trajectories.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct SolveRequest {
    /// Run id chosen by the page; a newer run cancels an older one.
    pub run: u64,
    /// Weights name, e.g. `gram-nqueens8`.
    pub model: String,
    /// Puzzle text: N-Queens `.` empty / `Q` queen, row-major; Sudoku `.` blank / `1`-`9`;
    /// graph colouring the upper triangle of the adjacency matrix, `0`/`1` per vertex pair.
    pub puzzle: String,
    pub samples: usize,
    pub guidance_scale: f64,
    pub seed: u64,
    pub steps: usize,
    /// The verified stop: end the run at the first step where a sample passes the rules.
    #[serde(default)]
    pub verified_stop: bool,
    /// With the verified stop: after a whole budget with nothing verified, run all N again with
    /// fresh noise (the engine's `round_seed`), up to this many times.
    #[serde(default)]
    pub restarts: usize,
    /// With the verified stop: what the rounds solve, the puzzle as given or answer-preserving
    /// copies of it, read back into the puzzle's frame (the engine's `RunSpec::copies`).
    #[serde(default)]
    pub copies: Copies,
    /// What the visitor did to the running trajectories, by step: the worker replays the run
    /// (same seed, same numbers) and applies each before the step it names.
    #[serde(default)]
    pub interventions: Vec<Intervention>,
    /// Report steps from this one on (1-based, counted over restarts): a replayed run's earlier
    /// steps are already on the page.
    #[serde(default)]
    pub report_from: usize,
    /// PTRM's test-time noise: sigma of the Gaussian added to the reasoning latent before every
    /// supervision step (0: none, the paper's sampler as it was).
    #[serde(default)]
    pub latent_noise: f64,
    /// Which restart rounds this worker takes when several share the run (the engine's `Lane`;
    /// default: all of them, one worker).
    #[serde(default)]
    pub lane: Lane,
    /// Which of the samples this worker runs when several split them (the engine's `Share`;
    /// default: all of them, one worker).
    #[serde(default)]
    pub share: Share,
}

/// How a run samples: the page's sampling knobs, or a recorded run's.
#[derive(Clone, Debug, PartialEq)]
pub struct Knobs {
    pub samples: usize,
    pub guidance_scale: f64,
    pub seed: u64,
    pub steps: usize,
    pub verified_stop: bool,
    /// Restart rounds after a budget with nothing verified (with the verified stop only).
    pub restarts: usize,
    pub copies: Copies,
    pub latent_noise: f64,
}

impl Knobs {
    /// N samples of the paper's sampler: guidance scale 1, seed 0, `steps` supervision steps,
    /// no stop, no copies, no latent noise.
    pub fn paper(samples: usize, steps: usize) -> Self {
        Self { samples, guidance_scale: 1.0, seed: 0, steps, verified_stop: false, restarts: 0, copies: Copies::None, latent_noise: 0.0 }
    }
}

impl SolveRequest {
    /// Run `run` of `model` on `puzzle`, sampled by `knobs`: alone on one worker, unchanged by
    /// the visitor so far, every step reported. Restarts count only with the verified stop.
    pub fn new(run: u64, model: impl Into<String>, puzzle: impl Into<String>, knobs: Knobs) -> Self {
        let Knobs { samples, guidance_scale, seed, steps, verified_stop, restarts, copies, latent_noise } = knobs;
        Self {
            run,
            model: model.into(),
            puzzle: puzzle.into(),
            samples,
            guidance_scale,
            seed,
            steps,
            verified_stop,
            restarts: if verified_stop { restarts } else { 0 },
            copies,
            interventions: Vec::new(),
            report_from: 0,
            latent_noise,
            lane: Lane::ALONE,
            share: Share::ALL,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_request_runs_alone_and_restarts_only_with_the_stop() {
        let knobs = Knobs { seed: 2, restarts: 3, ..Knobs::paper(4, 8) };
        let r = SolveRequest::new(5, "gram-nqueens8", ".".repeat(64), knobs.clone());
        assert_eq!((r.run, r.samples, r.restarts, r.lane, r.share, r.report_from), (5, 4, 0, Lane::ALONE, Share::ALL, 0));
        let r = SolveRequest::new(5, "gram-nqueens8", ".".repeat(64), Knobs { verified_stop: true, ..knobs });
        assert_eq!(r.restarts, 3);
        assert_eq!(super::super::Request::Solve(r).run(), Some(5));
    }
}
