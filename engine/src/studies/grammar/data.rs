//! The grammar task's data (the JEPA-Reasoner paper, section 5.2.1): one fixed grammar per variant, sequences
//! sampled from it, the split, tokens, and the completion instances the robustness sweeps score.
//!
//! - **Variants.** `paper`: the paper's five-level grammar (sequences of 243-1,024 terminals;
//!   theirs are 600-700), for a GPU. `short`: the same construction with four levels (81-256
//!   terminals), what the shipped CPU-trained models learn; the deviation is in docs/results/grammar.md.
//! - **Split.** A pure function of a sequence's text: FNV-1a 64 of its digits `% 100` in `0..15`
//!   is test, `15..20` validation, else train. Every part is drawn from the grammar by rejection,
//!   so no test sequence is ever trained on.
//! - **Completion.** A sequence cut after `cut` terminals; the model reads BOS and the prefix and
//!   writes the next terminals, scored against the sequence's own continuation (exact match per
//!   position, as the paper's Table 5) and by whether prefix + completion still begins a sequence
//!   of the grammar (the parser).

use super::grammar::{Grammar, GrammarSpec, Symbol};
use super::parse::Chart;
use crate::gram::noise::NoiseSource;
use crate::tasks::split::{Part, fnv1a64};

pub const PAD: u32 = 0;
/// Start of a sequence; also the Dual-Talker's first decoder input.
pub const BOS: u32 = 1;
pub const EOS: u32 = 2;
/// Token of terminal `t` is `TERMINAL0 + t`.
pub const TERMINAL0: u32 = 3;
pub const VOCAB: usize = 6;
/// Tokens a completion model writes at most (the latent-noise test: 4 latents then 4 tokens).
pub const WINDOW: usize = 8;
/// The grammar's seed (both variants).
pub const GRAMMAR_SEED: u64 = 22;

/// Which grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum GrammarVariant {
    Short,
    Paper,
}

impl GrammarVariant {
    pub fn spec(self) -> GrammarSpec {
        match self {
            GrammarVariant::Paper => GrammarSpec::PAPER,
            GrammarVariant::Short => GrammarSpec { levels: 4, ..GrammarSpec::PAPER },
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            GrammarVariant::Short => "short",
            GrammarVariant::Paper => "paper",
        }
    }

    pub fn parse(text: &str) -> Option<GrammarVariant> {
        [GrammarVariant::Short, GrammarVariant::Paper].into_iter().find(|v| v.name() == text)
    }

    pub fn grammar(self) -> Grammar {
        Grammar::random(self.spec(), GRAMMAR_SEED)
    }

    /// Shortest and longest sequence: 3^levels and 4^levels terminals.
    pub fn lengths(self) -> (usize, usize) {
        let s = self.spec();
        (s.lengths.0.pow(s.levels as u32), s.lengths.1.pow(s.levels as u32))
    }

    /// Tokens of the longest training sequence (BOS + terminals + EOS).
    pub fn max_tokens(self) -> usize {
        self.lengths().1 + 2
    }

    /// The cut points of evaluation instances: 1/5 .. 4/5 of the shortest sequence, so every
    /// sequence has a full [`WINDOW`] after each.
    pub fn cuts(self) -> [usize; 4] {
        let m = self.lengths().0;
        [m / 5, 2 * m / 5, 3 * m / 5, 4 * m / 5]
    }

    /// The range training cuts are drawn from (inclusive).
    pub fn train_cuts(self) -> (usize, usize) {
        (4, self.lengths().0 - WINDOW)
    }
}

/// A sequence's text: its terminals as `1`/`2`/`3`, separated by spaces (the CLI's format).
pub fn text(seq: &[Symbol]) -> String {
    seq.iter().map(|&t| (t + 1).to_string()).collect::<Vec<_>>().join(" ")
}

/// Reads terminals written `1`/`2`/`3` separated by whitespace.
pub fn parse_text(line: &str, terminals: usize) -> Result<Vec<Symbol>, String> {
    line.split_whitespace()
        .enumerate()
        .map(|(i, w)| match w.parse::<usize>() {
            Ok(v) if (1..=terminals).contains(&v) => Ok(v as Symbol - 1),
            _ => Err(format!("token {} is {w:?}: terminals are 1 to {terminals}", i + 1)),
        })
        .collect()
}

/// The part a sequence belongs to.
pub fn part_of(seq: &[Symbol]) -> Part {
    let digits: String = seq.iter().map(|&t| char::from(b'1' + t as u8)).collect();
    match fnv1a64(&digits) % 100 {
        0..15 => Part::Test,
        15..20 => Part::Validation,
        _ => Part::Train,
    }
}

/// One sequence of `part`, drawn by rejection.
pub fn draw(grammar: &Grammar, rng: &mut NoiseSource, part: Part) -> Vec<Symbol> {
    loop {
        let s = grammar.sample(rng);
        if part_of(&s) == part {
            return s;
        }
    }
}

pub fn tokens(seq: &[Symbol]) -> Vec<u32> {
    seq.iter().map(|&t| TERMINAL0 + t as u32).collect()
}

/// The terminal a token stands for (`None` for PAD, BOS, EOS).
pub fn terminal(token: u32) -> Option<Symbol> {
    (TERMINAL0..TERMINAL0 + 3).contains(&token).then(|| (token - TERMINAL0) as Symbol)
}

/// The terminals of written tokens; `None` if one is not a terminal.
pub fn terminals_of(written: &[u32]) -> Option<Vec<Symbol>> {
    written.iter().map(|&t| terminal(t)).collect()
}

/// A token as the CLI and `/grammar` show it: a terminal `1`-`3`, or `EOS`, `BOS`, `PAD`.
pub fn token_name(token: u32) -> String {
    match (terminal(token), token) {
        (Some(s), _) => (s + 1).to_string(),
        (None, EOS) => "EOS".into(),
        (None, BOS) => "BOS".into(),
        _ => "PAD".into(),
    }
}

/// What a model reads for a prefix: BOS, then the prefix's tokens.
pub fn prompt(prefix: &[Symbol]) -> Vec<u32> {
    let mut t = vec![BOS];
    t.extend(tokens(prefix));
    t
}

/// BOS, the sequence, EOS.
pub fn full_tokens(seq: &[Symbol]) -> Vec<u32> {
    let mut t = prompt(seq);
    t.push(EOS);
    t
}

/// A completion instance: a held-out sequence and where it is cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub sequence: Vec<Symbol>,
    pub cut: usize,
}

impl Completion {
    pub fn prefix(&self) -> &[Symbol] {
        &self.sequence[..self.cut]
    }

    /// The next [`WINDOW`] terminals.
    pub fn continuation(&self) -> &[Symbol] {
        &self.sequence[self.cut..(self.cut + WINDOW).min(self.sequence.len())]
    }

    /// Whether the clean prefix followed by `written` still begins a sequence of the grammar.
    pub fn valid(&self, grammar: &Grammar, written: &[Symbol]) -> bool {
        let mut s = self.prefix().to_vec();
        s.extend_from_slice(written);
        Chart::new(grammar, &s).accepts_prefix()
    }
}

/// Completion instances of `part` (validation or test), a pure function of (variant, part, n):
/// instance `i` is cut at `cuts()[i % 4]`.
pub fn completions(variant: GrammarVariant, part: Part, n: usize) -> Vec<Completion> {
    let g = variant.grammar();
    let mut rng = NoiseSource::new(match part {
        Part::Test => 0x7e57_c0de,
        Part::Validation => 0x0a11_da7e,
        Part::Train => 0x7a1_2222,
    });
    let cuts = variant.cuts();
    (0..n).map(|i| Completion { sequence: draw(&g, &mut rng, part), cut: cuts[i % 4] }).collect()
}

/// `prefix` with `round(frac x len)` positions, chosen uniformly, each replaced by a different
/// terminal chosen uniformly (the JEPA-Reasoner paper, 5.2.3: random token corruption of the model's input).
/// Returns the corrupted prefix and the corrupted positions.
pub fn corrupt(prefix: &[Symbol], terminals: usize, frac: f64, rng: &mut NoiseSource) -> (Vec<Symbol>, Vec<usize>) {
    let n = ((frac * prefix.len() as f64).round() as usize).min(prefix.len());
    let mut order: Vec<usize> = (0..prefix.len()).collect();
    for i in 0..n {
        let j = i + rng.index(order.len() - i);
        order.swap(i, j);
    }
    let mut out = prefix.to_vec();
    let mut at: Vec<usize> = order[..n].to_vec();
    at.sort_unstable();
    for &p in &at {
        let shift = 1 + rng.index(terminals - 1);
        out[p] = ((out[p] as usize + shift) % terminals) as Symbol;
    }
    (out, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_disjoint_and_near_their_shares() {
        let g = GrammarVariant::Short.grammar();
        let mut rng = NoiseSource::new(5);
        let all: Vec<Vec<Symbol>> = (0..2000).map(|_| g.sample(&mut rng)).collect();
        let test = all.iter().filter(|s| part_of(s) == Part::Test).count();
        assert!((200..400).contains(&test), "{test} of 2000 in test");
        let tests = completions(GrammarVariant::Short, Part::Test, 40);
        let train: Vec<Vec<Symbol>> = (0..200).map(|_| draw(&g, &mut rng, Part::Train)).collect();
        assert!(tests.iter().all(|c| part_of(&c.sequence) == Part::Test && !train.contains(&c.sequence)));
        assert_eq!(tests, completions(GrammarVariant::Short, Part::Test, 40), "a pure function");
        let (lo, hi) = GrammarVariant::Short.lengths();
        assert_eq!((lo, hi), (81, 256));
        assert!(tests.iter().all(|c| (lo..=hi).contains(&c.sequence.len()) && c.continuation().len() == WINDOW));
    }

    /// The paper-length variant (the `grammar-paper-*` presets) makes its sequences and instances too,
    /// within the models' context.
    #[test]
    fn the_paper_variant_is_long_and_fits_its_context() {
        let v = GrammarVariant::Paper;
        assert_eq!(v.lengths(), (243, 1024));
        let g = v.grammar();
        for c in completions(v, Part::Validation, 4) {
            assert!(c.sequence.len() >= 243 && c.valid(&g, c.continuation()));
        }
        let config = crate::studies::grammar::models::GrammarConfig::scale(v, "small").unwrap();
        assert!(config.coupled.max_len >= v.max_tokens() + WINDOW);
        let (lo, hi) = v.train_cuts();
        assert!(lo < hi && hi + WINDOW <= v.lengths().0);
    }

    #[test]
    fn corruption_flips_exactly_its_share_to_other_terminals() {
        let prefix: Vec<Symbol> = (0..40).map(|i| (i % 3) as Symbol).collect();
        let mut rng = NoiseSource::new(1);
        for frac in [0.0, 0.1, 0.3] {
            let (out, at) = corrupt(&prefix, 3, frac, &mut rng);
            assert_eq!(at.len(), (frac * 40.0).round() as usize);
            let changed: Vec<usize> = (0..40).filter(|&i| out[i] != prefix[i]).collect();
            assert_eq!(changed, at, "every chosen position changes, no other does");
        }
    }

    #[test]
    fn the_true_continuation_is_valid_and_text_round_trips() {
        let g = GrammarVariant::Short.grammar();
        for c in completions(GrammarVariant::Short, Part::Validation, 8) {
            assert!(c.valid(&g, c.continuation()));
            assert_eq!(parse_text(&text(&c.sequence), 3).unwrap(), c.sequence);
        }
        assert!(parse_text("1 2 4", 3).unwrap_err().contains("token 3"));
        let names: Vec<String> = [PAD, BOS, EOS, TERMINAL0, TERMINAL0 + 2].map(token_name).to_vec();
        assert_eq!(names, ["PAD", "BOS", "EOS", "1", "3"]);
        assert_eq!(prompt(&[2, 0]), [BOS, TERMINAL0 + 2, TERMINAL0]);
    }
}
