//! A levelled context-free grammar built the way Allen-Zhu & Li build theirs (the JEPA-Reasoner paper,
//! appendix B.1): the root at level 0, a few non-terminals at each further level, the terminals
//! last; every rule of a level-l symbol is a sequence of 3 or 4 level-(l+1) symbols, so a
//! sequence is the root expanded level by level, and every string a symbol derives has a length
//! between 3^depth and 4^depth.

use std::collections::BTreeSet;

use crate::gram::noise::NoiseSource;

/// A symbol: terminals are `0..terminals`, non-terminals follow them.
pub type Symbol = u16;

/// The shape of a random grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrammarSpec {
    /// Levels of rules from the root to the terminals (the JEPA-Reasoner paper: 5).
    pub levels: usize,
    /// Non-terminals at each level below the root.
    pub per_level: usize,
    /// Terminal symbols (the JEPA-Reasoner paper: 3).
    pub terminals: usize,
    /// Rules per non-terminal, inclusive range.
    pub rules: (usize, usize),
    /// Rule lengths, inclusive range (the JEPA-Reasoner paper: 3 or 4).
    pub lengths: (usize, usize),
}

impl GrammarSpec {
    /// The JEPA-Reasoner paper's grammar: five levels, three terminals, rules of length 3 or 4; three
    /// non-terminals per level and 2-3 rules each, as Allen-Zhu & Li's cfg3 family. Sequences of
    /// 243-1,024 terminals (the paper's are 600-700).
    pub const PAPER: GrammarSpec = GrammarSpec { levels: 5, per_level: 3, terminals: 3, rules: (2, 3), lengths: (3, 4) };
}

/// A levelled grammar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grammar {
    terminals: usize,
    /// The symbols of each level: `levels[0]` is the root alone, the last level the terminals.
    levels: Vec<Vec<Symbol>>,
    /// `rules[s - terminals]`: the rules of non-terminal `s`.
    rules: Vec<Vec<Vec<Symbol>>>,
}

impl Grammar {
    /// A random grammar of `spec`, a pure function of `seed`: each non-terminal's rules are
    /// distinct sequences of next-level symbols drawn uniformly, and no two non-terminals of a
    /// level share the same set of rules.
    pub fn random(spec: GrammarSpec, seed: u64) -> Grammar {
        assert!(spec.levels >= 1 && spec.per_level >= 1 && spec.terminals >= 2, "a grammar needs levels and symbols");
        assert!(1 <= spec.rules.0 && spec.rules.0 <= spec.rules.1 && 1 <= spec.lengths.0 && spec.lengths.0 <= spec.lengths.1);
        let mut rng = NoiseSource::new(seed ^ 0xcf9_0000);
        let t = spec.terminals;
        let mut levels = vec![vec![t as Symbol]];
        let mut next = t as Symbol + 1;
        for _ in 1..spec.levels {
            levels.push((0..spec.per_level).map(|k| next + k as Symbol).collect());
            next += spec.per_level as Symbol;
        }
        levels.push((0..t as Symbol).collect());
        let mut rules = vec![Vec::new(); next as usize - t];
        for l in 0..spec.levels {
            let below = &levels[l + 1];
            let mut seen_sets = BTreeSet::new();
            for &s in &levels[l] {
                loop {
                    let count = spec.rules.0 + rng.index(spec.rules.1 - spec.rules.0 + 1);
                    let mut set = BTreeSet::new();
                    while set.len() < count {
                        let len = spec.lengths.0 + rng.index(spec.lengths.1 - spec.lengths.0 + 1);
                        set.insert((0..len).map(|_| below[rng.index(below.len())]).collect::<Vec<_>>());
                    }
                    if seen_sets.insert(set.clone()) {
                        rules[s as usize - t] = set.into_iter().collect();
                        break;
                    }
                }
            }
        }
        Grammar { terminals: t, levels, rules }
    }

    /// A grammar from explicit rules (tests, imports): `levels` from the root down to the
    /// terminals, `rules` per non-terminal in symbol order. Checked: every rule of a level's
    /// symbol uses only the next level's symbols.
    pub fn from_rules(terminals: usize, levels: Vec<Vec<Symbol>>, rules: Vec<Vec<Vec<Symbol>>>) -> Result<Grammar, String> {
        let g = Grammar { terminals, levels, rules };
        for (l, level) in g.levels.iter().enumerate().take(g.levels.len().saturating_sub(1)) {
            for &s in level {
                let below = &g.levels[l + 1];
                let rs = g.rules.get((s as usize).wrapping_sub(terminals)).ok_or(format!("no rules for symbol {s}"))?;
                if rs.is_empty() || rs.iter().any(|r| r.is_empty() || r.iter().any(|x| !below.contains(x))) {
                    return Err(format!("symbol {s}: a rule is empty or leaves level {}", l + 1));
                }
            }
        }
        Ok(g)
    }

    pub fn terminals(&self) -> usize {
        self.terminals
    }

    pub fn root(&self) -> Symbol {
        self.levels[0][0]
    }

    /// One more than the largest symbol: the length of a table indexed by symbol.
    pub fn symbol_count(&self) -> usize {
        self.levels.iter().flatten().map(|&s| s as usize + 1).max().unwrap_or(0)
    }

    /// Levels of rules (the root's depth above the terminals).
    pub fn depth(&self) -> usize {
        self.levels.len() - 1
    }

    /// The symbols of level `l`, root first, terminals last.
    pub fn level(&self, l: usize) -> &[Symbol] {
        &self.levels[l]
    }

    pub fn is_terminal(&self, s: Symbol) -> bool {
        (s as usize) < self.terminals
    }

    /// The rules of non-terminal `s`.
    pub fn rules_of(&self, s: Symbol) -> &[Vec<Symbol>] {
        &self.rules[s as usize - self.terminals]
    }

    /// A symbol's name in the JSON form: terminals `1`, `2`, `3`; non-terminals `N<level>_<k>`
    /// (`N0_0` the root).
    pub fn name(&self, s: Symbol) -> String {
        if self.is_terminal(s) {
            return (s + 1).to_string();
        }
        let (l, k) = self
            .levels
            .iter()
            .enumerate()
            .find_map(|(l, lv)| lv.iter().position(|&x| x == s).map(|k| (l, k)))
            .expect("a symbol of the grammar");
        format!("N{l}_{k}")
    }

    /// Expands the root with a uniformly chosen rule at every step: one random sequence.
    pub fn sample(&self, rng: &mut NoiseSource) -> Vec<Symbol> {
        let mut out = Vec::new();
        let mut stack = vec![self.root()];
        while let Some(s) = stack.pop() {
            if self.is_terminal(s) {
                out.push(s);
            } else {
                let rules = self.rules_of(s);
                stack.extend(rules[rng.index(rules.len())].iter().rev());
            }
        }
        out
    }

    /// `{"start": ..., "rules": {NONTERMINAL: [[SYMBOL, ...], ...]}, "terminals": [...]}`: what
    /// anyone needs to check sequences with their own parser.
    pub fn to_json(&self) -> serde_json::Value {
        let rules: serde_json::Map<String, serde_json::Value> = self.levels[..self.depth()]
            .iter()
            .flatten()
            .map(|&s| {
                let rs: Vec<Vec<String>> = self.rules_of(s).iter().map(|r| r.iter().map(|&x| self.name(x)).collect()).collect();
                (self.name(s), serde_json::json!(rs))
            })
            .collect();
        let terminals: Vec<String> = (0..self.terminals as Symbol).map(|t| self.name(t)).collect();
        serde_json::json!({ "start": self.name(self.root()), "rules": rules, "terminals": terminals })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_paper_grammar_is_levelled_seeded_and_makes_long_sequences() {
        let g = Grammar::random(GrammarSpec::PAPER, 1);
        assert_eq!(g, Grammar::random(GrammarSpec::PAPER, 1), "a pure function of the seed");
        assert_ne!(g, Grammar::random(GrammarSpec::PAPER, 2));
        assert_eq!(g.depth(), 5);
        assert_eq!(g.terminals(), 3);
        for l in 0..g.depth() {
            for &s in g.level(l) {
                let rules = g.rules_of(s);
                assert!((2..=3).contains(&rules.len()));
                assert!(rules.iter().all(|r| (3..=4).contains(&r.len()) && r.iter().all(|x| g.level(l + 1).contains(x))));
            }
        }
        let mut rng = NoiseSource::new(3);
        for _ in 0..50 {
            let s = g.sample(&mut rng);
            assert!((243..=1024).contains(&s.len()), "{}", s.len());
            assert!(s.iter().all(|&t| g.is_terminal(t)));
        }
        let json = g.to_json();
        assert_eq!(json["start"], "N0_0");
        assert_eq!(json["terminals"], serde_json::json!(["1", "2", "3"]));
        assert_eq!(json["rules"].as_object().unwrap().len(), 1 + 4 * 3);
    }

    #[test]
    fn explicit_rules_are_checked() {
        let ok = Grammar::from_rules(2, vec![vec![2], vec![0, 1]], vec![vec![vec![0, 1, 1]]]);
        assert!(ok.is_ok());
        let bad = Grammar::from_rules(2, vec![vec![2], vec![0, 1]], vec![vec![vec![0, 2]]]);
        assert!(bad.unwrap_err().contains("leaves level 1"));
    }
}
