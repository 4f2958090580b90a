//! What the `/grammar` page shows about one held-out sequence: its derivation folded to a
//! readable depth, the prefix as a model reads it after corruption (which terminals flipped),
//! each model's completion marked token by token and judged by the grammar, and the
//! accuracy-against-corruption curve of this one sequence (T and R, several corruption draws per
//! level). The page renders it; every figure comes from here.

use burn::tensor::Device;
use serde::{Deserialize, Serialize};

use super::complete::{complete, instance_noise, offset};
use super::data::{Completion, GrammarVariant, WINDOW, completions, corrupt, terminal, terminals_of, token_name};
use super::grammar::{Grammar, Symbol};
use super::models::{GrammarModel, GrammarModels};
use super::parse::{Chart, Tree};
use super::sweep::{STEPS, step_accuracy};
use crate::tasks::split::Part;

/// Corruption draws behind each point of `/grammar`'s curve (its worker and `native-trainer
/// record` both draw this many).
pub const DRAWS: usize = 8;

/// `/grammar`'s held-out sequence number `k` (0-based) with its cut: the `k + 1`-th test completion.
pub fn held_out(variant: GrammarVariant, k: usize) -> Completion {
    completions(variant, Part::Test, k + 1).pop().expect("one instance at least")
}

/// The page's corruption and latent noise are shares between 0 and 1; a readable error otherwise.
pub fn check_levels(corrupt: f64, noise: f64) -> Result<(), String> {
    for (name, x) in [("corruption", corrupt), ("latent noise", noise)] {
        if !(x.is_finite() && (0.0..=1.0).contains(&x)) {
            return Err(format!("{name} must be between 0 and 1, not {x}"));
        }
    }
    Ok(())
}

/// A node of the folded derivation: a non-terminal over the terminals `start..end`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Span {
    pub name: String,
    pub depth: usize,
    pub start: usize,
    pub end: usize,
}

/// One model's completion.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Written {
    /// `t`, `c`, `r`, `r-mono`.
    pub model: String,
    /// Tokens as text (`1`-`3`, or `EOS`...), one per continuation position from `offset`.
    pub tokens: Vec<String>,
    /// Continuation positions skipped (C's thoughts).
    pub offset: usize,
    /// Each token equals the sequence's own at its position.
    pub right: Vec<bool>,
    /// The clean prefix followed by these tokens begins a sequence of the grammar (not for C,
    /// whose thoughts are not tokens).
    pub valid: Option<bool>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GrammarView {
    /// The whole held-out sequence, terminals `0..3`.
    pub sequence: Vec<Symbol>,
    pub cut: usize,
    /// The prefix the models read, after corruption.
    pub seen: Vec<Symbol>,
    /// Positions (0-based) the corruption flipped.
    pub flipped: Vec<usize>,
    /// The derivation's non-terminals down to `depth` levels below the root.
    pub derivation: Vec<Span>,
    pub answers: Vec<Written>,
    /// (corruption, [(model, accuracy % over 4 tokens, mean over the draws)]) for this sequence,
    /// filled one [`curve_point`] at a time.
    pub curve: Vec<(f64, Vec<(String, f64)>)>,
    /// Corruption draws behind each point of the curve.
    pub draws: usize,
    /// The grammar's rules, one per line: `N0_0 -> N1_0 N1_2 N1_1`.
    pub rules: Vec<String>,
}

/// Every rule of the grammar as `A -> B C D`, the root's first, level by level.
pub fn rule_lines(g: &Grammar) -> Vec<String> {
    (0..g.depth())
        .flat_map(|l| g.level(l).iter().copied())
        .flat_map(|s| g.rules_of(s).iter().map(move |r| (s, r)))
        .map(|(s, r)| format!("{} -> {}", g.name(s), r.iter().map(|&x| g.name(x)).collect::<Vec<_>>().join(" ")))
        .collect()
}

/// The derivation's spans down to `depth` (root = depth 0), in pre-order.
pub fn fold(grammar: &Grammar, tree: &Tree, depth: usize) -> Vec<Span> {
    fn walk(g: &Grammar, t: &Tree, d: usize, max: usize, at: &mut usize, out: &mut Vec<Span>) {
        match t {
            Tree::Leaf(_) => *at += 1,
            Tree::Node { symbol, children, .. } => {
                let start = *at;
                let slot = out.len();
                if d <= max {
                    out.push(Span { name: g.name(*symbol), depth: d, start, end: start });
                }
                for c in children {
                    walk(g, c, d + 1, max, at, out);
                }
                if d <= max {
                    out[slot].end = *at;
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(grammar, tree, 0, depth, &mut 0, &mut out);
    out
}

/// One point of the sequence's curve: T's and R's 4-token accuracy (%) at corruption `frac`,
/// the mean over `draws` random corruptions of the prefix (noise-free models). The page asks for
/// the [`super::sweep::CORRUPTION`] levels one at a time and draws each point as it comes.
pub fn curve_point(
    m: &GrammarModels,
    g: &Grammar,
    instance: &Completion,
    frac: f64,
    seed: u64,
    draws: usize,
    device: &Device,
) -> (f64, Vec<(String, f64)>) {
    let want = instance.continuation();
    let prefixes: Vec<Vec<Symbol>> =
        (0..draws).map(|d| corrupt(instance.prefix(), g.terminals(), frac, &mut instance_noise(seed ^ 0xcc_u64, d)).0).collect();
    let points = [GrammarModel::T, GrammarModel::R]
        .into_iter()
        .map(|model| {
            let written = complete(m, model, &prefixes, STEPS, 0.0, seed, device);
            let acc: f64 = written.iter().map(|w| step_accuracy(w, want)[STEPS - 1]).sum::<f64>() / draws as f64;
            (model.name().to_string(), 100.0 * acc)
        })
        .collect();
    (frac, points)
}

/// Everything `/grammar` shows for `instance` with the given corruption and latent noise, but
/// the curve (empty here: [`curve_point`] for each of the [`super::sweep::CORRUPTION`] levels).
// The page's request, field by field (sequence, corruption, noise, seed, draws), as the worker and `record` both pass it.
#[allow(clippy::too_many_arguments)]
pub fn explore(
    m: &GrammarModels,
    g: &Grammar,
    instance: &Completion,
    corruption: f64,
    noise: f64,
    seed: u64,
    draws: usize,
    device: &Device,
) -> GrammarView {
    let (seen, flipped) = corrupt(instance.prefix(), g.terminals(), corruption, &mut instance_noise(seed ^ 0xc0_4447, 0));
    let want = instance.continuation();
    let answers = [GrammarModel::T, GrammarModel::C, GrammarModel::R]
        .into_iter()
        .map(|model| {
            let skip = offset(model);
            let w = complete(m, model, std::slice::from_ref(&seen), STEPS, noise, seed, device).remove(0);
            Written {
                model: model.name().into(),
                tokens: w.iter().map(|&t| token_name(t)).collect(),
                offset: skip,
                right: w.iter().enumerate().map(|(j, &t)| terminal(t) == Some(want[skip + j])).collect(),
                valid: (model != GrammarModel::C).then(|| terminals_of(&w).is_some_and(|t| instance.valid(g, &t))),
            }
        })
        .collect();
    let derivation = Chart::new(g, &instance.sequence).tree().map_or_else(Vec::new, |t| fold(g, &t, 2));
    debug_assert!(want.len() == WINDOW);
    GrammarView {
        sequence: instance.sequence.clone(),
        cut: instance.cut,
        seen,
        flipped,
        derivation,
        answers,
        curve: Vec::new(),
        draws,
        rules: rule_lines(g),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studies::grammar::data::{GrammarVariant, completions};
    use crate::tasks::split::Part;

    #[test]
    fn the_folded_derivation_tiles_the_sequence_level_by_level() {
        let g = GrammarVariant::Short.grammar();
        let c = &completions(GrammarVariant::Short, Part::Test, 1)[0];
        let tree = Chart::new(&g, &c.sequence).tree().unwrap();
        let spans = fold(&g, &tree, 2);
        assert_eq!((spans[0].name.as_str(), spans[0].start, spans[0].end), ("N0_0", 0, c.sequence.len()));
        for d in 1..=2 {
            let level: Vec<&Span> = spans.iter().filter(|s| s.depth == d).collect();
            assert!(level.len() >= 3usize.pow(d as u32) && level.windows(2).all(|w| w[0].end == w[1].start));
            assert_eq!((level[0].start, level.last().unwrap().end), (0, c.sequence.len()), "depth {d} covers it all");
        }
        assert!(spans.iter().all(|s| s.depth <= 2));
        let rules = rule_lines(&g);
        assert!(rules[0].starts_with("N0_0 -> N1_"));
        let last: Vec<&String> = rules.iter().filter(|r| r.starts_with("N3_")).collect();
        assert!(!last.is_empty() && last.iter().all(|r| r.split(" -> ").nth(1).unwrap().split(' ').all(|x| ["1", "2", "3"].contains(&x))));
        assert_eq!(rules.len(), (0..g.depth()).flat_map(|l| g.level(l).to_vec()).map(|s| g.rules_of(s).len()).sum::<usize>());
    }
}
