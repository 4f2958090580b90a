//! Does a sequence derive from the root, and is it the start of one that does? Dynamic
//! programming over spans (CYK's idea on a levelled grammar, no normal form needed): for each
//! symbol, level by level from the terminals up, the ends `j` such that the symbol derives
//! `seq[i..j]`, for every start `i`. A rule's ends are its symbols' ends chained. The prefix
//! check adds, per symbol and start, whether `seq[i..]` is the beginning of something the symbol
//! derives. A parse tree is recovered from the table, and checked by re-deriving it.

use super::grammar::{Grammar, Symbol};

/// The span table of one sequence.
pub struct Chart<'a> {
    grammar: &'a Grammar,
    seq: Vec<Symbol>,
    /// `ends[s][i]`: sorted ends `j` with `s =>* seq[i..j]`.
    ends: Vec<Vec<Vec<u32>>>,
    /// `prefix[s][i]`: `seq[i..]` begins some string `s` derives.
    prefix: Vec<Vec<bool>>,
}

/// A derivation: a terminal, or a non-terminal with the index of its rule and the subtrees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    Leaf(Symbol),
    Node { symbol: Symbol, rule: usize, children: Vec<Tree> },
}

impl Tree {
    /// The terminals the tree derives, left to right.
    pub fn leaves(&self) -> Vec<Symbol> {
        match self {
            Tree::Leaf(t) => vec![*t],
            Tree::Node { children, .. } => children.iter().flat_map(Tree::leaves).collect(),
        }
    }

    /// Every node uses one of its symbol's rules, with the rule's symbols as children.
    pub fn follows(&self, g: &Grammar) -> bool {
        match self {
            Tree::Leaf(t) => g.is_terminal(*t),
            Tree::Node { symbol, rule, children } => {
                !g.is_terminal(*symbol)
                    && g.rules_of(*symbol)
                        .get(*rule)
                        .is_some_and(|r| r.len() == children.len() && r.iter().zip(children).all(|(&s, c)| c.symbol() == s && c.follows(g)))
            }
        }
    }

    pub fn symbol(&self) -> Symbol {
        match self {
            Tree::Leaf(t) => *t,
            Tree::Node { symbol, .. } => *symbol,
        }
    }
}

impl<'a> Chart<'a> {
    /// Fills the table for `seq` (symbols that are not terminals of the grammar match nothing).
    pub fn new(grammar: &'a Grammar, seq: &[Symbol]) -> Chart<'a> {
        let n = seq.len();
        let symbols = grammar.symbol_count();
        let mut ends = vec![Vec::new(); symbols];
        let mut prefix = vec![Vec::new(); symbols];
        for &t in grammar.level(grammar.depth()) {
            ends[t as usize] = (0..=n).map(|i| if i < n && seq[i] == t { vec![i as u32 + 1] } else { Vec::new() }).collect();
            prefix[t as usize] = (0..=n).map(|i| i == n || (i + 1 == n && seq[i] == t)).collect();
        }
        let mut seen = vec![false; n + 1];
        for l in (0..grammar.depth()).rev() {
            for &s in grammar.level(l) {
                let mut e = vec![Vec::new(); n + 1];
                let mut p = vec![false; n + 1];
                for (i, (ends_i, prefix_i)) in e.iter_mut().zip(p.iter_mut()).enumerate() {
                    *prefix_i = i == n;
                    for rule in grammar.rules_of(s) {
                        let mut frontier = vec![i as u32];
                        for &y in rule {
                            if frontier.iter().any(|&f| prefix[y as usize][f as usize]) {
                                *prefix_i = true;
                            }
                            frontier = step(&frontier, &ends[y as usize], &mut seen);
                            if frontier.is_empty() {
                                break;
                            }
                        }
                        ends_i.extend(frontier);
                    }
                    ends_i.sort_unstable();
                    ends_i.dedup();
                }
                ends[s as usize] = e;
                prefix[s as usize] = p;
            }
        }
        Chart { grammar, seq: seq.to_vec(), ends, prefix }
    }

    /// The whole sequence derives from the root.
    pub fn accepts(&self) -> bool {
        self.ends[self.grammar.root() as usize][0].contains(&(self.seq.len() as u32))
    }

    /// The sequence is the beginning of one that derives from the root (the empty sequence and
    /// every accepted one included).
    pub fn accepts_prefix(&self) -> bool {
        self.prefix[self.grammar.root() as usize][0]
    }

    /// A derivation of the whole sequence from the root, when there is one.
    pub fn tree(&self) -> Option<Tree> {
        self.accepts().then(|| self.derive(self.grammar.root(), 0, self.seq.len()).expect("the table says it derives"))
    }

    fn derive(&self, s: Symbol, i: usize, j: usize) -> Option<Tree> {
        if self.grammar.is_terminal(s) {
            return (j == i + 1 && self.seq[i] == s).then_some(Tree::Leaf(s));
        }
        if !self.ends[s as usize][i].contains(&(j as u32)) {
            return None;
        }
        self.grammar.rules_of(s).iter().enumerate().find_map(|(rule, symbols)| {
            let cuts = self.cuts(symbols, i, j)?;
            let children = symbols.iter().zip(cuts.windows(2)).map(|(&y, w)| self.derive(y, w[0], w[1])).collect::<Option<Vec<_>>>()?;
            Some(Tree::Node { symbol: s, rule, children })
        })
    }

    /// Positions `i = c0 < c1 < ... < ck = j` with `symbols[m] =>* seq[c_m..c_{m+1}]`.
    fn cuts(&self, symbols: &[Symbol], i: usize, j: usize) -> Option<Vec<usize>> {
        let Some((&first, rest)) = symbols.split_first() else { return (i == j).then(|| vec![j]) };
        self.ends[first as usize][i].iter().find_map(|&e| {
            let mut tail = self.cuts(rest, e as usize, j)?;
            tail.insert(0, i);
            Some(tail)
        })
    }
}

/// The ends reachable from `frontier` through one symbol's spans (sorted, deduplicated).
fn step(frontier: &[u32], ends: &[Vec<u32>], seen: &mut [bool]) -> Vec<u32> {
    let mut next = Vec::new();
    for &f in frontier {
        for &e in &ends[f as usize] {
            if !seen[e as usize] {
                seen[e as usize] = true;
                next.push(e);
            }
        }
    }
    for &e in &next {
        seen[e as usize] = false;
    }
    next.sort_unstable();
    next
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::gram::noise::NoiseSource;
    use crate::studies::grammar::GrammarSpec;

    /// Every string the grammar derives (small grammars only).
    fn language(g: &Grammar, s: Symbol) -> BTreeSet<Vec<Symbol>> {
        if g.is_terminal(s) {
            return BTreeSet::from([vec![s]]);
        }
        let mut out = BTreeSet::new();
        for rule in g.rules_of(s) {
            let mut partial = BTreeSet::from([Vec::new()]);
            for &y in rule {
                let ly = language(g, y);
                partial = partial.iter().flat_map(|p| ly.iter().map(move |x| [p.clone(), x.clone()].concat())).collect();
            }
            out.extend(partial);
        }
        out
    }

    #[test]
    fn every_generated_sequence_parses_and_its_tree_re_derives_it() {
        let g = Grammar::random(GrammarSpec::PAPER, 7);
        let mut rng = NoiseSource::new(11);
        for _ in 0..20 {
            let seq = g.sample(&mut rng);
            let chart = Chart::new(&g, &seq);
            assert!(chart.accepts() && chart.accepts_prefix());
            let tree = chart.tree().unwrap();
            assert!(tree.follows(&g) && tree.symbol() == g.root());
            assert_eq!(tree.leaves(), seq);
            for cut in [0, 1, seq.len() / 2, seq.len() - 1] {
                assert!(Chart::new(&g, &seq[..cut]).accepts_prefix(), "a prefix of a sequence is a prefix");
            }
        }
    }

    /// On grammars small enough to list their language, the checks agree exactly with the list
    /// for every sequence and every single-token edit (substitution, deletion, insertion) of it.
    #[test]
    fn single_token_edits_are_judged_exactly() {
        let spec = GrammarSpec { levels: 3, per_level: 2, terminals: 3, rules: (2, 2), lengths: (2, 3) };
        for seed in 0..4 {
            let g = Grammar::random(spec, seed);
            let lang = language(&g, g.root());
            let prefixes: BTreeSet<Vec<Symbol>> = lang.iter().flat_map(|s| (0..=s.len()).map(|k| s[..k].to_vec())).collect();
            let mut caught = 0;
            for s in &lang {
                let mut edits = Vec::new();
                for k in 0..s.len() {
                    for t in 0..3 {
                        let mut e = s.clone();
                        e[k] = t;
                        edits.push(e);
                        let mut ins = s.clone();
                        ins.insert(k, t);
                        edits.push(ins);
                    }
                    let mut del = s.clone();
                    del.remove(k);
                    edits.push(del);
                }
                for e in edits.iter().chain([s]) {
                    let chart = Chart::new(&g, e);
                    assert_eq!(chart.accepts(), lang.contains(e), "seed {seed}: {e:?}");
                    assert_eq!(chart.accepts_prefix(), prefixes.contains(e), "seed {seed}: prefix {e:?}");
                    assert_eq!(chart.tree().is_some(), lang.contains(e));
                    caught += usize::from(!lang.contains(e));
                }
            }
            assert!(caught > 0, "no edit broke any sequence");
        }
    }

    #[test]
    fn foreign_symbols_and_empty_input_are_handled() {
        let g = Grammar::random(GrammarSpec::PAPER, 1);
        assert!(!Chart::new(&g, &[]).accepts());
        assert!(Chart::new(&g, &[]).accepts_prefix());
        let mut seq = g.sample(&mut NoiseSource::new(1));
        seq[3] = 99;
        assert!(!Chart::new(&g, &seq).accepts());
        assert!(!Chart::new(&g, &seq).accepts_prefix());
    }
}
