//! Solving and scoring any [`TokenTask`] with a GRAM/TRM model: the one path the CLI's `solve`
//! and `eval`, the trainer's quick evaluations and the browser share. Puzzles are batched
//! (`chunk` puzzles x N samples per forward).

mod copied;
pub mod error;
mod evaluate;
pub mod lane;
pub mod live;
pub mod recorded;
mod round_input;
mod round_log;
pub mod share;
#[cfg(test)]
mod share_tests;
pub mod step_answers;
mod verified;

use burn::tensor::Device;

pub use crate::tasks::Copies;
pub use copied::solve_on_copies;
pub use error::SolveError;
pub use evaluate::{SelectedTally, VerifiedStats, VerifiedTally, evaluate, evaluate_on_copies, evaluate_selected, evaluate_verified};
pub use round_input::RoundInput;
pub use verified::{Restarts, VerifiedAt, VerifiedRun, round_seed, rounds_to_run, solve_verified};

use crate::gram::{Gram, Observation, SampleOptions, Selection, Trajectories, majority_vote};
use crate::tasks::{Solved, TokenTask};

/// The options actually sampled for `options`: a deterministic run (TRM, or GRAM at guidance
/// scale 0, greedy decoding from the fixed z0, no PTRM latent noise) gives N identical trajectories, so one is run
/// (`samples: 1`) and its answer stands for all N. Every caller that runs trajectories (CLI,
/// browser worker) decides this here.
pub fn trajectories_to_run(model: &Gram, options: &SampleOptions) -> SampleOptions {
    let deterministic = !Trajectories::is_stochastic(model, options);
    SampleOptions { samples: if deterministic { 1 } else { options.samples }, ..options.clone() }
}

/// For each puzzle of a batch after one supervision step: the vote's answer and every sample's.
fn answers_at<T: TokenTask>(task: &T, obs: &Observation, puzzles: usize, samples: usize) -> Vec<(T::Answer, Vec<T::Answer>)> {
    (0..puzzles)
        .map(|p| {
            let preds = &obs.predictions[p * samples..(p + 1) * samples];
            (task.answer_from_prediction(&preds[majority_vote(preds)]), preds.iter().map(|t| task.answer_from_prediction(t)).collect())
        })
        .collect()
}

/// Samples every puzzle, `chunk` puzzles per batch. Each chunk restarts the noise from
/// `options.seed`, so a puzzle's samples depend only on the seed and its position in its chunk;
/// with `chunk = 1` they depend on the seed alone.
///
/// A deterministic model (TRM, or GRAM at guidance scale 0) gives N identical trajectories, so
/// it is run once per puzzle and its answer repeated N times: same output, 1/N of the work.
pub fn solve<T: TokenTask>(
    task: &T,
    model: &Gram,
    puzzles: &[T::Puzzle],
    options: &SampleOptions,
    select: Selection,
    chunk: usize,
    device: &Device,
) -> Vec<Solved<T::Answer>> {
    let run = trajectories_to_run(model, options);
    let n = run.samples;
    let mut out = Vec::with_capacity(puzzles.len());
    for group in puzzles.chunks(chunk.max(1)) {
        let tokens: Vec<Vec<u32>> = group.iter().map(|p| task.tokens(p)).collect();
        // Per puzzle: the vote of each step, and every sample's answer at each step.
        type StepAnswers<A> = (Vec<A>, Vec<Vec<A>>);
        let mut by_step: Vec<StepAnswers<T::Answer>> = vec![(Vec::new(), Vec::new()); group.len()];
        let obs = Trajectories::new(model, &tokens, run.clone(), device).run(|o| {
            for ((votes, all), (vote, answers)) in by_step.iter_mut().zip(answers_at(task, o, group.len(), n)) {
                votes.push(vote);
                all.push(answers);
            }
        });
        for (p, (vote_by_step, mut samples_by_step)) in by_step.into_iter().enumerate() {
            let preds = &obs.predictions[p * n..(p + 1) * n];
            let mut solved = Solved {
                // The run's last observation is its last step's: those answers are made already.
                samples: samples_by_step.last().cloned().unwrap_or_default(),
                values: obs.values[p * n..(p + 1) * n].to_vec(),
                halt_logits: obs.halt_logits[p * n..(p + 1) * n].to_vec(),
                selected: select.pick(preds, &obs.values[p * n..(p + 1) * n], &obs.halt_logits[p * n..(p + 1) * n]),
                vote_by_step,
                samples_by_step: Vec::new(),
                steps: obs.step,
            };
            if n < options.samples {
                for answers in samples_by_step.iter_mut() {
                    *answers = vec![answers[0].clone(); options.samples];
                }
                solved.samples = vec![solved.samples[0].clone(); options.samples];
                solved.values = vec![solved.values[0]; options.samples];
                solved.halt_logits = vec![solved.halt_logits[0]; options.samples];
                solved.selected = 0;
            }
            solved.samples_by_step = samples_by_step;
            out.push(solved);
        }
    }
    out
}
