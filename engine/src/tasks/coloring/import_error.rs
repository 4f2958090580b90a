//! Why a file of graphs from elsewhere cannot be a colouring test set: [`GraphFileError`], what
//! the task's test import ([`super::import`]) answers, when it is written (`data import`) and when
//! it is read again (`eval --data`).

use thiserror::Error;

use super::error::ColoringError;
use super::graph::GraphError;
use super::paste_error::PasteError;

/// Why a file of graphs, or one graph of it, is refused. The text (`Display`) is the sentence the
/// trainer prints after the file's name (`--vertices`' own errors stand alone).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GraphFileError {
    /// A file that does not say its vertex count, and no `--vertices`.
    #[error(
        "say which models the graphs are for: --vertices 8 or --vertices 10 (only a file that starts with the task's 28- or 45-character line says it itself)"
    )]
    VerticesUnsaid,
    /// `--vertices` other than the models' 8 or 10.
    #[error("--vertices {0}: the colouring models have 8 or 10 vertices (a smaller graph is read with the rest isolated)")]
    Vertices(usize),
    /// A graph of the file that does not read (the error names its line).
    #[error(transparent)]
    Graphs(#[from] PasteError),
    /// A file without a graph.
    #[error("no graph in this file")]
    NoGraphs,
    /// A graph of a test file (its line, 1-based) that no 3-colouring fits.
    #[error("line {line}: {reason}; a test graph needs a colouring to find")]
    Uncolourable { line: usize, reason: ColoringError },
    /// A written test import's line (1-based) that is not a graph in the task's format.
    #[error("line {line}: {source}")]
    TestLine { line: usize, source: GraphError },
    /// A written test import's line (1-based) whose graph has no 3-colouring.
    #[error("line {0}: not 3-colourable")]
    TestLineUncolourable(usize),
    /// A written test import without a graph.
    #[error("no graph")]
    NoTestGraphs,
}
