//! Picking one answer among N sampled trajectories: the majority vote (seed 003, eq. 15) or the
//! LPRM value head (eq. 16).

use std::collections::HashMap;

/// How to pick one answer among the N samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Most frequent prediction (eq. 15).
    Vote,
    /// Highest LPRM value (eq. 16).
    Lprm,
}

impl Selection {
    /// `vote` or `lprm`.
    pub fn parse(text: &str) -> Option<Selection> {
        match text {
            "vote" => Some(Selection::Vote),
            "lprm" => Some(Selection::Lprm),
            _ => None,
        }
    }

    /// Index of the picked sample.
    pub fn pick(self, predictions: &[Vec<u32>], values: &[f32]) -> usize {
        match self {
            Selection::Vote => majority_vote(predictions),
            Selection::Lprm => lprm_select(values),
        }
    }
}

/// Majority vote (eq. 15): index of the first row holding the most frequent prediction.
pub fn majority_vote(predictions: &[Vec<u32>]) -> usize {
    let mut counts: HashMap<&[u32], usize> = HashMap::new();
    for p in predictions {
        *counts.entry(p.as_slice()).or_default() += 1;
    }
    let best = predictions.iter().map(|p| counts[p.as_slice()]).max().unwrap_or(0);
    predictions.iter().position(|p| counts[p.as_slice()] == best).unwrap_or(0)
}

/// LPRM-guided selection (eq. 16): index of the highest value (first on ties).
pub fn lprm_select(values: &[f32]) -> usize {
    let mut best = 0;
    for (i, &v) in values.iter().enumerate() {
        if v > values[best] {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vote_picks_the_most_frequent_and_lprm_the_highest_value() {
        let p = vec![vec![1, 2], vec![2, 1], vec![2, 1], vec![1, 1]];
        assert_eq!(majority_vote(&p), 1);
        assert_eq!(lprm_select(&[0.1, 0.9, 0.9, 0.3]), 1);
    }
}
