//! Graphs and colourings of the graph-colouring task (the GRAM paper, appendices D.2 and E.1.2): the
//! text formats, the tokens, and the rule (no edge joins two vertices of one colour).
//!
//! Text format of a graph (the CLI's and the browser's): the upper triangle of the adjacency
//! matrix without the diagonal, row by row, one `0` (no edge) or `1` (edge) per vertex pair:
//! pairs (0,1), (0,2), ..., (0,n-1), (1,2), ... — 28 characters for 8 vertices, 45 for 10.
//! A colouring: one digit `0`/`1`/`2` per vertex (`.` in an answer for a vertex the model left
//! without a colour).
//!
//! Tokens (the paper's): the upper triangle *with* the diagonal, row by row, n(n+1)/2 positions
//! (36 for 8 vertices, 55 for 10): 0 on the diagonal, 1 no edge, 2 edge. The answer sits on the
//! diagonal: position (i, i) holds 3 + the colour of vertex i; the other positions of a target
//! repeat the input's token (the sequence model answers one token per position).

use std::fmt;

/// Token of a diagonal position in the input (and padding).
pub const DIAGONAL: u32 = 0;
/// Token of a vertex pair without an edge.
pub const NO_EDGE: u32 = 1;
/// Token of an edge.
pub const EDGE: u32 = 2;
/// Token of colour 0; colours 1 and 2 follow.
pub const FIRST_COLOUR: u32 = 3;
/// Colours of the task (3-colouring).
pub const COLOURS: u8 = 3;
/// Vocabulary: diagonal/pad, no edge, edge, three colours.
pub const VOCAB: usize = 6;

/// Why a text or a token sequence is not a graph (or a colouring).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GraphError {
    /// Wrong number of characters for the task's vertex count.
    Length { expected: usize, found: usize, what: &'static str },
    /// A character that is not allowed at `index`.
    Char { index: usize, found: char, allowed: &'static str },
    /// A token sequence that is not an input graph.
    Token { index: usize, found: u32 },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::Length { expected, found, what } => write!(f, "expected {expected} characters ({what}), found {found}"),
            GraphError::Char { index, found, allowed } => write!(f, "character {} is {found:?}: use {allowed}", index + 1),
            GraphError::Token { index, found } => write!(f, "token {found} at position {index} does not belong to an input graph"),
        }
    }
}

impl std::error::Error for GraphError {}

/// Vertex pairs of an `n`-vertex graph (the text's length).
pub fn pair_count(n: usize) -> usize {
    n * (n - 1) / 2
}

/// Token positions of an `n`-vertex graph: the upper triangle with the diagonal.
pub fn seq_len(n: usize) -> usize {
    n * (n + 1) / 2
}

/// Token position of the pair (i, j), i <= j, in the upper triangle with the diagonal.
pub fn position(n: usize, i: usize, j: usize) -> usize {
    debug_assert!(i <= j && j < n);
    i * n - i * i.saturating_sub(1) / 2 + (j - i)
}

/// An undirected simple graph on `n` vertices.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Graph {
    n: usize,
    /// `adjacent[i]` bit j: an edge between i and j.
    adjacent: Vec<u32>,
}

impl Graph {
    /// `n` vertices, no edge.
    pub fn empty(n: usize) -> Graph {
        assert!((2..=32).contains(&n), "2..=32 vertices");
        Graph { n, adjacent: vec![0; n] }
    }

    /// Reads the text format for an `n`-vertex graph.
    pub fn parse(text: &str, n: usize) -> Result<Graph, GraphError> {
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != pair_count(n) {
            return Err(GraphError::Length { expected: pair_count(n), found: chars.len(), what: "one 0 or 1 per vertex pair" });
        }
        let mut g = Graph::empty(n);
        for (index, ((i, j), &c)) in pairs(n).zip(&chars).enumerate() {
            match c {
                '0' => {}
                '1' => g.set_edge(i, j, true),
                found => return Err(GraphError::Char { index, found, allowed: "'0' (no edge) or '1' (edge)" }),
            }
        }
        Ok(g)
    }

    /// Reads input tokens (the upper triangle with the diagonal).
    pub fn from_tokens(tokens: &[u32], n: usize) -> Result<Graph, GraphError> {
        if tokens.len() != seq_len(n) {
            return Err(GraphError::Length { expected: seq_len(n), found: tokens.len(), what: "tokens" });
        }
        let mut g = Graph::empty(n);
        for (index, ((i, j), &t)) in triangle(n).zip(tokens).enumerate() {
            match (i == j, t) {
                (true, DIAGONAL) | (false, NO_EDGE) => {}
                (false, EDGE) => g.set_edge(i, j, true),
                (_, found) => return Err(GraphError::Token { index, found }),
            }
        }
        Ok(g)
    }

    /// Vertex count.
    pub fn n(&self) -> usize {
        self.n
    }

    pub fn has_edge(&self, i: usize, j: usize) -> bool {
        self.adjacent[i] >> j & 1 == 1
    }

    pub fn set_edge(&mut self, i: usize, j: usize, edge: bool) {
        assert!(i != j && i < self.n && j < self.n, "an edge joins two distinct vertices");
        if edge {
            self.adjacent[i] |= 1 << j;
            self.adjacent[j] |= 1 << i;
        } else {
            self.adjacent[i] &= !(1 << j);
            self.adjacent[j] &= !(1 << i);
        }
    }

    /// The edges (i < j), in text order.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        pairs(self.n).filter(|&(i, j)| self.has_edge(i, j)).collect()
    }

    /// Neighbours of `i` as a bit set.
    pub fn neighbours(&self, i: usize) -> u32 {
        self.adjacent[i]
    }

    pub fn to_text(&self) -> String {
        pairs(self.n).map(|(i, j)| if self.has_edge(i, j) { '1' } else { '0' }).collect()
    }

    /// Input tokens.
    pub fn tokens(&self) -> Vec<u32> {
        triangle(self.n)
            .map(|(i, j)| match (i == j, self.has_edge(i, j)) {
                (true, _) => DIAGONAL,
                (false, false) => NO_EDGE,
                (false, true) => EDGE,
            })
            .collect()
    }

    /// Target tokens for `colouring`: the input with each diagonal position holding its colour.
    pub fn target_tokens(&self, colouring: &Colouring) -> Vec<u32> {
        let mut t = self.tokens();
        for (i, c) in colouring.colours().iter().enumerate() {
            t[position(self.n, i, i)] = FIRST_COLOUR + c.expect("a complete colouring") as u32;
        }
        t
    }

    /// The same graph with vertex `v` renamed `perm[v]`: an isomorphic copy, whose colourings are
    /// exactly this graph's relabelled the same way ([`Colouring::relabel`]).
    pub fn relabel(&self, perm: &[usize]) -> Graph {
        let mut copy = Graph::empty(self.n);
        for (i, j) in self.edges() {
            copy.set_edge(perm[i], perm[j], true);
        }
        copy
    }

    /// Edges whose two ends share a colour, or that touch a vertex without one.
    pub fn conflicts(&self, colouring: &Colouring) -> Vec<(usize, usize)> {
        let c = colouring.colours();
        self.edges().into_iter().filter(|&(i, j)| c[i].is_none() || c[j].is_none() || c[i] == c[j]).collect()
    }

    /// Every vertex coloured and no edge in conflict.
    pub fn is_coloured_by(&self, colouring: &Colouring) -> bool {
        colouring.colours().len() == self.n && colouring.is_complete() && self.conflicts(colouring).is_empty()
    }
}

/// The vertex pairs (i < j) in text order.
pub fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |i| (i + 1..n).map(move |j| (i, j)))
}

/// The token positions' pairs (i <= j) in order.
pub fn triangle(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |i| (i..n).map(move |j| (i, j)))
}

/// A colour (0, 1 or 2) per vertex, `None` where a model's answer has no colour.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Colouring(Vec<Option<u8>>);

impl Colouring {
    pub fn new(colours: Vec<u8>) -> Colouring {
        assert!(colours.iter().all(|&c| c < COLOURS));
        Colouring(colours.into_iter().map(Some).collect())
    }

    /// Reads `0`/`1`/`2` per vertex for an `n`-vertex graph.
    pub fn parse(text: &str, n: usize) -> Result<Colouring, GraphError> {
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != n {
            return Err(GraphError::Length { expected: n, found: chars.len(), what: "one colour 0, 1 or 2 per vertex" });
        }
        let colours = chars
            .iter()
            .enumerate()
            .map(|(index, &c)| match c {
                '0'..='2' => Ok(c as u8 - b'0'),
                found => Err(GraphError::Char { index, found, allowed: "'0', '1' or '2'" }),
            })
            .collect::<Result<Vec<u8>, _>>()?;
        Ok(Colouring::new(colours))
    }

    /// Reads an answer's text as [`Colouring::to_text`] writes it: `0`/`1`/`2` per vertex, `.` for a
    /// vertex without a colour.
    pub fn parse_answer(text: &str, n: usize) -> Result<Colouring, GraphError> {
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != n {
            return Err(GraphError::Length { expected: n, found: chars.len(), what: "one colour 0, 1, 2 or . per vertex" });
        }
        let colours = chars
            .iter()
            .enumerate()
            .map(|(index, &c)| match c {
                '0'..='2' => Ok(Some(c as u8 - b'0')),
                '.' => Ok(None),
                found => Err(GraphError::Char { index, found, allowed: "'0', '1', '2' or '.'" }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Colouring(colours))
    }

    /// A model's answer: the colour tokens on the diagonal (`None` where it wrote another token).
    pub fn from_prediction(tokens: &[u32], n: usize) -> Colouring {
        Colouring(
            (0..n)
                .map(|i| {
                    let t = tokens.get(position(n, i, i)).copied().unwrap_or(DIAGONAL);
                    (FIRST_COLOUR..FIRST_COLOUR + COLOURS as u32).contains(&t).then(|| (t - FIRST_COLOUR) as u8)
                })
                .collect(),
        )
    }

    pub fn colours(&self) -> &[Option<u8>] {
        &self.0
    }

    pub fn is_complete(&self) -> bool {
        self.0.iter().all(Option::is_some)
    }

    /// The colouring of the relabelled graph ([`Graph::relabel`]): vertex `perm[v]` takes `v`'s
    /// colour.
    pub fn relabel(&self, perm: &[usize]) -> Colouring {
        let mut colours = vec![None; self.0.len()];
        for (v, &c) in self.0.iter().enumerate() {
            colours[perm[v]] = c;
        }
        Colouring(colours)
    }

    /// The same partition with colours renamed in order of first use (vertex 0 gets 0, the next
    /// new colour 1, ...): colourings equal up to a permutation of the colours have one canonical
    /// form. Vertices without a colour stay without.
    pub fn canonical(&self) -> Colouring {
        let mut rename = [None; COLOURS as usize];
        let mut next = 0u8;
        Colouring(
            self.0
                .iter()
                .map(|c| {
                    c.map(|c| {
                        *rename[c as usize].get_or_insert_with(|| {
                            next += 1;
                            next - 1
                        })
                    })
                })
                .collect(),
        )
    }

    pub fn to_text(&self) -> String {
        self.0.iter().map(|c| c.map_or('.', |c| (b'0' + c) as char)).collect()
    }
}
