//! A run's samples shared among parallel workers. Every trajectory draws its noise from its own
//! stream ([`crate::gram::noise::NoiseSource::per_sample`]), so the N samples of a run can be
//! split by rows: share k of K runs samples `[N k / K, N (k + 1) / K)` of every round, and its
//! boards are those rows of the whole run's, bit for bit. The browser's Web Workers each take a
//! share and the page puts the steps back together (one per core: the page's step time divides
//! by the cores instead of growing with N).

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::error::SolveError;

/// The most shares one run is split into.
pub const MAX_SHARES: usize = 16;

/// Which of a run's samples one of `shares` parallel runs takes (module doc).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    /// 0-based; share 0 takes the first samples.
    pub index: usize,
    pub shares: usize,
}

impl Default for Share {
    fn default() -> Self {
        Self::ALL
    }
}

impl Share {
    /// A run that takes every sample itself.
    pub const ALL: Share = Share { index: 0, shares: 1 };

    /// Share `index` of `shares`; [`SolveError::Share`] when there is no such share.
    pub fn new(index: usize, shares: usize) -> Result<Self, SolveError> {
        if shares == 0 || shares > MAX_SHARES || index >= shares {
            return Err(SolveError::Share { index, shares, max: MAX_SHARES });
        }
        Ok(Share { index, shares })
    }

    /// This share's rows of `n`: as even as they come, in order, every row in exactly one share.
    pub fn range(self, n: usize) -> Range<usize> {
        n * self.index / self.shares..n * (self.index + 1) / self.shares
    }

    /// How many shares a run of `samples` samples is split into on `workers` workers: one
    /// per worker, but none empty.
    pub fn count(samples: usize, workers: usize) -> usize {
        workers.min(samples).clamp(1, MAX_SHARES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_every_row_once_in_order() {
        for n in 1..40 {
            for k in 1..=n.min(MAX_SHARES) {
                let rows: Vec<usize> = (0..k).flat_map(|i| Share::new(i, k).unwrap().range(n)).collect();
                assert_eq!(rows, (0..n).collect::<Vec<_>>(), "{n} rows, {k} shares");
                assert!((0..k).all(|i| !Share::new(i, k).unwrap().range(n).is_empty()), "none empty");
            }
        }
        assert_eq!(Share::new(1, 2).unwrap().range(20), 10..20);
        assert_eq!(Share::ALL.range(7), 0..7);
        assert_eq!(Share::new(2, 2), Err(SolveError::Share { index: 2, shares: 2, max: MAX_SHARES }));
        assert!(Share::new(0, 0).is_err() && Share::new(0, MAX_SHARES + 1).is_err());
        assert_eq!(Share::new(2, 2).unwrap_err().to_string(), "share 2 of 2: shares are 1 to 16, the index below their number");
        assert_eq!((Share::count(20, 4), Share::count(2, 4), Share::count(5, 0)), (4, 2, 1));
    }
}
