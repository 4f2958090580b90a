//! The tree of a route-search task: built from edges with every rule checked, drawn at random,
//! walked (routes, siblings, depth) and laid out for drawing.

use super::{MAX_LEVELS, Tree, TreeError, err};
use crate::gram::noise::NoiseSource;

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
                return err(format!("{} has two parents ({} and {}): not a tree", c as char, q as char, p as char));
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
        self.edges.iter().map(|&(p, c)| format!("{}{}", p as char, c as char)).collect::<Vec<_>>().join(", ")
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
