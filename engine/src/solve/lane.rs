//! Restart rounds shared among parallel runs. A verified run's rounds are independent: round r's
//! noise and copy depend only on the seed and r ([`super::round_seed`], [`super::round_copy`]).
//! So once round 0 has spent its budget, several runs of the same request (the browser's Web
//! Workers, one per core) can take the later rounds between them and the first to verify
//! answers. A [`Lane`] says which rounds one of them takes:
//!
//! - lane 0 runs round 0, then round 1, then every `lanes`-th round after it (1, 1 + L, 1 + 2L, ...);
//! - lane k > 0 starts at round 1 + k and runs every `lanes`-th round from there.
//!
//! Together they run every round exactly once, and each round is the round a single run would
//! have run, so a verified answer is the same answer, found sooner. Lanes other than 0 are meant
//! to start when round 0 is spent, so an easy puzzle that verifies in round 0 costs no more.

use serde::{Deserialize, Serialize};

/// The most lanes one request is split into.
pub const MAX_LANES: usize = 16;

/// Which restart rounds of a verified run one of `lanes` parallel runs takes (module doc).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lane {
    /// 0-based; lane 0 runs round 0 and is the one whose steps a page shows.
    pub index: usize,
    pub lanes: usize,
}

impl Default for Lane {
    fn default() -> Self {
        Self::ALONE
    }
}

impl Lane {
    /// A run that takes every round itself.
    pub const ALONE: Lane = Lane { index: 0, lanes: 1 };

    /// Lane `index` of `lanes`; a sentence when there is no such lane.
    pub fn new(index: usize, lanes: usize) -> Result<Self, String> {
        if lanes == 0 || lanes > MAX_LANES || index >= lanes {
            return Err(format!("lane {index} of {lanes}: lanes are 1 to {MAX_LANES}, the index below their number"));
        }
        Ok(Lane { index, lanes })
    }

    /// The first round this lane runs.
    pub fn first_round(self) -> usize {
        if self.index == 0 { 0 } else { 1 + self.index }
    }

    /// The round this lane runs after `round`.
    pub fn next_round(self, round: usize) -> usize {
        if round == 0 { 1 } else { round.saturating_add(self.lanes) }
    }

    /// The rounds this lane runs out of `rounds` in all, in order.
    pub fn rounds(self, rounds: usize) -> impl Iterator<Item = usize> {
        std::iter::successors(Some(self.first_round()), move |&r| Some(self.next_round(r))).take_while(move |&r| r < rounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lanes_run_every_round_once_and_lane_zero_starts_alone() {
        assert_eq!(Lane::ALONE.rounds(5).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        for lanes in 1..=5 {
            let mut all: Vec<usize> = (0..lanes).flat_map(|i| Lane::new(i, lanes).unwrap().rounds(40)).collect();
            all.sort_unstable();
            assert_eq!(all, (0..40).collect::<Vec<_>>(), "{lanes} lanes");
            // Only lane 0 runs round 0 and round 1: the others wait for round 0 to be spent.
            for i in 1..lanes {
                assert!(Lane::new(i, lanes).unwrap().first_round() >= 2);
            }
        }
        assert_eq!(Lane::new(1, 2).unwrap().rounds(9).collect::<Vec<_>>(), vec![2, 4, 6, 8]);
        assert_eq!(Lane::new(0, 2).unwrap().rounds(9).collect::<Vec<_>>(), vec![0, 1, 3, 5, 7]);
        assert!(Lane::new(1, 2).unwrap().rounds(2).next().is_none(), "no round left for lane 1 of 2 rounds");
        assert!(Lane::new(2, 2).is_err() && Lane::new(0, 0).is_err() && Lane::new(0, MAX_LANES + 1).is_err());
        // Until verified (usize::MAX rounds): no overflow.
        assert_eq!(Lane::new(0, 3).unwrap().next_round(usize::MAX - 1), usize::MAX);
    }
}
