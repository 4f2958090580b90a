//! The ceiling of the corruption sweep: the Bayes-optimal completion. Given a prefix seen through
//! the corruption channel, it writes at each of the 4 positions after the cut the terminal most
//! probable there, computed exactly from the grammar (each rule of a symbol equally likely, as
//! [`Grammar::sample`] draws them) by dynamic programming over spans. No model that reads the
//! same prefix scores more on average under that channel, so the gap between a model and this
//! row is what training could still gain, and this row's own relative accuracy is what the
//! grammar lets any reader keep (docs/results/grammar.md).
//!
//! The channel: each terminal of the prefix is replaced, independently with probability `rate`,
//! by one of the other terminals chosen uniformly. The sweep replaces exactly `round(rate x n)`
//! positions ([`super::data::corrupt`]); at rate 0 both are the clean prefix and the row is the
//! exact optimum, above 0 it is the optimum of the independent channel at the same rate (the
//! posteriors differ only in how the count of flips is spread).
//!
//! The tables, for an observed prefix of `n` terminals and `STEPS` positions after it:
//! - `inside[s][i]`: the ends `e` and weights of `s` deriving exactly positions `i..e`, each
//!   terminal weighted by the channel (positions from `n` on read as any terminal, weight 1);
//! - `cover[s][i][j][a]`: the weight of `s`, started at `i`, deriving a string that reaches
//!   position `n + j` and has terminal `a` there (what comes after is summed out: weight 1).
//!
//! The root's `cover` at 0, normalised over `a`, is the posterior of position `n + j`.

use super::data::{Completion, EOS, TERMINAL0};
use super::grammar::{Grammar, Symbol};
use super::sweep::{CorruptionRow, STEPS, corrupted_prefixes, score_completions};

/// Each of the next `steps` positions' posterior over the terminals, given `observed` seen through
/// the independent channel at `rate`; `None` for a position no string of weight reaches (at rate
/// 0: the grammar begins no sequence with the prefix, or none that long).
pub fn next_terminals(g: &Grammar, observed: &[Symbol], rate: f64, steps: usize) -> Vec<Option<Vec<f64>>> {
    let t = g.terminals();
    let n = observed.len();
    let total = n + steps;
    let emit = |i: usize, x: usize| -> f64 {
        if i >= n {
            1.0
        } else if observed[i] as usize == x {
            1.0 - rate
        } else {
            rate / (t - 1) as f64
        }
    };
    let symbols = g.symbol_count();
    let width = steps * t;
    let mut inside: Vec<Vec<Vec<(usize, f64)>>> = vec![Vec::new(); symbols];
    let mut cover: Vec<Vec<Vec<f64>>> = vec![Vec::new(); symbols];
    for x in 0..t {
        inside[x] = (0..=total).map(|i| if i < total { vec![(i + 1, emit(i, x))] } else { Vec::new() }).collect();
        cover[x] = (0..=total)
            .map(|i| {
                let mut c = vec![0.0; width];
                if (n..total).contains(&i) {
                    c[(i - n) * t + x] = 1.0;
                }
                c
            })
            .collect();
    }
    for l in (0..g.depth()).rev() {
        for &s in g.level(l) {
            let rules = g.rules_of(s);
            let p = 1.0 / rules.len() as f64;
            let mut ins = Vec::with_capacity(total + 1);
            let mut cov = Vec::with_capacity(total + 1);
            for i in 0..=total {
                let mut ends = vec![0.0; total + 1];
                let mut c = vec![0.0; width];
                for rule in rules {
                    // The weights of the rule's first symbols spanning `i..f`, for each `f`.
                    let mut frontier = vec![0.0; total + 1];
                    frontier[i] = 1.0;
                    for &y in rule {
                        let y = y as usize;
                        let mut next = vec![0.0; total + 1];
                        for (f, &w) in frontier.iter().enumerate().filter(|(_, w)| **w > 0.0) {
                            for (cj, &cy) in c.iter_mut().zip(&cover[y][f]) {
                                *cj += p * w * cy;
                            }
                            for &(e, wy) in &inside[y][f] {
                                next[e] += w * wy;
                            }
                        }
                        frontier = next;
                    }
                    for (e, w) in ends.iter_mut().zip(&frontier) {
                        *e += p * w;
                    }
                }
                ins.push(ends.iter().enumerate().filter(|(_, w)| **w > 0.0).map(|(e, &w)| (e, w)).collect());
                cov.push(c);
            }
            inside[s as usize] = ins;
            cover[s as usize] = cov;
        }
    }
    let root = &cover[g.root() as usize][0];
    (0..steps)
        .map(|j| {
            let w = &root[j * t..(j + 1) * t];
            let sum: f64 = w.iter().sum();
            (sum > 0.0).then(|| w.iter().map(|x| x / sum).collect())
        })
        .collect()
}

/// The most probable terminal at each of the next `steps` positions (ties to the lower one), as
/// tokens; a position no string of weight reaches gets EOS (scored wrong).
pub fn bayes_completion(g: &Grammar, observed: &[Symbol], rate: f64, steps: usize) -> Vec<u32> {
    next_terminals(g, observed, rate, steps)
        .iter()
        .map(|post| match post {
            Some(p) => TERMINAL0 + (0..p.len()).fold(0, |b, a| if p[a] > p[b] { a } else { b }) as u32,
            None => EOS,
        })
        .collect()
}

/// The ceiling as a row of the corruption sweep (model `bayes`): the same corrupted prefixes as
/// the models read at `frac` with sweep seed `seed`.
pub fn ceiling_row(g: &Grammar, set: &[Completion], frac: f64, seed: u64) -> CorruptionRow {
    let prefixes = corrupted_prefixes(g, set, frac, seed);
    let written: Vec<Vec<u32>> = prefixes.iter().map(|p| bayes_completion(g, p, frac, STEPS)).collect();
    score_completions(g, set, &written, frac, "bayes")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// Every string of a small grammar with its probability (summed over its derivations).
    fn strings(g: &Grammar, s: Symbol) -> BTreeMap<Vec<Symbol>, f64> {
        if g.is_terminal(s) {
            return BTreeMap::from([(vec![s], 1.0)]);
        }
        let rules = g.rules_of(s);
        let mut out = BTreeMap::new();
        for rule in rules {
            let mut partial = BTreeMap::from([(Vec::new(), 1.0 / rules.len() as f64)]);
            for &y in rule {
                let mut next = BTreeMap::new();
                for (a, pa) in &partial {
                    for (b, pb) in strings(g, y) {
                        let mut ab: Vec<Symbol> = a.clone();
                        ab.extend(b);
                        *next.entry(ab).or_insert(0.0) += pa * pb;
                    }
                }
                partial = next;
            }
            for (k, v) in partial {
                *out.entry(k).or_insert(0.0) += v;
            }
        }
        out
    }

    /// A small ambiguous levelled grammar: terminals 0-2, the root 3, level 1 is 4 and 5.
    fn small() -> Grammar {
        let rules = vec![
            vec![vec![4, 5], vec![5, 4, 4], vec![5, 5]],
            vec![vec![0, 1], vec![1, 1, 2], vec![2, 0, 0]],
            vec![vec![0], vec![1, 2], vec![0, 1]],
        ];
        Grammar::from_rules(3, vec![vec![3], vec![4, 5], vec![0, 1, 2]], rules).unwrap()
    }

    /// The dynamic programme equals the posterior by enumeration of every string, clean and
    /// through the noisy channel, for every prefix length and step.
    #[test]
    fn the_posterior_equals_enumeration() {
        let g = small();
        let all = strings(&g, g.root());
        assert!((all.values().sum::<f64>() - 1.0).abs() < 1e-12);
        let channel = |y: Symbol, x: Symbol, rate: f64| if x == y { 1.0 - rate } else { rate / 2.0 };
        let observed: Vec<Symbol> = vec![1, 1, 2, 0];
        for rate in [0.0, 0.2, 0.4] {
            for n in 0..=observed.len() {
                let y = &observed[..n];
                let got = next_terminals(&g, y, rate, 3);
                for j in 0..3 {
                    let mut want = [0.0; 3];
                    for (x, p) in all.iter().filter(|(x, _)| x.len() > n + j) {
                        let w: f64 = y.iter().zip(x).map(|(&a, &b)| channel(a, b, rate)).product();
                        want[x[n + j] as usize] += p * w;
                    }
                    let sum: f64 = want.iter().sum();
                    match &got[j] {
                        Some(post) if sum > 0.0 => {
                            for a in 0..3 {
                                assert!((post[a] - want[a] / sum).abs() < 1e-9, "rate {rate} n {n} j {j}: {post:?} vs {want:?}");
                            }
                        }
                        Some(post) => panic!("rate {rate} n {n} j {j}: enumeration has no weight, the programme {post:?}"),
                        None => assert!(sum == 0.0, "rate {rate} n {n} j {j}: the programme found no weight"),
                    }
                }
            }
        }
    }

    /// On the shipped grammar (four levels), the posterior equals the one estimated from 40,000
    /// sampled sequences, each weighted by the channel's likelihood of the observed prefix.
    #[test]
    fn the_posterior_matches_sampling_on_the_shipped_grammar() {
        use crate::gram::noise::NoiseSource;
        use crate::studies::grammar::data::GrammarVariant;
        let g = GrammarVariant::Short.grammar();
        let mut rng = NoiseSource::new(11);
        let observed: Vec<Symbol> = g.sample(&mut rng)[..6].to_vec();
        let rate = 0.3;
        let got = next_terminals(&g, &observed, rate, 4);
        let mut want = [[0.0; 3]; 4];
        let mut total = 0.0;
        for _ in 0..40_000 {
            let x = g.sample(&mut rng);
            let w: f64 = observed.iter().zip(&x).map(|(&y, &t)| if y == t { 1.0 - rate } else { rate / 2.0 }).product();
            total += w;
            for (j, row) in want.iter_mut().enumerate() {
                row[x[6 + j] as usize] += w;
            }
        }
        for j in 0..4 {
            let post = got[j].as_ref().expect("a prefix of weight");
            for a in 0..3 {
                assert!(
                    (post[a] - want[j][a] / total).abs() < 0.02,
                    "step {j}: {post:?} against sampling {:?}",
                    want[j].map(|v| v / total)
                );
            }
        }
    }

    /// On the shipped grammar's validation completions the clean optimum writes only what the
    /// parser accepts first and scores at least the floor; under corruption it still scores.
    #[test]
    fn the_clean_ceiling_is_grammatical_and_above_the_floor() {
        use crate::studies::grammar::data::{GrammarVariant, completions};
        use crate::studies::grammar::floor::floor_row;
        use crate::tasks::split::Part;
        let v = GrammarVariant::Short;
        let g = v.grammar();
        let set = completions(v, Part::Validation, 32);
        for c in &set[..8] {
            let w = bayes_completion(&g, c.prefix(), 0.0, 1);
            let first = (w[0] - TERMINAL0) as Symbol;
            assert!(c.valid(&g, &[first]), "the clean optimum writes a terminal the grammar allows");
        }
        let ceiling = ceiling_row(&g, &set, 0.0, 0);
        let floor = floor_row(v, &g, &set);
        assert!(ceiling.accuracy[0] >= floor.accuracy[0], "{:?} vs {:?}", ceiling.accuracy, floor.accuracy);
        let noisy = ceiling_row(&g, &set, 0.3, 0);
        assert!(noisy.accuracy[3] <= ceiling.accuracy[3] + 10.0 && noisy.accuracy[3] > 0.0);
    }
}
