//! Tree route search (the JEPA-Reasoner paper, section 5.1.1 and appendix A): a random full binary tree of at
//! most 4 levels whose nodes carry distinct random capital letters; the task names the root and
//! a target leaf, and the answer is the route from the root down to that leaf.
//!
//! Text format (appendix A), edges parent-child in breadth-first order, children of one parent
//! next to each other:
//!
//! `NL, NO, LJ, LI, OA, OM, JB, JH, IG, IF, AD, AE, MK, MC[ROOT]N[TARGET]K[ROUTE]NOMK`
//!
//! Spaces are layout only (the paper's own example has one inside a pair, `A E`). Tokens
//! (vocabulary 32): 0 pad, 1 end of sentence, 2 comma, 3 `[ROOT]`, 4 `[TARGET]`, 5 `[ROUTE]`,
//! 6..=31 the letters `A`..=`Z`.
//!
//! Split: a task is held out iff the FNV-1a 64-bit hash of its input text (everything up to and
//! including `[ROUTE]`, exactly as [`TreeTask::input_text`] writes it, `, ` between edges) is `< 15` modulo 100 — a pure function of the text anyone can recompute.

//!
//! Files: [`shape`] the tree itself (parse, random, route, layout), [`data`] the split and the
//! held-out set, [`reasoner`] the JEPA-Reasoner's solve/eval/explain on this task, [`recorded`]
//! an answer recorded ahead for the page, [`task`] the task interface.

use std::fmt;

mod data;
pub mod reasoner;
pub mod recorded;
mod shape;
mod task;
#[cfg(test)]
pub(crate) mod training_tests;

pub use crate::tasks::split::Part;
pub use data::{draw, part_of, test_set, train_sample, validation_set};
pub use task::{TEST_TREES, Trees, reasoner_config};

use crate::gram::noise::NoiseSource;

pub const PAD: u32 = 0;
pub const EOS: u32 = 1;
pub const COMMA: u32 = 2;
pub const ROOT: u32 = 3;
pub const TARGET: u32 = 4;
pub const ROUTE: u32 = 5;
/// Token of the letter `A`; `Z` is `LETTER0 + 25`.
pub const LETTER0: u32 = 6;
pub const VOCAB: usize = 32;
/// Most levels a tree may have (root = level 1).
pub const MAX_LEVELS: usize = 4;
/// Longest token sequence: 14 edges (28 letters, 13 commas), `[ROOT] r [TARGET] t [ROUTE]`, a
/// route of 4 letters and the end of sentence.
pub const MAX_LEN: usize = 28 + 13 + 5 + 4 + 1;
/// Latents the Reasoner writes after `[ROUTE]`: the longest route plus its end of sentence.
pub const ROUTE_LATENTS: usize = MAX_LEVELS + 1;

/// Printable name of a token.
pub fn token_name(t: u32) -> String {
    match t {
        PAD => "[PAD]".into(),
        EOS => "[EOS]".into(),
        COMMA => ",".into(),
        ROOT => "[ROOT]".into(),
        TARGET => "[TARGET]".into(),
        ROUTE => "[ROUTE]".into(),
        t if (LETTER0..LETTER0 + 26).contains(&t) => ((b'A' + (t - LETTER0) as u8) as char).to_string(),
        t => format!("[{t}?]"),
    }
}

fn letter_token(c: u8) -> u32 {
    LETTER0 + (c - b'A') as u32
}

/// A full binary tree: every node has 0 or 2 children. Nodes are capital letters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    root: u8,
    /// (parent, child) in breadth-first order, two per internal node.
    edges: Vec<(u8, u8)>,
}

/// A question about a tree: the route from the root to `target`, a leaf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeTask {
    pub tree: Tree,
    pub target: u8,
}

/// Why a text is not a valid task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeError(pub String);

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TreeError {}

/// The task's reason, as every task's parse answers it.
impl From<TreeError> for crate::tasks::PuzzleError {
    fn from(e: TreeError) -> Self {
        crate::tasks::PuzzleError::Task(crate::tasks::TaskReason::new(e))
    }
}

pub(crate) fn err<T>(m: impl Into<String>) -> Result<T, TreeError> {
    Err(TreeError(m.into()))
}

/// Probability that a non-root node above the last level has children, for generated trees.
pub const P_EXPAND: f64 = 0.8;

impl TreeTask {
    /// A random tree and a uniformly chosen leaf.
    pub fn random(rng: &mut NoiseSource) -> TreeTask {
        let tree = Tree::random(rng, P_EXPAND);
        let leaves = tree.leaves();
        let target = leaves[rng.index(leaves.len())];
        TreeTask { tree, target }
    }

    /// The answer: root ... target.
    pub fn route(&self) -> Vec<u8> {
        self.tree.route_to(self.target)
    }

    pub fn route_text(&self) -> String {
        self.route().iter().map(|&c| c as char).collect()
    }

    /// `NL, NO, ...[ROOT]N[TARGET]K[ROUTE]`: what the model reads.
    pub fn input_text(&self) -> String {
        format!("{}[ROOT]{}[TARGET]{}[ROUTE]", self.tree.edges_text(), self.tree.root as char, self.target as char)
    }

    /// The full line with the answer.
    pub fn full_text(&self) -> String {
        format!("{}{}", self.input_text(), self.route_text())
    }

    /// Tokens of the input, ending with `[ROUTE]`.
    pub fn input_tokens(&self) -> Vec<u32> {
        let mut t = Vec::with_capacity(MAX_LEN);
        for (i, &(p, c)) in self.tree.edges.iter().enumerate() {
            if i > 0 {
                t.push(COMMA);
            }
            t.push(letter_token(p));
            t.push(letter_token(c));
        }
        t.extend([ROOT, letter_token(self.tree.root), TARGET, letter_token(self.target), ROUTE]);
        t
    }

    /// The route's tokens followed by the end of sentence: what the latents after `[ROUTE]` mean.
    pub fn route_tokens(&self) -> Vec<u32> {
        let mut t: Vec<u32> = self.route().into_iter().map(letter_token).collect();
        t.push(EOS);
        t
    }

    /// Input, route and end of sentence.
    pub fn full_tokens(&self) -> Vec<u32> {
        let mut t = self.input_tokens();
        t.extend(self.route_tokens());
        t
    }

    /// Parses a line in the appendix-A format up to and including `[ROUTE]`. Every rule is
    /// checked: pairs of capital letters separated by commas, a full binary tree of at most four
    /// levels, the `[ROOT]` is its root, the `[TARGET]` one of its leaves.
    pub fn parse(line: &str) -> Result<TreeTask, TreeError> {
        let line = line.trim();
        let Some((edges_part, rest)) = line.split_once("[ROOT]") else {
            return err("missing [ROOT]: the format is `AB, AC, ...[ROOT]A[TARGET]B[ROUTE]`");
        };
        let Some((root_part, rest)) = rest.split_once("[TARGET]") else {
            return err("missing [TARGET] after [ROOT]");
        };
        let Some((target_part, after)) = rest.split_once("[ROUTE]") else {
            return err("missing [ROUTE] after [TARGET]");
        };
        if !after.trim().is_empty() {
            return err(format!("text after [ROUTE] ({:?}): give the input only, the route is what the model writes", after.trim()));
        }
        let one_letter = |s: &str, what: &str| -> Result<u8, TreeError> {
            let s = s.trim();
            match s.as_bytes() {
                [c] if c.is_ascii_uppercase() => Ok(*c),
                _ => err(format!("{what} must be one capital letter, found {s:?}")),
            }
        };
        let root = one_letter(root_part, "[ROOT]")?;
        let target = one_letter(target_part, "[TARGET]")?;
        let mut edges = Vec::new();
        for (i, pair) in edges_part.split(',').enumerate() {
            let letters: Vec<u8> = pair.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
            match letters.as_slice() {
                [p, c] if p.is_ascii_uppercase() && c.is_ascii_uppercase() => edges.push((*p, *c)),
                _ => {
                    return err(format!("edge {} is {:?}: an edge is two capital letters, parent then child", i + 1, pair.trim()));
                }
            }
        }
        let tree = Tree::new(root, &edges)?;
        if !tree.contains(target) {
            return err(format!("the target {} is not in the tree", target as char));
        }
        if !tree.children(target).is_empty() {
            return err(format!("the target {} is not a leaf", target as char));
        }
        Ok(TreeTask { tree, target })
    }
}

/// Turns decoded route tokens (up to the end of sentence) into letters; `None` if a token is not
/// a letter.
pub fn route_from_tokens(tokens: &[u32]) -> Option<String> {
    let mut s = String::new();
    for &t in tokens {
        if t == EOS {
            return Some(s);
        }
        if !(LETTER0..LETTER0 + 26).contains(&t) {
            return None;
        }
        s.push((b'A' + (t - LETTER0) as u8) as char);
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::fnv1a64;

    #[test]
    fn layout_puts_leaves_in_order_and_parents_over_children() {
        let t = TreeTask::parse(EXAMPLE).unwrap().tree;
        let pos = t.layout();
        assert_eq!(pos.len(), 15);
        assert_eq!(pos[0], (b'N', pos[0].1, 0));
        let at = |n: u8| *pos.iter().find(|p| p.0 == n).unwrap();
        let mut leaf_x: Vec<(f64, u8)> = t.leaves().iter().map(|&l| (at(l).1, l)).collect();
        leaf_x.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert_eq!(leaf_x.iter().map(|p| p.0).collect::<Vec<_>>(), (0..8).map(f64::from).collect::<Vec<_>>());
        assert_eq!(leaf_x.iter().map(|p| p.1 as char).collect::<String>(), "BHGFDEKC");
        for &(p, c) in t.edges() {
            assert_eq!(at(c).2, at(p).2 + 1);
            let kids = t.children(p);
            assert_eq!(at(p).1, (at(kids[0]).1 + at(kids[1]).1) / 2.0);
        }
    }

    const EXAMPLE: &str = "NL, NO, LJ, LI, OA, OM, JB, JH, IG, IF, AD, A E, MK, MC[ROOT]N[TARGET]K[ROUTE]";

    #[test]
    fn the_papers_example_parses_and_routes() {
        let t = TreeTask::parse(EXAMPLE).unwrap();
        assert_eq!(t.route_text(), "NOMK");
        assert_eq!(t.tree.levels(), 4);
        assert_eq!(t.tree.sibling(b'M'), Some(b'A'));
        assert_eq!(t.input_text(), EXAMPLE.replace("A E", "AE"));
        assert_eq!(TreeTask::parse(&t.input_text()).unwrap(), t);
        let toks = t.full_tokens();
        assert_eq!(toks.len(), MAX_LEN);
        assert_eq!(toks.iter().map(|&x| token_name(x)).collect::<String>(), format!("{}NOMK[EOS]", t.input_text().replace(' ', "")));
        assert_eq!(route_from_tokens(&t.route_tokens()).unwrap(), "NOMK");
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let cases = [
            ("NL, NO[ROOT]N[TARGET]L", "missing [ROUTE]"),
            ("NL, NO[TARGET]L[ROUTE]", "missing [ROOT]"),
            ("NL, NO[ROOT]N[TARGET]L[ROUTE]NL", "text after [ROUTE]"),
            ("NL, N[ROOT]N[TARGET]L[ROUTE]", "edge 2"),
            ("NL, NO, NP[ROOT]N[TARGET]L[ROUTE]", "3 children"),
            ("NL[ROOT]N[TARGET]L[ROUTE]", "1 children"),
            ("NL, NO, LO, LP[ROOT]N[TARGET]P[ROUTE]", "two parents"),
            ("NL, NO[ROOT]L[TARGET]O[ROUTE]", "root L has a parent"),
            ("NL, NO[ROOT]N[TARGET]Q[ROUTE]", "not in the tree"),
            ("NL, NO, LA, LB[ROOT]N[TARGET]L[ROUTE]", "not a leaf"),
            ("NL, NO, XA, XB[ROOT]N[TARGET]L[ROUTE]", "not connected"),
            ("NL, NO[ROOT]n[TARGET]L[ROUTE]", "capital letter"),
            ("NA, NB, AC, AD, CE, CF, EG, EH[ROOT]N[TARGET]G[ROUTE]", "deeper than 4"),
        ];
        for (line, want) in cases {
            let e = TreeTask::parse(line).unwrap_err().to_string();
            assert!(e.contains(want), "{line}: {e}");
        }
    }

    #[test]
    fn generated_tasks_are_valid_and_varied() {
        let mut rng = NoiseSource::new(1);
        let mut lens = [0usize; MAX_LEVELS + 1];
        for _ in 0..2000 {
            let t = TreeTask::random(&mut rng);
            assert_eq!(TreeTask::parse(&t.input_text()).unwrap(), t);
            let r = t.route();
            assert_eq!(r[0], t.tree.root());
            assert_eq!(*r.last().unwrap(), t.target);
            for w in r.windows(2) {
                assert_eq!(t.tree.parent(w[1]), Some(w[0]));
            }
            assert!(t.full_tokens().len() <= MAX_LEN);
            lens[r.len()] += 1;
        }
        assert!(lens[2] > 50 && lens[3] > 200 && lens[4] > 800, "{lens:?}");
    }

    #[test]
    fn split_is_disjoint_stable_and_pinned() {
        let test = test_set(200);
        assert_eq!(test, test_set(200));
        assert!(test.iter().all(|t| part_of(t) == Part::Test));
        let mut rng = NoiseSource::new(5);
        let train: Vec<_> = (0..2000).map(|_| draw(&mut rng, Part::Train)).collect();
        let held: std::collections::HashSet<_> = test.iter().map(|t| t.input_text()).collect();
        assert!(train.iter().all(|t| !held.contains(&t.input_text()) && part_of(t) == Part::Train));
        let validation = validation_set(100);
        assert!(validation.iter().all(|t| part_of(t) == Part::Validation && !held.contains(&t.input_text())));
        // About 15% of random tasks are held out.
        let mut rng = NoiseSource::new(9);
        let n = (0..4000).filter(|_| part_of(&TreeTask::random(&mut rng)) == Part::Test).count();
        assert!((450..750).contains(&n), "{n}");
        // Pinned: the rule is FNV-1a-64 of the normalised input text (tests/independent_check.py
        // recomputes it in Python).
        let paper = TreeTask::parse(EXAMPLE).unwrap();
        assert_eq!(fnv1a64(&paper.input_text()), 9_361_181_663_823_333_542);
        assert_eq!(part_of(&paper), Part::Train);
        assert_eq!(part_of(&TreeTask::parse("AB, AC[ROOT]A[TARGET]B[ROUTE]").unwrap()), Part::Test);
    }
}
