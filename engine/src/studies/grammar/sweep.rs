//! The two robustness sweeps of the JEPA-Reasoner paper (section 5.2.3, Figure 2, Tables 4 and 5), on
//! completion instances the models never saw:
//!
//! - **Token corruption** (T against R): a share of the prefix's terminals replaced by other
//!   terminals; accuracy over the first k written tokens for k = 1..4 (Table 5's "Step k": the
//!   correct tokens among the first k over k, averaged over instances), against the sequence's own
//!   continuation; and the share of 4-token completions that keep the clean prefix a beginning
//!   of a grammar sequence (the parser; the grammar is ambiguous, so a completion can differ from
//!   the sequence's own and still be right).
//! - **Latent noise** (C against R): Gaussian noise of sigma = s x max|h| on every latent; C
//!   thinks 4 latents then writes 4 tokens, R runs 8 latents and its Talker writes 8 tokens;
//!   accuracy over the last 4 (the continuation's positions 5-8), and for R the validity of its
//!   8 tokens.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::complete::{complete, instance_noise, offset};
use super::data::{Completion, WINDOW, corrupt, terminal, terminals_of};
use super::grammar::{Grammar, Symbol};
use super::models::{GrammarModel, GrammarModels};
use crate::reasoner::coconut::THOUGHTS;

/// The paper's corruption levels.
pub const CORRUPTION: [f64; 7] = [0.0, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30];
/// The paper's latent-noise levels (fractions of max |h|: 0-15%), then three beyond its range
/// (30%, 50%, 100%), where the small models first show a difference.
pub const LATENT_NOISE: [f64; 7] = [0.0, 0.05, 0.10, 0.15, 0.30, 0.50, 1.0];
/// Tokens scored in the corruption sweep.
pub const STEPS: usize = 4;

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct CorruptionRow {
    pub corruption: f64,
    pub model: String,
    /// Accuracy (%) over the first k tokens, k = 1..4.
    pub accuracy: [f64; STEPS],
    /// Completions whose 4 tokens all equal the continuation's (%).
    pub exact: f64,
    /// Completions (4 tokens) the grammar accepts after the clean prefix (%).
    pub valid: f64,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct NoiseRow {
    pub sigma: f64,
    pub model: String,
    /// Accuracy (%) over the continuation's positions 5-8.
    pub accuracy: f64,
    /// R only: its 8 tokens the grammar accepts after the prefix (%).
    pub valid: Option<f64>,
}

fn pct(a: f64, n: usize) -> f64 {
    100.0 * a / n.max(1) as f64
}

/// Table 5's "Step k" for one completion: the share of the first k written tokens equal to the
/// continuation's, for k = 1..4.
pub fn step_accuracy(written: &[u32], want: &[Symbol]) -> [f64; STEPS] {
    let mut acc = [0.0; STEPS];
    for (k, a) in acc.iter_mut().enumerate() {
        let right = (0..=k).filter(|&j| written.get(j).and_then(|&t| terminal(t)) == Some(want[j])).count();
        *a = right as f64 / (k + 1) as f64;
    }
    acc
}

/// The corruption sweep for `models` (each of T, R, R-mono by default) at `levels`.
pub fn corruption_sweep(
    m: &GrammarModels,
    g: &Grammar,
    set: &[Completion],
    which: &[GrammarModel],
    levels: &[f64],
    seed: u64,
    device: &Device,
) -> Vec<CorruptionRow> {
    let mut rows = Vec::new();
    for &frac in levels {
        let prefixes = corrupted_prefixes(g, set, frac, seed);
        for &model in which {
            let written = complete(m, model, &prefixes, STEPS, 0.0, seed, device);
            rows.push(score_completions(g, set, &written, frac, model.name()));
        }
    }
    rows
}

/// The prefixes the sweep's models read at `frac`: instance `i`'s corruption is a function of
/// (`seed`, `i`) alone, the same for every model and the ceiling.
pub fn corrupted_prefixes(g: &Grammar, set: &[Completion], frac: f64, seed: u64) -> Vec<Vec<Symbol>> {
    set.iter().enumerate().map(|(i, c)| corrupt(c.prefix(), g.terminals(), frac, &mut instance_noise(seed ^ 0xc0_4447, i)).0).collect()
}

/// One row of the corruption sweep: `written` (each completion's tokens, in `set`'s order)
/// scored against the sequences' own continuations and by the grammar after the clean prefix.
pub fn score_completions(g: &Grammar, set: &[Completion], written: &[Vec<u32>], corruption: f64, model: &str) -> CorruptionRow {
    let mut acc = [0.0; STEPS];
    let (mut valid, mut exact) = (0usize, 0usize);
    for (c, w) in set.iter().zip(written) {
        let steps = step_accuracy(w, c.continuation());
        for (a, x) in acc.iter_mut().zip(steps) {
            *a += x;
        }
        exact += (steps[STEPS - 1] == 1.0) as usize;
        valid += terminals_of(w).is_some_and(|t| c.valid(g, &t)) as usize;
    }
    CorruptionRow {
        corruption,
        model: model.into(),
        accuracy: acc.map(|a| pct(a, set.len())),
        exact: pct(exact as f64, set.len()),
        valid: pct(valid as f64, set.len()),
    }
}

/// The latent-noise sweep for `which` (C, R, R-mono by default) at `levels`.
pub fn noise_sweep(
    m: &GrammarModels,
    g: &Grammar,
    set: &[Completion],
    which: &[GrammarModel],
    levels: &[f64],
    seed: u64,
    device: &Device,
) -> Vec<NoiseRow> {
    let prefixes: Vec<Vec<Symbol>> = set.iter().map(|c| c.prefix().to_vec()).collect();
    let mut rows = Vec::new();
    for &sigma in levels {
        for &model in which {
            assert!(model != GrammarModel::T, "T has no latents to perturb");
            let n = WINDOW - offset(model);
            let written = complete(m, model, &prefixes, n, sigma, seed, device);
            let (mut acc, mut valid) = (0.0, 0usize);
            for (c, w) in set.iter().zip(&written) {
                let want = c.continuation();
                let last = &w[w.len() - THOUGHTS..];
                let right = (0..THOUGHTS).filter(|&j| terminal(last[j]) == Some(want[THOUGHTS + j])).count();
                acc += right as f64 / THOUGHTS as f64;
                valid += terminals_of(w).is_some_and(|t| c.valid(g, &t)) as usize;
            }
            let valid = (model != GrammarModel::C).then(|| pct(valid as f64, set.len()));
            rows.push(NoiseRow { sigma, model: model.name().into(), accuracy: pct(acc, set.len()), valid });
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studies::grammar::data::TERMINAL0;

    #[test]
    fn step_k_is_the_share_right_among_the_first_k() {
        let want: Vec<Symbol> = vec![0, 1, 2, 0];
        let t = |s: &[u32]| s.iter().map(|&x| TERMINAL0 + x).collect::<Vec<_>>();
        assert_eq!(step_accuracy(&t(&[0, 1, 2, 0]), &want), [1.0; 4]);
        assert_eq!(step_accuracy(&t(&[0, 2, 2, 1]), &want), [1.0, 0.5, 2.0 / 3.0, 0.5]);
        // A token that is not a terminal (EOS) is wrong, and so is a missing one.
        assert_eq!(step_accuracy(&[2, TERMINAL0 + 1], &want), [0.0, 0.5, 1.0 / 3.0, 0.25]);
    }
}
