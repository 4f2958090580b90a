//! What one round of a verified run solves: the puzzle as given, one answer-preserving copy of
//! it for all N samples, or a copy per sample ([`Copies`]), and the way every sample's step is
//! read back into the puzzle's own frame.
//!
//! A copy (Sudoku: digits relabelled, bands, stacks, rows and columns shuffled, transposed;
//! [`crate::tasks::InputCopy`]) is the same puzzle to the rules and a new input to the network.
//! The network's mistakes on one presentation come back under new noise, so spreading a
//! round's samples over copies gives N presentations where a shared copy gives one.

use burn::tensor::Device;

use super::round_seed;
use crate::gram::noise::NoiseSource;
use crate::gram::{Gram, Observation, SampleOptions, Trajectories};
use crate::tasks::{Copies, InputCopy};

/// The salt of the copy streams, apart from the noise streams of the same round seed.
const COPY_SALT: u64 = 0xc0b1_e5ee_d000_0001;

/// The copy round `round` solves under [`Copies::Restarts`]: none in round 0 or without copies;
/// otherwise the task's copy (`copy` calls its `restart_copy`), drawn from a stream of the
/// round's seed.
fn round_copy(seed: u64, round: usize, copies: bool, copy: impl FnOnce(&mut NoiseSource) -> Option<InputCopy>) -> Option<InputCopy> {
    (round > 0 && copies).then(|| copy(&mut NoiseSource::new(round_seed(seed, round) ^ COPY_SALT))).flatten()
}

/// One round's inputs: a copy (or the puzzle as given) per trajectory row, or one shared by all.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundInput {
    /// One entry shared by every row, or one per row; `None` is the puzzle as given.
    copies: Vec<Option<InputCopy>>,
}

impl RoundInput {
    /// Round `round` of a run with `seed` and `rows` trajectories (1 for a deterministic run:
    /// [`super::trajectories_to_run`]). Under [`Copies::Samples`] row `j` draws its copy from
    /// its own stream of the round's seed; the rest is [`round_copy`].
    pub fn new(seed: u64, round: usize, mode: Copies, rows: usize, copy: impl Fn(&mut NoiseSource) -> Option<InputCopy>) -> Self {
        let copies = match mode {
            Copies::Samples if rows > 1 => (0..rows)
                .map(|j| match (round, j) {
                    (0, 0) => None,
                    _ => copy(&mut NoiseSource::new(round_seed(seed, round) ^ COPY_SALT ^ ((j as u64 + 1) << 32))),
                })
                .collect(),
            // One row: a copy in every round after the first, as a shared copy would be.
            Copies::Samples | Copies::Restarts => vec![round_copy(seed, round, true, copy)],
            Copies::None => vec![None],
        };
        Self { copies }
    }

    /// The inputs of `rows` of the round's rows (a share of them, [`super::share::Share`]): one
    /// shared entry stays shared, a copy per row keeps those rows' copies.
    pub fn rows(mut self, rows: &std::ops::Range<usize>) -> Self {
        if self.copies.len() > 1 {
            self.copies = self.copies[rows.clone()].to_vec();
        }
        self
    }

    /// Whether any row solves a copy (a task without copies solves the puzzle as given in all).
    pub fn has_copies(&self) -> bool {
        self.copies.iter().any(Option::is_some)
    }

    /// The copy row `row` solves (`None`: the puzzle as given); with one shared entry, that one.
    pub fn copy(&self, row: usize) -> Option<&InputCopy> {
        self.copies.get(row).or(self.copies.first()).and_then(Option::as_ref)
    }

    /// The round's trajectories from z0: `options` (N rows, the round's seed) on the shared
    /// input, or one trajectory per row on its own input.
    pub fn trajectories<'m>(&self, model: &'m Gram, tokens: &[u32], options: SampleOptions, device: &Device) -> Trajectories<'m> {
        let inputs: Vec<Vec<u32>> = self.copies.iter().map(|c| c.as_ref().map_or_else(|| tokens.to_vec(), |c| c.x.clone())).collect();
        let options = if inputs.len() > 1 { SampleOptions { samples: 1, ..options } } else { options };
        Trajectories::new(model, &inputs, options, device)
    }

    /// The inputs after [`Trajectories::resample`] with the same `rows`: row `i` solves what row
    /// `rows[i]` solved (one shared entry stays shared).
    pub fn resample(&mut self, rows: &[usize]) {
        if self.copies.len() > 1 {
            self.copies = rows.iter().map(|&r| self.copies[r].clone()).collect();
        }
    }

    /// A step of the round's trajectories read in the puzzle's own frame.
    pub fn back(&self, obs: Observation) -> Observation {
        match self.copies.as_slice() {
            [None] => obs,
            [Some(c)] => c.observation_back(&obs),
            rows => {
                let mut out = obs.clone();
                for (row, c) in rows.iter().enumerate() {
                    if let Some(c) = c {
                        c.row_back(&obs, row, &mut out);
                    }
                }
                out
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TokenTask;
    use crate::tasks::sudoku::{Difficulty, Sudoku};

    /// Per-sample copies: row 0 of round 0 is the puzzle as given, every other row a copy of its
    /// own; the same seed and round give the same copies; one row falls back to a shared copy.
    #[test]
    fn sample_copies_give_each_row_its_own_input() {
        let x = Sudoku.tokens(&Difficulty::Expert.generate(4).puzzle);
        let copy = |rng: &mut NoiseSource| Sudoku.restart_copy(&x, rng);
        let r0 = RoundInput::new(7, 0, Copies::Samples, 4, copy);
        assert_eq!(r0.copies.len(), 4);
        assert!(r0.copies[0].is_none() && r0.copies[1..].iter().all(Option::is_some));
        let xs: Vec<_> = r0.copies[1..].iter().map(|c| c.as_ref().unwrap().x.clone()).collect();
        assert!(xs[0] != xs[1] && xs[1] != xs[2], "each row its own copy");
        assert_eq!(RoundInput::new(7, 0, Copies::Samples, 4, copy), r0);
        let r1 = RoundInput::new(7, 1, Copies::Samples, 4, copy);
        assert!(r1.copies.iter().all(Option::is_some) && r1 != r0);
        assert_eq!(RoundInput::new(7, 1, Copies::Samples, 1, copy), RoundInput::new(7, 1, Copies::Restarts, 4, copy));
        assert!(RoundInput::new(7, 0, Copies::Restarts, 4, copy).copies.iter().all(Option::is_none));
        assert!(RoundInput::new(7, 3, Copies::None, 4, copy).copies.iter().all(Option::is_none));
    }
}
