//! Why pasted text is not a graph on the models' vertices: [`PasteError`], what the readers of
//! [`super::pasted`] (a paste on the page or the CLI, a file of graphs) answer. Vertex numbers are
//! as the text wrote them (edge lists from 0, DIMACS from 1); rows and columns of a matrix from 1.

use thiserror::Error;

use super::graph::GraphError;

/// Why a pasted graph (the task's line, an edge list, DIMACS, an adjacency matrix) does not fit
/// the model's `n` vertices. The text (`Display`) is the sentence the page and the CLI show.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PasteError {
    /// Nothing but blank lines and comments.
    #[error("no graph: paste the task's line of 0s and 1s, an edge list such as 0-1 0-2 1-2, a DIMACS graph or an adjacency matrix")]
    Empty,
    /// The task's line of 0s and 1s with a bad character (its length is right).
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// A line as long as the other size's task line (`found` characters, a `size`-vertex graph's).
    #[error("{found} characters are a {size}-vertex graph's line; these are {n}-vertex graphs")]
    OtherSize { found: usize, size: usize, n: usize },
    /// A line of the wrong length for the paper's sizes (8 and 10 vertices).
    #[error("expected 28 characters (8 vertices) or 45 (10 vertices), one 0 or 1 per vertex pair; found {0}")]
    LineLength(usize),
    /// A line of the wrong length for another vertex count.
    #[error("expected {expected} characters (one 0 or 1 per vertex pair), found {found}")]
    LineLengthOf { expected: usize, found: usize },
    /// A run of digits too long to be a vertex number.
    #[error("{0} is not a vertex number: an edge list names two vertices per edge, such as 0-1")]
    NotAVertex(String),
    /// A character that is neither a digit nor a separator.
    #[error(
        "{0:?} is not part of a graph: write the task's line of 0s and 1s, an edge list such as 0-1 0-2 1-2, a DIMACS graph (p edge N M, then e u v lines) or an adjacency matrix"
    )]
    NotAGraph(char),
    /// An edge list with an odd count of numbers.
    #[error("an edge list needs two vertices per edge; this one has {0} numbers")]
    OddNumbers(usize),
    /// A vertex outside the model's `n`, numbered from `base` (0: an edge list, 1: DIMACS).
    #[error("vertex {vertex} is beyond this model's {n} vertices (numbered {base} to {}): {}", .n - 1 + .base, numbering(*.base))]
    VertexBeyond { vertex: usize, n: usize, base: usize },
    /// An edge from a vertex to itself.
    #[error("vertex {0} is joined to itself: no colouring gives it a colour other than its own")]
    SelfLoop(usize),
    /// A DIMACS problem line with more vertices than the model's `n`.
    #[error("a DIMACS graph of {vertices} vertices: these models colour at most {n}")]
    DimacsTooLarge { vertices: usize, n: usize },
    /// A `p` line that is not `p edge N M`.
    #[error("{0:?} is not a DIMACS problem line: write p edge N M")]
    DimacsProblemLine(String),
    /// An `e u v` line whose u or v is not a number.
    #[error("{0:?}: a DIMACS edge line is e u v, with vertex numbers")]
    DimacsEdgeNumbers(String),
    /// An `e` line that is not `e u v`.
    #[error("{0:?}: a DIMACS edge line is e u v")]
    DimacsEdgeLine(String),
    /// An `e` line before any `p` line.
    #[error("a DIMACS e line before its p edge N M line")]
    DimacsEdgeFirst,
    /// An `e` line's vertex beyond its `p` line's count.
    #[error("vertex {vertex} is beyond the p line's {vertices} vertices")]
    DimacsVertexBeyond { vertex: usize, vertices: usize },
    /// A k x k adjacency matrix with k above the model's `n`.
    #[error("a {k}x{k} adjacency matrix: these models colour at most {n} vertices")]
    MatrixTooLarge { k: usize, n: usize },
    /// A 1 on the matrix's diagonal, at this vertex's row (vertex 0-based, row 1-based).
    #[error("row {} of the matrix joins vertex {vertex} to itself", .vertex + 1)]
    MatrixSelfLoop { vertex: usize },
    /// A matrix whose entries (i, j) and (j, i) (0-based) differ.
    #[error("the matrix is not symmetric: row {} column {} is {ij}, row {} column {} is {ji}", .i + 1, .j + 1, .j + 1, .i + 1)]
    MatrixAsymmetric { i: usize, j: usize, ij: char, ji: char },
    /// Several graphs where one is pasted (how many).
    #[error("{0} graphs: paste one")]
    Several(usize),
    /// No vertex count to read a paste onto.
    #[error("no size to read the graph onto")]
    NoSize,
    /// A file's line (1-based) and what is wrong with the graph on it.
    #[error("line {line}: {source}")]
    AtLine { line: usize, source: Box<PasteError> },
}

/// How the text numbers its vertices, by the number of the first.
fn numbering(base: usize) -> &'static str {
    if base == 0 { "an edge list numbers the vertices from 0 (DIMACS e lines from 1)" } else { "DIMACS numbers the vertices from 1" }
}

impl PasteError {
    /// This error on the file's line `line` (1-based).
    pub fn at_line(self, line: usize) -> PasteError {
        PasteError::AtLine { line, source: Box::new(self) }
    }
}
