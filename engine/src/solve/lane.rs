//! Restart rounds shared among parallel runs. A verified run's rounds are independent: round r's
//! noise and copy depend only on the seed and r ([`super::round_seed`], [`super::RoundInput`]).
//! So several runs of the same request (the browser's Web Workers, one per core) can take the
//! rounds between them, and the first to verify answers. A [`Lane`] says which rounds one of
//! them takes: lane k of L runs rounds k, k + L, k + 2L, ... (lane 0 runs round 0, the one a
//! page shows first).
//!
//! Together they run every round exactly once, and each round is the round a single run would
//! have run, so a verified answer is one the single run could give, found sooner. Lanes other
//! than 0 join after [`JOIN_AFTER_STEPS`] steps of round 0 (or when round 0 is spent, if its
//! budget is shorter): most puzzles verify before that, and while a helper shares the cores the
//! page's own steps are slower.

use serde::{Deserialize, Serialize};

use super::error::SolveError;

/// The most lanes one request is split into.
pub const MAX_LANES: usize = 16;

/// Steps of round 0 without a verified sample after which the other lanes join (module doc).
/// Chosen on Sudoku's validation parts with a time model of two workers on two cores
/// (docs/results/sudoku.md, "The famous hardest puzzles").
pub const JOIN_AFTER_STEPS: usize = 3;

/// Whether the other lanes join once lane 0 has taken step `step` (1-based, within its round)
/// of round `round`: at step [`JOIN_AFTER_STEPS`] of round 0, or at lane 0's first step after
/// round 0 when round 0's budget is shorter.
pub fn others_join(round: usize, step: usize) -> bool {
    round > 0 || step >= JOIN_AFTER_STEPS
}

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

    /// Lane `index` of `lanes`; [`SolveError::Lane`] when there is no such lane.
    pub fn new(index: usize, lanes: usize) -> Result<Self, SolveError> {
        if lanes == 0 || lanes > MAX_LANES || index >= lanes {
            return Err(SolveError::Lane { index, lanes, max: MAX_LANES });
        }
        Ok(Lane { index, lanes })
    }

    /// The first round this lane runs.
    pub fn first_round(self) -> usize {
        self.index
    }

    /// The round this lane runs after `round`.
    pub fn next_round(self, round: usize) -> usize {
        round.saturating_add(self.lanes)
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
    fn the_lanes_run_every_round_once_and_lane_zero_runs_round_zero() {
        assert_eq!(Lane::ALONE.rounds(5).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        for lanes in 1..=5 {
            let mut all: Vec<usize> = (0..lanes).flat_map(|i| Lane::new(i, lanes).unwrap().rounds(40)).collect();
            all.sort_unstable();
            assert_eq!(all, (0..40).collect::<Vec<_>>(), "{lanes} lanes");
            // Lane 0 runs round 0, the round a page shows first.
            assert_eq!(Lane::new(0, lanes).unwrap().first_round(), 0);
        }
        assert_eq!(Lane::new(1, 2).unwrap().rounds(9).collect::<Vec<_>>(), vec![1, 3, 5, 7]);
        assert_eq!(Lane::new(0, 2).unwrap().rounds(9).collect::<Vec<_>>(), vec![0, 2, 4, 6, 8]);
        assert_eq!(Lane::new(2, 3).unwrap().rounds(9).collect::<Vec<_>>(), vec![2, 5, 8]);
        assert!(Lane::new(1, 2).unwrap().rounds(1).next().is_none(), "no round left for lane 1 of a single round");
        assert_eq!(Lane::new(2, 2), Err(SolveError::Lane { index: 2, lanes: 2, max: MAX_LANES }));
        assert!(Lane::new(0, 0).is_err() && Lane::new(0, MAX_LANES + 1).is_err());
        assert_eq!(Lane::new(0, 0).unwrap_err().to_string(), "lane 0 of 0: lanes are 1 to 16, the index below their number");
        // The others join at step JOIN_AFTER_STEPS of round 0, or after a shorter round 0.
        assert!(!others_join(0, JOIN_AFTER_STEPS - 1) && others_join(0, JOIN_AFTER_STEPS) && others_join(2, 1));
        // Until verified (usize::MAX rounds): no overflow.
        assert_eq!(Lane::new(0, 3).unwrap().next_round(usize::MAX - 1), usize::MAX);
    }
}
