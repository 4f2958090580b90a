//! The floor of the corruption sweep: what a completion scores when it reads nothing of the
//! prefix. It writes, at each of the 4 positions after the cut, the terminal most frequent there
//! in the training part (counted over sequences drawn from it, at the same cut). A model whose
//! accuracy under corruption falls below this has been misled by the corrupted prefix, not
//! merely deprived of it; how far a model stays above it is what its reading of the prefix is
//! worth (docs/results/grammar.md).

use std::collections::BTreeMap;

use super::data::{Completion, GrammarVariant, TERMINAL0, draw};
use super::grammar::{Grammar, Symbol};
use super::sweep::{CorruptionRow, STEPS, score_completions};
use crate::gram::noise::NoiseSource;
use crate::tasks::split::Part;

/// Training sequences counted per cut.
pub const PRIOR_DRAWS: usize = 4096;

/// For each cut of `set`, the most frequent terminal at each of the [`STEPS`] positions after
/// it, over [`PRIOR_DRAWS`] training-part sequences (ties to the lower terminal).
pub fn position_prior(variant: GrammarVariant, set: &[Completion]) -> BTreeMap<usize, [Symbol; STEPS]> {
    let g = variant.grammar();
    let mut rng = NoiseSource::new(0x9f10_0a00);
    let seqs: Vec<Vec<Symbol>> = (0..PRIOR_DRAWS).map(|_| draw(&g, &mut rng, Part::Train)).collect();
    let mut prior = BTreeMap::new();
    for cut in set.iter().map(|c| c.cut) {
        prior.entry(cut).or_insert_with(|| {
            std::array::from_fn(|j| {
                let mut count = vec![0usize; g.terminals()];
                for s in seqs.iter().filter(|s| s.len() > cut + j) {
                    count[s[cut + j] as usize] += 1;
                }
                (0..g.terminals()).max_by_key(|&t| (count[t], std::cmp::Reverse(t))).unwrap_or(0) as Symbol
            })
        });
    }
    prior
}

/// The floor as a row of the corruption sweep (model `prior`; the same at every corruption).
pub fn floor_row(variant: GrammarVariant, g: &Grammar, set: &[Completion]) -> CorruptionRow {
    let prior = position_prior(variant, set);
    let written: Vec<Vec<u32>> = set.iter().map(|c| prior[&c.cut].iter().map(|&t| TERMINAL0 + t as u32).collect()).collect();
    score_completions(g, set, &written, 0.0, "prior")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studies::grammar::data::completions;

    /// The prior is a pure function of the cuts, scores a real share of tokens on held-out
    /// completions, and never beats the best single answer per cut counted on the set itself.
    #[test]
    fn the_floor_is_the_best_blind_answer_of_the_training_part() {
        let v = GrammarVariant::Short;
        let set = completions(v, Part::Validation, 64);
        let p = position_prior(v, &set);
        assert_eq!(p, position_prior(v, &set));
        assert_eq!(p.len(), 4, "one answer per cut");
        let row = floor_row(v, &v.grammar(), &set);
        assert!(row.accuracy.iter().all(|&a| (10.0..=90.0).contains(&a)), "{:?}", row.accuracy);
        // The held-out set's own per-position majority scores at least as well as the prior.
        let mut best = 0.0;
        for &cut in p.keys() {
            for j in 0..STEPS {
                let here: Vec<&Completion> = set.iter().filter(|c| c.cut == cut).collect();
                let most = (0..3).map(|t| here.iter().filter(|c| c.continuation()[j] == t).count()).max().unwrap();
                best += most as f64 / STEPS as f64;
            }
        }
        assert!(row.accuracy[STEPS - 1] <= 100.0 * best / set.len() as f64 + 1e-9);
    }
}
