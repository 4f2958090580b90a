//! An answer-preserving copy of one input, and the way back: what a verified run's restart
//! solves instead of the input as given, and which inputs of a verified run get one ([`Copies`]).
//!
//! A restart with fresh noise reruns the same input, and a model's mistakes on one presentation
//! of a puzzle repeat under new noise. An answer-preserving copy (Sudoku: digits relabelled,
//! bands, stacks, rows and columns permuted, transposed) is the same puzzle to the rules but a
//! different input to the network, so its trajectories fail differently. Every answer is read
//! back into the original's frame before the rule check, so what is verified, shown and
//! answered is always an answer to the puzzle as given.

use serde::{Deserialize, Serialize};

use crate::gram::Observation;

/// Which inputs a verified run's rounds solve, where the task makes copies
/// ([`crate::tasks::TokenTask::restart_copy`]); a task without copies solves the puzzle as given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Copies {
    /// Every round solves the puzzle as given; restarts differ only in their noise.
    #[default]
    None,
    /// Each round after the first solves one fresh copy, all N samples on it.
    Restarts,
    /// Every sample of every round solves a copy of its own; round 0's first sample solves the
    /// puzzle as given.
    Samples,
}

/// A copy of an input and how its outputs map back.
#[derive(Clone, Debug, PartialEq)]
pub struct InputCopy {
    /// The copy's input tokens.
    pub x: Vec<u32>,
    /// Output position `i` of the original is output position `from[i]` of the copy.
    pub from: Vec<usize>,
    /// A token `t` in the copy's output stands for `token[t]` in the original's (a relabelling).
    pub token: Vec<u32>,
}

impl InputCopy {
    /// A prediction of the copy read in the original's frame.
    pub fn prediction_back(&self, copy: &[u32]) -> Vec<u32> {
        self.from.iter().map(|&q| self.token[copy[q] as usize]).collect()
    }

    /// A step of the copy's trajectories read in the original's frame: predictions and every
    /// position's token probabilities moved back; values, halting and latents are per
    /// trajectory and stay.
    pub fn observation_back(&self, obs: &Observation) -> Observation {
        let mut out = obs.clone();
        for row in 0..obs.predictions.len() {
            self.row_back(obs, row, &mut out);
        }
        out
    }

    /// Trajectory `row` of `obs` (a step on this copy) read back into `out`, a step in the
    /// original's frame: its prediction and its probabilities; other rows are left as they are.
    pub fn row_back(&self, obs: &Observation, row: usize, out: &mut Observation) {
        let (v, l) = (obs.vocab, self.from.len());
        out.predictions[row] = self.prediction_back(&obs.predictions[row]);
        for (i, &q) in self.from.iter().enumerate() {
            for t in 0..v {
                out.probabilities[(row * l + i) * v + self.token[t] as usize] = obs.probabilities[(row * l + q) * v + t];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gram::noise::NoiseSource;
    use crate::tasks::TokenTask;
    use crate::tasks::sudoku::{Difficulty, Sudoku};

    /// The copy's solution read back is the original's solution, and a step's probabilities move
    /// with their cells and digits.
    #[test]
    fn a_sudoku_copy_reads_back_to_the_puzzle_as_given() {
        let mut rng = NoiseSource::new(9);
        for seed in 0..4 {
            let inst = Difficulty::Expert.generate(seed);
            let x = Sudoku.tokens(&inst.puzzle);
            let copy = Sudoku.restart_copy(&x, &mut rng).expect("Sudoku makes copies");
            assert_ne!(copy.x, x, "a copy is another input");
            let puzzle_copy = crate::tasks::sudoku::SudokuGrid::from_tokens(&copy.x).unwrap();
            let solution_copy = crate::tasks::sudoku::unique_solution(&puzzle_copy).expect("a copy keeps one solution");
            assert_eq!(copy.prediction_back(&solution_copy.tokens()), inst.solution.tokens());
            assert_eq!(copy.prediction_back(&copy.x), x, "givens and blanks map back too");
            // One row, one-hot probabilities on the copy's solution.
            let (l, v) = (x.len(), crate::tasks::sudoku::VOCAB);
            let pred = solution_copy.tokens();
            let mut probabilities = vec![0.0; l * v];
            for (q, &t) in pred.iter().enumerate() {
                probabilities[q * v + t as usize] = 1.0;
            }
            let obs = Observation {
                step: 1,
                predictions: vec![pred],
                probabilities,
                values: vec![0.5],
                halt_probs: vec![0.1],
                halt_logits: vec![-2.0],
                halted: vec![false],
                vocab: v,
                latents: vec![vec![]],
            };
            let back = copy.observation_back(&obs);
            assert_eq!(back.predictions[0], inst.solution.tokens());
            for (i, &t) in back.predictions[0].iter().enumerate() {
                assert_eq!(back.probability(0, i, t as usize), 1.0);
            }
            assert_eq!((back.values.clone(), back.step), (obs.values.clone(), 1));
        }
    }
}
