//! The generated training pool: what `train` draws Sudoku puzzles from, and how hard they are.
//!
//! Givens alone do not make a puzzle hard: the famous hardest puzzles have 21-23 givens, as
//! many as a routine minimal puzzle, yet need deep search. A pool puzzle can therefore be the
//! **hardest of K** candidates generated for the same target givens, rated by the exact solver's
//! search effort ([`super::SolveReport::guesses`]). K = 1 is the plain generator (and draws the
//! same pool as before K existed); a larger K tilts every band of the mix towards its hard end
//! without losing the band.

use super::generate::generate;
use super::{Instance, Part, part_of};
use crate::gram::noise::NoiseSource;

/// How a training pool is generated: target givens drawn uniformly from `givens` (inclusive; a
/// target the generator cannot reach gives a minimal puzzle), each puzzle the highest-rated of
/// `hardest_of` candidates (ties: the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolSpec {
    pub givens: (usize, usize),
    pub hardest_of: usize,
}

impl PoolSpec {
    /// The plain generator over `givens`.
    pub fn plain(givens: (usize, usize)) -> Self {
        PoolSpec { givens, hardest_of: 1 }
    }
}

/// Training puzzles from `seed`, train part only (a candidate outside it is redrawn).
pub fn train_pool(count: usize, spec: PoolSpec, seed: u64) -> Vec<Instance> {
    pool_of(Part::Train, count, spec, seed)
}

/// The givens of a [`rated_set`]: the whole range training draws from, the fewest givens of a
/// minimal puzzle (17) to the easy band's most.
pub const RATED_GIVENS: (usize, usize) = (17, 40);

/// How many puzzles `split` prints and `eval` scores of a rated set (`--hardest-of K`).
pub const RATED_COUNT: usize = 200;

/// `count` held-out puzzles of `part`, made as a `train --hardest-of K` pool is made (target
/// givens uniform over [`RATED_GIVENS`], each the hardest of `hardest_of` candidates by the
/// solver's guesses) from a fixed seed of the part's own. What checkpoints of a run on a rated
/// pool are chosen on (`eval --part validation --hardest-of K`). A pure function of its
/// arguments; the parts never meet, whoever generated them ([`part_of`]).
pub fn rated_set(part: Part, hardest_of: usize, count: usize) -> Vec<Instance> {
    let seed = match part {
        Part::Validation => 0x7a11_4a7d,
        Part::Test => 0x7e57_4a7d,
        Part::Train => 0x7a41_4a7d,
    };
    pool_of(part, count, PoolSpec { givens: RATED_GIVENS, hardest_of }, seed)
}

fn pool_of(part: Part, count: usize, spec: PoolSpec, seed: u64) -> Vec<Instance> {
    let mut rng = NoiseSource::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(0x7a1));
    let (lo, hi) = spec.givens;
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let target = lo + rng.index(hi - lo + 1);
        let mut best: Option<Instance> = None;
        let mut tried = 0;
        while tried < spec.hardest_of.max(1) {
            let inst = generate(target, &mut rng);
            if part_of(&inst.puzzle) != part {
                // Plain pools skip such a draw and take a new target: keep that stream for K = 1.
                if spec.hardest_of <= 1 {
                    break;
                }
                continue;
            }
            tried += 1;
            if best.as_ref().is_none_or(|b| inst.guesses > b.guesses) {
                best = Some(inst);
            }
        }
        out.extend(best);
    }
    out
}

/// Percentiles of the pool's ratings (solver guesses): (median, 90th, 99th, most).
pub fn rating_summary(pool: &[Instance]) -> (u64, u64, u64, u64) {
    let mut r: Vec<u64> = pool.iter().map(|i| i.guesses).collect();
    r.sort_unstable();
    let at = |q: f64| r.get(((r.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0);
    (at(0.5), at(0.9), at(0.99), r.last().copied().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// K = 1 is the plain generator; K = 4 keeps the band and rates at least as high per slot on
    /// the whole; every puzzle is a train-part puzzle.
    #[test]
    fn hardest_of_k_tilts_the_ratings_and_keeps_the_band() {
        let plain = train_pool(24, PoolSpec::plain((22, 27)), 4);
        assert_eq!(plain, train_pool(24, PoolSpec { givens: (22, 27), hardest_of: 1 }, 4));
        let hard = train_pool(24, PoolSpec { givens: (22, 27), hardest_of: 4 }, 4);
        assert_eq!(hard.len(), 24);
        assert!(hard.iter().chain(&plain).all(|i| part_of(&i.puzzle) == Part::Train));
        assert!(hard.iter().all(|i| (22..=27).contains(&i.givens())), "targets 22-27 are all reachable");
        let total = |p: &[Instance]| p.iter().map(|i| i.guesses).sum::<u64>();
        assert!(total(&hard) > total(&plain), "hardest of 4: {} guesses against {}", total(&hard), total(&plain));
        let (median, p90, p99, most) = rating_summary(&hard);
        assert!(median <= p90 && p90 <= p99 && p99 <= most);
    }

    /// A rated held-out set stays in its part, is the same on every call, and rates higher
    /// than the plain generator's set from the same seed.
    #[test]
    fn a_rated_set_is_held_out_stable_and_harder() {
        let rated = rated_set(Part::Validation, 4, 12);
        assert_eq!(rated, rated_set(Part::Validation, 4, 12));
        assert_eq!(rated.len(), 12);
        assert!(rated.iter().all(|i| part_of(&i.puzzle) == Part::Validation));
        assert!(rated_set(Part::Test, 2, 6).iter().all(|i| part_of(&i.puzzle) == Part::Test));
        let plain = rated_set(Part::Validation, 1, 12);
        let total = |p: &[Instance]| p.iter().map(|i| i.guesses).sum::<u64>();
        assert!(total(&rated) > total(&plain), "hardest of 4: {} guesses against {}", total(&rated), total(&plain));
    }
}
