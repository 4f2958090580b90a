//! Picking one answer among N sampled trajectories: the majority vote (the GRAM paper, eq. 15), the
//! LPRM value head (eq. 16), or PTRM's Q (halting) head (arXiv 2605.19943, best-Q@K).

use std::collections::HashMap;

/// How to pick one answer among the N samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Most frequent prediction (eq. 15).
    Vote,
    /// Highest LPRM value (eq. 16).
    Lprm,
    /// Highest halting probability of the Q-head at the last step (PTRM's best-Q selection:
    /// k* = argmax_k f_Q(y_D^k)); compared on the logits, which order the trajectories as the
    /// probabilities do without f32's saturation at 1.0.
    Q,
}

impl Selection {
    /// `vote`, `lprm` or `q`.
    pub fn parse(text: &str) -> Option<Selection> {
        match text {
            "vote" => Some(Selection::Vote),
            "lprm" => Some(Selection::Lprm),
            "q" => Some(Selection::Q),
            _ => None,
        }
    }

    /// The name `parse` reads.
    pub fn name(self) -> &'static str {
        match self {
            Selection::Vote => "vote",
            Selection::Lprm => "lprm",
            Selection::Q => "q",
        }
    }

    /// Index of the picked sample, from each sample's prediction, LPRM value and halting logit.
    pub fn pick(self, predictions: &[Vec<u32>], values: &[f32], halt_logits: &[f32]) -> usize {
        match self {
            Selection::Vote => majority_vote(predictions),
            Selection::Lprm => lprm_select(values),
            Selection::Q => q_select(halt_logits),
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
    highest(values)
}

/// PTRM's best-Q selection: index of the highest halting logit (first on ties).
pub fn q_select(halt_logits: &[f32]) -> usize {
    highest(halt_logits)
}

/// Index of the highest score (first on ties; 0 for none).
fn highest(values: &[f32]) -> usize {
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

    /// Q picks the highest halting logit, whatever the vote and the values say; `parse` reads
    /// what `name` writes.
    #[test]
    fn q_picks_the_highest_halting_logit() {
        let p = vec![vec![1, 2], vec![2, 1], vec![2, 1], vec![1, 1]];
        let values = [0.9, 0.1, 0.1, 0.2];
        let logits = [-3.0, 0.5, 20.0, 19.5];
        assert_eq!(Selection::Q.pick(&p, &values, &logits), 2);
        assert_eq!(Selection::Vote.pick(&p, &values, &logits), 1);
        assert_eq!(Selection::Lprm.pick(&p, &values, &logits), 0);
        // Logits where sigmoid rounds both to 1.0f32: still ordered.
        assert_eq!(Selection::Q.pick(&p, &values, &[0.0, 40.0, 41.0, 3.0]), 2);
        for s in [Selection::Vote, Selection::Lprm, Selection::Q] {
            assert_eq!(Selection::parse(s.name()), Some(s));
        }
        assert_eq!(Selection::parse("Q"), None);
    }
}
