//! Tree route search (seed 000, section 5.1.1 and appendix A): a random full binary tree of at
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

use std::fmt;

use crate::gram::noise::NoiseSource;
use crate::tasks::nqueens::fnv1a64;

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

fn err<T>(m: impl Into<String>) -> Result<T, TreeError> {
    Err(TreeError(m.into()))
}

impl Tree {
    /// Builds and validates a tree from its root and edges (any order; stored breadth-first).
    pub fn new(root: u8, edges: &[(u8, u8)]) -> Result<Tree, TreeError> {
        let mut parent = [None::<u8>; 26];
        let mut kids: [Vec<u8>; 26] = Default::default();
        let idx = |c: u8| (c - b'A') as usize;
        for &(p, c) in edges {
            for x in [p, c] {
                if !x.is_ascii_uppercase() {
                    return err(format!("node {:?} is not a capital letter A-Z", x as char));
                }
            }
            if p == c {
                return err(format!("edge {}{} links a node to itself", p as char, c as char));
            }
            if let Some(q) = parent[idx(c)] {
                return err(format!(
                    "{} has two parents ({} and {}): not a tree",
                    c as char, q as char, p as char
                ));
            }
            parent[idx(c)] = Some(p);
            kids[idx(p)].push(c);
        }
        if parent[idx(root)].is_some() {
            return err(format!("the root {} has a parent", root as char));
        }
        // Breadth-first from the root: reaches every edge once iff the edges form one tree.
        let mut ordered = Vec::with_capacity(edges.len());
        let mut frontier = vec![root];
        let mut levels = 1;
        loop {
            let mut next = Vec::new();
            for &n in &frontier {
                match kids[idx(n)].len() {
                    0 => {}
                    2 => {
                        for &c in &kids[idx(n)] {
                            ordered.push((n, c));
                            next.push(c);
                        }
                    }
                    k => return err(format!("{} has {k} children; a full binary tree has 0 or 2", n as char)),
                }
            }
            if next.is_empty() {
                break;
            }
            levels += 1;
            if levels > MAX_LEVELS {
                return err(format!("the tree is deeper than {MAX_LEVELS} levels"));
            }
            frontier = next;
        }
        if ordered.len() != edges.len() {
            return err(format!("some edges are not connected to the root {}", root as char));
        }
        if edges.is_empty() {
            return err("the tree has no edges");
        }
        Ok(Tree { root, edges: ordered })
    }

    pub fn root(&self) -> u8 {
        self.root
    }

    pub fn edges(&self) -> &[(u8, u8)] {
        &self.edges
    }

    pub fn parent(&self, n: u8) -> Option<u8> {
        self.edges.iter().find(|e| e.1 == n).map(|e| e.0)
    }

    pub fn children(&self, n: u8) -> Vec<u8> {
        self.edges.iter().filter(|e| e.0 == n).map(|e| e.1).collect()
    }

    /// The other child of `n`'s parent.
    pub fn sibling(&self, n: u8) -> Option<u8> {
        let p = self.parent(n)?;
        self.children(p).into_iter().find(|&c| c != n)
    }

    pub fn contains(&self, n: u8) -> bool {
        n == self.root || self.parent(n).is_some()
    }

    /// Leaves in breadth-first order.
    pub fn leaves(&self) -> Vec<u8> {
        self.edges.iter().map(|e| e.1).filter(|&c| self.children(c).is_empty()).collect()
    }

    /// Root, ..., `n`.
    pub fn route_to(&self, n: u8) -> Vec<u8> {
        let mut route = vec![n];
        let mut at = n;
        while let Some(p) = self.parent(at) {
            route.push(p);
            at = p;
        }
        route.reverse();
        route
    }

    /// `NL, NO, LJ, ...`
    pub fn edges_text(&self) -> String {
        self.edges
            .iter()
            .map(|&(p, c)| format!("{}{}", p as char, c as char))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Node depth: root 0.
    pub fn depth(&self, n: u8) -> usize {
        self.route_to(n).len() - 1
    }

    /// Number of levels.
    pub fn levels(&self) -> usize {
        self.leaves().iter().map(|&l| self.depth(l)).max().unwrap_or(0) + 1
    }

    /// Drawing positions for a picture of the tree: `(node, x, depth)` in breadth-first order,
    /// the leaves at x = 0, 1, 2, ... from left to right (first child left), each parent centred
    /// over its two children. Views only scale these.
    pub fn layout(&self) -> Vec<(u8, f64, usize)> {
        fn place(t: &Tree, n: u8, next_leaf: &mut f64, out: &mut Vec<(u8, f64, usize)>, depth: usize) -> f64 {
            let kids = t.children(n);
            let x = if kids.is_empty() {
                *next_leaf += 1.0;
                *next_leaf - 1.0
            } else {
                let xs: Vec<f64> = kids.iter().map(|&k| place(t, k, next_leaf, out, depth + 1)).collect();
                xs.iter().sum::<f64>() / xs.len() as f64
            };
            out.push((n, x, depth));
            x
        }
        let mut out = Vec::new();
        place(self, self.root, &mut 0.0, &mut out, 0);
        let order: Vec<u8> = std::iter::once(self.root).chain(self.edges.iter().map(|e| e.1)).collect();
        out.sort_by_key(|p| order.iter().position(|&n| n == p.0));
        out
    }

    /// A random full binary tree of at most [`MAX_LEVELS`] levels with distinct random letters:
    /// the root always has two children, a deeper node has two with probability `p_expand`.
    pub fn random(rng: &mut NoiseSource, p_expand: f64) -> Tree {
        let mut letters: Vec<u8> = (b'A'..=b'Z').collect();
        // Fisher-Yates: the names carry no information.
        for i in (1..letters.len()).rev() {
            let j = rng.index(i + 1);
            letters.swap(i, j);
        }
        let mut names = letters.into_iter();
        let root = names.next().unwrap();
        let mut edges = Vec::new();
        let mut frontier = vec![root];
        for level in 1..MAX_LEVELS {
            let mut next = Vec::new();
            for &n in &frontier {
                if level == 1 || rng.uniform() < p_expand {
                    for _ in 0..2 {
                        let c = names.next().unwrap();
                        edges.push((n, c));
                        next.push(c);
                    }
                }
            }
            frontier = next;
        }
        Tree { root, edges }
    }
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
        format!(
            "{}[ROOT]{}[TARGET]{}[ROUTE]",
            self.tree.edges_text(),
            self.tree.root as char,
            self.target as char
        )
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
            return err(format!(
                "text after [ROUTE] ({:?}): give the input only, the route is what the model writes",
                after.trim()
            ));
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
                    return err(format!(
                        "edge {} is {:?}: an edge is two capital letters, parent then child",
                        i + 1,
                        pair.trim()
                    ));
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

/// Which part of the split a task is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Train,
    /// Carved from the training side: training never draws it; training-time evals use it.
    Validation,
    Test,
}

/// The documented split, on FNV-1a-64 of [`TreeTask::input_text`] mod 100: test iff `< 15`,
/// validation iff in `15..20`, train otherwise.
pub fn part_of(task: &TreeTask) -> Part {
    match fnv1a64(&task.input_text()) % 100 {
        0..15 => Part::Test,
        15..20 => Part::Validation,
        _ => Part::Train,
    }
}

/// A random task from one part of the split (rejection sampling over [`TreeTask::random`]).
pub fn draw(rng: &mut NoiseSource, part: Part) -> TreeTask {
    loop {
        let t = TreeTask::random(rng);
        if part_of(&t) == part {
            return t;
        }
    }
}

/// The held-out set: `n` test-part tasks from a fixed seed. A pure function of `n`.
pub fn test_set(n: usize) -> Vec<TreeTask> {
    let mut rng = NoiseSource::new(0x7433_0000);
    (0..n).map(|_| draw(&mut rng, Part::Test)).collect()
}

/// The validation set: `n` validation-part tasks from another fixed seed. A pure function of `n`.
pub fn validation_set(n: usize) -> Vec<TreeTask> {
    let mut rng = NoiseSource::new(0x7a11_0000);
    (0..n).map(|_| draw(&mut rng, Part::Validation)).collect()
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
