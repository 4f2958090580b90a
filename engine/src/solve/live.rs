//! One puzzle's run as the browser shows it, step by step: N trajectories (one when they would
//! all be the same), the verified stop with restarts, and the visitor's changes mid-run (a new
//! guidance scale, a burst of noise on one sample), each step read as the page's [`StepView`].
//! The worker drives it asynchronously (WebGPU) and `native-trainer record` synchronously, so a
//! recorded run is exactly what the page would have computed.

use std::ops::Range;

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::error::SolveError;
use super::lane::Lane;
use super::share::Share;
use super::step_answers::StepTask;
use super::{Copies, Restarts, RoundInput, VerifiedAt, round_seed, rounds_to_run, trajectories_to_run};
use crate::gram::{Gram, Observation, SampleOptions, Trajectories};

/// A change to running trajectories before supervision step `step` (1-based, counted over
/// restarts, as the page numbers its steps).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub enum Intervention {
    /// The guidance scale from `step` on.
    Scale { step: usize, scale: f64 },
    /// A burst of latent noise (sigma relative to the RMS-1 state) on one sample before `step`.
    Perturb { step: usize, sample: usize, sigma: f64 },
}

impl Intervention {
    pub fn step(self) -> usize {
        match self {
            Self::Scale { step, .. } | Self::Perturb { step, .. } => step,
        }
    }
}

/// One supervision step of every sample, as the page reads it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct StepView {
    /// 0-based round (restart) the step belongs to.
    pub round: usize,
    /// 1-based supervision step within its round.
    pub step: usize,
    /// Each sample's answer as puzzle text.
    pub boards: Vec<String>,
    /// Per sample, what the page shades its answer with, in the task's order
    /// ([`crate::tasks::TokenTask::shading`]: N-Queens P(queen) per cell, Sudoku P(digit 1..9)
    /// per cell, colouring P(colour 0..3) per vertex, digits P(white) per pixel).
    pub probs: Vec<Vec<f32>>,
    /// LPRM value per sample.
    pub values: Vec<f32>,
    /// The guidance scale this step ran with.
    pub scale: f64,
    /// Per sample, a sketch of its high-level state h ([`LATENT_SKETCH`] numbers): the latent map's input.
    #[serde(default)]
    pub latents: Vec<Vec<f32>>,
    /// Per sample, the Q-head's halting logit: PTRM's best-Q pick is the highest at the step.
    #[serde(default)]
    pub halt_logits: Vec<f32>,
}

/// One projection for every run, so maps of two runs are drawn from the same sketch.
const SKETCH_SEED: u64 = 0x5eed;

/// Dimensions of the h sketch a step carries (`Trajectories::with_latent_sketch`).
pub const LATENT_SKETCH: usize = 32;

/// What a run is asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSpec {
    /// N, guidance scale, step budget, seed (`samples` is what the page shows).
    pub options: SampleOptions,
    /// End at the first step where a sample passes the rules.
    pub verified_stop: bool,
    /// With the stop: whole budgets run again with fresh noise when nothing passes
    /// (`usize::MAX`: until a sample passes or the caller stops asking for steps).
    pub restarts: usize,
    /// What the rounds solve where the task makes answer-preserving copies of the puzzle (a copy
    /// per restart, or per sample; shown in the puzzle's own frame).
    pub copies: Copies,
    pub interventions: Vec<Intervention>,
    /// Which of the rounds this run takes when parallel runs share them ([`Lane::ALONE`]: all).
    pub lane: Lane,
    /// Which of the samples this run takes when parallel runs split them ([`Share::ALL`]: all).
    pub share: Share,
}

/// A run in progress.
pub struct LiveRun<'m> {
    model: &'m Gram,
    task: &'m dyn StepTask,
    tokens: Vec<u32>,
    spec: RunSpec,
    /// Trajectories the whole run runs (1 for a deterministic run left as it is).
    run: SampleOptions,
    /// This share's rows of `run` (all of a deterministic run's one row, which every share runs).
    rows: Range<usize>,
    /// This share's samples of the N the page shows.
    shown: Range<usize>,
    rounds: usize,
    round: usize,
    /// What this round solves (the puzzle as given, or copies).
    input: RoundInput,
    trajectories: Trajectories<'m>,
    device: Device,
    scale: f64,
    /// Steps taken over every round.
    steps: usize,
    verified: Option<VerifiedAt>,
}

impl<'m> LiveRun<'m> {
    /// Reads `puzzle` as `task` says; a malformed puzzle is a sentence, and so is a lane other
    /// than 0 on a run the visitor changed (its steps are numbered over the rounds lane 0 runs).
    pub fn new(model: &'m Gram, task: &'m dyn StepTask, puzzle: &str, spec: RunSpec, device: &Device) -> Result<Self, SolveError> {
        let tokens = task.tokens(puzzle)?;
        let lane = Lane::new(spec.lane.index, spec.lane.lanes)?;
        let share = Share::new(spec.share.index, spec.share.shares)?;
        if lane.index > 0 && !(spec.verified_stop && spec.interventions.is_empty()) {
            return Err(SolveError::LaneOfChangedRun);
        }
        // Not once the visitor changed the run (a raised scale or a perturbed sample makes the N
        // differ), nor with a copy per sample and no stop (each of the N sees its own input, as
        // `solve_on_copies` runs them).
        let run = if spec.interventions.is_empty() && !copies_per_row(&spec) {
            trajectories_to_run(model, &spec.options)
        } else {
            spec.options.clone()
        };
        let restarts = Restarts { rounds: spec.restarts.saturating_add(1), copies: spec.copies };
        let rounds = if spec.verified_stop { rounds_to_run(model, &spec.options, restarts) } else { 1 };
        let rows = if run.samples == 1 { 0..1 } else { share.range(run.samples) };
        let shown = share.range(spec.options.samples);
        if rows.is_empty() || shown.is_empty() {
            return Err(SolveError::EmptyShare { index: share.index, shares: share.shares, samples: spec.options.samples });
        }
        let round = lane.first_round();
        let (input, trajectories) = round_start(model, task, &tokens, &spec, &run, &rows, round, device);
        let scale = spec.options.guidance_scale;
        Ok(Self {
            model,
            task,
            tokens,
            spec,
            run,
            rows,
            shown,
            rounds,
            round,
            input,
            trajectories,
            device: device.clone(),
            scale,
            steps: 0,
            verified: None,
        })
    }

    /// The budget of every round of this lane is spent, or a sample verified.
    pub fn is_done(&self) -> bool {
        self.verified.is_some()
            || self.round >= self.rounds
            || (self.trajectories.is_done() && self.spec.lane.next_round(self.round) >= self.rounds)
    }

    /// Steps taken so far, over every round.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Where the verified stop found a sample that passes the rules.
    pub fn verified(&self) -> Option<VerifiedAt> {
        self.verified
    }

    /// The next step, computed on the CPU (native: `native-trainer record`).
    pub fn step(&mut self) -> StepView {
        self.before_step();
        let obs = self.trajectories.step().clone();
        self.after_step(&self.back(obs))
    }

    /// The next step with an asynchronous read-back (WebGPU in a browser).
    pub async fn step_async(&mut self) -> Result<StepView, SolveError> {
        self.before_step();
        let obs = self.trajectories.step_async().await?.clone();
        Ok(self.after_step(&self.back(obs)))
    }

    /// A step in the puzzle's own frame (copies read back).
    fn back(&self, obs: Observation) -> Observation {
        self.input.back(obs)
    }

    /// A new round when the last one is spent (all N from z0 with the round's noise, on the
    /// round's copy when there is one), then the visitor's changes due at this step.
    fn before_step(&mut self) {
        if self.trajectories.is_done() {
            self.round = self.spec.lane.next_round(self.round);
            (self.input, self.trajectories) =
                round_start(self.model, self.task, &self.tokens, &self.spec, &self.run, &self.rows, self.round, &self.device);
            self.scale = self.spec.options.guidance_scale;
        }
        let next = self.steps + 1;
        let last = self.run.samples - 1;
        for change in self.spec.interventions.iter().filter(|i| i.step() <= next) {
            match *change {
                // Every change up to now again, so a new round takes the newest scale.
                Intervention::Scale { scale, .. } => {
                    self.scale = scale;
                    self.trajectories.set_guidance_scale(scale);
                }
                Intervention::Perturb { step, sample, sigma } if step == next => {
                    // Only the share that runs the sample perturbs it.
                    if let Some(row) = self.local_row(sample.min(last)) {
                        self.trajectories.perturb(row, sigma, round_seed(self.spec.options.seed ^ 0x9e37_79b9, step))
                    }
                }
                Intervention::Perturb { .. } => {}
            }
        }
    }

    /// Where the run's row `row` is in this share's trajectories (`None`: another share's).
    fn local_row(&self, row: usize) -> Option<usize> {
        match self.run.samples {
            1 => Some(0),
            _ => self.rows.contains(&row).then(|| row - self.rows.start),
        }
    }

    /// The step as the page reads it: this share's samples (all N of a run not split).
    fn after_step(&mut self, obs: &Observation) -> StepView {
        self.steps += 1;
        let take = |s: usize| self.local_row(s.min(self.run.samples - 1)).expect("a shown sample is a row of this share");
        let shown = self.shown.clone();
        let n = shown.len();
        let mut view = StepView {
            round: self.round,
            step: obs.step,
            boards: Vec::with_capacity(n),
            probs: Vec::with_capacity(n),
            values: shown.clone().map(|s| obs.values[take(s)]).collect(),
            scale: self.scale,
            latents: shown.clone().map(|s| obs.latents[take(s)].clone()).collect(),
            halt_logits: shown.clone().map(|s| obs.halt_logits[take(s)]).collect(),
        };
        for s in shown {
            let a = self.task.answer(obs, take(s));
            view.boards.push(a.text);
            view.probs.push(a.probs);
        }
        if self.spec.verified_stop {
            let row = (0..self.rows.len()).find(|&r| self.task.is_right(&self.tokens, &obs.predictions[r]));
            // The run's sample number: a deterministic run's one row is sample 0.
            let sample = row.map(|r| if self.run.samples == 1 { 0 } else { self.rows.start + r });
            self.verified = sample.map(|sample| VerifiedAt { round: self.round, step: obs.step, sample });
        }
        view
    }
}

/// A copy per sample without the verified stop: the paper's sampler with every sample on its
/// own copy, so a deterministic model runs all N rows too (`super::solve_on_copies`). With the
/// stop, the copies follow the distinct trajectories, as `solve_verified`'s do.
fn copies_per_row(spec: &RunSpec) -> bool {
    spec.copies == Copies::Samples && !spec.verified_stop
}

/// Round `round`'s start: what it solves (the puzzle as given, or copies) and this share's
/// `rows` of the N trajectories from z0 with the round's noise (round 0: the options' own seed).
// One round's whole description; the run's own fields, passed apart so a round can start while
// the run is built.
#[allow(clippy::too_many_arguments)]
fn round_start<'m>(
    model: &'m Gram,
    task: &dyn StepTask,
    tokens: &[u32],
    spec: &RunSpec,
    run: &SampleOptions,
    rows: &Range<usize>,
    round: usize,
    device: &Device,
) -> (RoundInput, Trajectories<'m>) {
    let options = SampleOptions { seed: round_seed(spec.options.seed, round), samples: rows.len(), first_row: rows.start, ..run.clone() };
    // The copies follow the distinct trajectories (`trajectories_to_run`), not the rows run: a
    // deterministic run's N are one, so its copy is shared, and a run the visitor changed (N
    // rows from then on) replays the steps the page showed before the change.
    let distinct = if copies_per_row(spec) { spec.options.samples } else { trajectories_to_run(model, &spec.options).samples };
    let input = RoundInput::new(spec.options.seed, round, spec.copies, distinct, |rng| task.restart_copy(tokens, rng)).rows(rows);
    let trajectories = input.trajectories(model, tokens, options, device).with_latent_sketch(LATENT_SKETCH, SKETCH_SEED);
    (input, trajectories)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::step_answers::step_task;
    use crate::tasks::sudoku::Difficulty;
    use crate::test_support::shipped_gram;

    use crate::tasks::TaskId;

    /// (round, step, boards) of each step.
    type Steps = Vec<(usize, usize, Vec<String>)>;

    /// Every step of a lane's run, as (round, step, boards), and where it verified.
    fn steps_of(model: &Gram, task: &dyn StepTask, puzzle: &str, lane: Lane) -> (Steps, Option<VerifiedAt>) {
        let options = SampleOptions { samples: 3, max_steps: 2, seed: 4, settle: task.settle(), ..SampleOptions::default() };
        let spec = RunSpec {
            options,
            verified_stop: true,
            restarts: 7,
            copies: Copies::Samples,
            interventions: Vec::new(),
            lane,
            share: Share::ALL,
        };
        let mut run = LiveRun::new(model, task, puzzle, spec, &Device::flex()).unwrap();
        let mut steps = Vec::new();
        while !run.is_done() {
            let v = run.step();
            steps.push((v.round, v.step, v.boards));
        }
        (steps, run.verified())
    }

    /// Lanes run the very rounds a single run runs (same noise, same copy, same boards), each
    /// round once, and the earliest round any lane verifies in is where the single run verifies.
    #[test]
    fn lanes_share_a_runs_rounds_and_verify_where_it_does() {
        let model = shipped_gram("gram-sudoku", &Device::flex());
        let task = step_task(TaskId::Sudoku).unwrap();
        let mut checked = 0;
        for seed in [3, 8, 13] {
            let puzzle = Difficulty::Expert.generate(seed).puzzle.to_text();
            let (alone, verified) = steps_of(&model, &*task, &puzzle, Lane::ALONE);
            for lanes in [2, 3] {
                let runs: Vec<_> = (0..lanes).map(|i| steps_of(&model, &*task, &puzzle, Lane::new(i, lanes).unwrap())).collect();
                for (steps, _) in &runs {
                    for s in steps.iter().filter(|s| alone.iter().any(|a| a.0 == s.0)) {
                        assert!(alone.contains(s), "lane step {:?} {:?} is not the single run's", s.0, s.1);
                        checked += 1;
                    }
                }
                let first = runs.iter().filter_map(|(_, v)| *v).min_by_key(|v| v.round);
                assert_eq!(first, verified, "{lanes} lanes, puzzle {seed}");
                let mut rounds: Vec<usize> = runs.iter().flat_map(|(s, _)| s.iter().map(|s| s.0)).collect();
                rounds.dedup();
                let before = rounds.len();
                rounds.sort_unstable();
                rounds.dedup();
                assert_eq!(rounds.len(), before, "no round runs twice");
            }
        }
        assert!(checked > 20, "the lanes ran rounds the single run ran too ({checked} steps)");
        // A lane other than 0 refuses a run the visitor changed.
        let puzzle = Difficulty::Expert.generate(3).puzzle.to_text();
        let spec = RunSpec {
            options: SampleOptions::default(),
            verified_stop: true,
            restarts: 3,
            copies: Copies::Restarts,
            interventions: vec![Intervention::Scale { step: 2, scale: 2.0 }],
            lane: Lane::new(1, 2).unwrap(),
            share: Share::ALL,
        };
        assert_eq!(LiveRun::new(&model, &*task, &puzzle, spec, &Device::flex()).err(), Some(SolveError::LaneOfChangedRun));
    }

    /// A deterministic model (TRM) shares a round's copy among its N samples even when copies
    /// per sample are asked for, so a run the visitor changed replays the steps shown before
    /// the change (those came from one trajectory repeated N times).
    #[test]
    fn a_changed_trm_run_replays_the_steps_shown_before_the_change() {
        let model = shipped_gram("trm-sudoku", &Device::flex());
        let task = step_task(TaskId::Sudoku).unwrap();
        let puzzle = Difficulty::Expert.generate(9).puzzle.to_text();
        let run = |interventions: Vec<Intervention>| {
            let options = SampleOptions { samples: 3, max_steps: 2, seed: 1, settle: task.settle(), ..SampleOptions::default() };
            let spec = RunSpec {
                options,
                verified_stop: true,
                restarts: 3,
                copies: Copies::Samples,
                interventions,
                lane: Lane::ALONE,
                share: Share::ALL,
            };
            let mut live = LiveRun::new(&model, &*task, &puzzle, spec, &Device::flex()).unwrap();
            let mut boards = Vec::new();
            while !live.is_done() {
                boards.push(live.step().boards);
            }
            boards
        };
        let plain = run(Vec::new());
        let changed = run(vec![Intervention::Perturb { step: 6, sample: 0, sigma: 1.0 }]);
        let shown = plain.len().min(changed.len()).min(5);
        assert!(shown >= 3, "the runs reach a restart ({} and {} steps)", plain.len(), changed.len());
        assert_eq!(plain[..shown], changed[..shown], "steps before the change, restarts on copies included");
    }

    /// A copy per sample without the stop (the `/coloring` page's copies): TRM runs all N rows,
    /// one per copy, and every step the page shows is the one `solve_on_copies` (the CLI's
    /// `--copies samples`) computes.
    #[test]
    fn copies_without_the_stop_are_the_clis_run_on_copies() {
        use crate::tasks::coloring::Coloring;
        use crate::tasks::{Part, Task};
        let device = Device::flex();
        let task = step_task(TaskId::Coloring(8)).unwrap();
        let coloring = Coloring::new(8);
        for name in ["trm-coloring8", "gram-coloring8"] {
            let model = shipped_gram(name, &device);
            let graph = &coloring.instances(Part::Validation)[5].graph;
            let options = SampleOptions { samples: 6, max_steps: 3, seed: 2, settle: task.settle(), ..SampleOptions::default() };
            let spec = RunSpec {
                options: options.clone(),
                verified_stop: false,
                restarts: 0,
                copies: Copies::Samples,
                interventions: Vec::new(),
                lane: Lane::ALONE,
                share: Share::ALL,
            };
            let mut live = LiveRun::new(&model, &*task, &coloring.puzzle_text(graph), spec, &device).unwrap();
            let mut shown = Vec::new();
            while !live.is_done() {
                shown.push(live.step().boards);
            }
            let cli = crate::solve::solve_on_copies(&coloring, &model, graph, &options, crate::gram::Selection::Vote, &device).unwrap();
            let want: Vec<Vec<String>> = cli.samples_by_step.iter().map(|a| a.iter().map(|c| coloring.answer_text(c)).collect()).collect();
            assert_eq!(shown, want, "{name}");
        }
    }
}
