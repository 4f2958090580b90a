//! One round's answers step by step, read in the puzzle's frame: what [`super::solve_on_copies`]
//! and [`super::solve_verified`] both keep while their trajectories run, and the [`Solved`]
//! record they build from it when the round ends.

use crate::gram::{Observation, majority_vote};
use crate::tasks::{Solved, TokenTask};

/// Every sample's answer and the vote, per supervision step, and the newest step's LPRM values
/// and halting logits.
pub(super) struct RoundLog<A> {
    vote_by_step: Vec<A>,
    samples_by_step: Vec<Vec<A>>,
    values: Vec<f32>,
    halt_logits: Vec<f32>,
    step: usize,
}

impl<A: Clone> RoundLog<A> {
    pub(super) fn new() -> Self {
        Self { vote_by_step: Vec::new(), samples_by_step: Vec::new(), values: Vec::new(), halt_logits: Vec::new(), step: 0 }
    }

    /// Logs the step `obs` (already in the puzzle's frame) and returns its answers, one per sample.
    pub(super) fn push<T: TokenTask<Answer = A>>(&mut self, task: &T, obs: &Observation) -> &[A] {
        let answers: Vec<A> = obs.predictions.iter().map(|p| task.answer_from_prediction(p)).collect();
        self.vote_by_step.push(answers[majority_vote(&obs.predictions)].clone());
        self.samples_by_step.push(answers);
        (self.values, self.halt_logits, self.step) = (obs.values.clone(), obs.halt_logits.clone(), obs.step);
        self.samples_by_step.last().expect("just pushed")
    }

    /// The round's record, answering with sample `selected` of the newest step.
    pub(super) fn solved(self, selected: usize) -> Solved<A> {
        let samples = self.samples_by_step.last().cloned().expect("at least one step");
        Solved {
            samples,
            values: self.values,
            halt_logits: self.halt_logits,
            selected,
            vote_by_step: self.vote_by_step,
            samples_by_step: self.samples_by_step,
            steps: self.step,
        }
    }
}
