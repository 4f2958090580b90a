//! Why a text is not a colouring puzzle: [`ColoringError`], the task's own reason that
//! [`crate::tasks::PuzzleError::Task`] carries (a caller reads it back with
//! [`crate::tasks::TaskReason::downcast_ref`]). The graph's and the paste's format errors are
//! wrapped as they are; a graph with no 3-colouring has a variant of its own.

use thiserror::Error;

use super::graph::GraphError;
use super::paste_error::PasteError;
use crate::tasks::{PuzzleError, TaskReason};

/// Why a text is not a graph the colouring task takes: malformed, or a graph no 3-colouring
/// fits. The text (`Display`) is the sentence the CLI and the pages show.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ColoringError {
    /// A graph's line in the task's own format (wrong length, a character other than 0/1).
    #[error(transparent)]
    Graph(#[from] GraphError),
    /// A pasted graph (edge list, DIMACS, matrix) that does not fit the model's vertices; a
    /// [`PasteError::Graph`] converts to [`ColoringError::Graph`].
    #[error(transparent)]
    Paste(PasteError),
    /// Four vertices joined pairwise (a K4), so no 3-colouring.
    #[error(
        "not 3-colourable: vertices {}, {}, {} and {} are all joined to each other, so they need four colours",
        .0[0],
        .0[1],
        .0[2],
        .0[3]
    )]
    FourClique([usize; 4]),
    /// No K4, but the exhaustive search finds no 3-colouring.
    #[error("not 3-colourable: the exhaustive search finds no colouring with three colours")]
    NotColourable,
}

/// A pasted graph's own format error is the graph's ([`ColoringError::Graph`]), whichever way it
/// was read; every other paste error stays a [`ColoringError::Paste`].
impl From<PasteError> for ColoringError {
    fn from(e: PasteError) -> Self {
        match e {
            PasteError::Graph(g) => ColoringError::Graph(g),
            e => ColoringError::Paste(e),
        }
    }
}

/// The task's reason, as every task's parse answers it.
impl From<ColoringError> for PuzzleError {
    fn from(e: ColoringError) -> Self {
        PuzzleError::Task(TaskReason::new(e))
    }
}

/// A pasted graph's error, as the task's reason ([`ColoringError`]'s conversion).
impl From<PasteError> for PuzzleError {
    fn from(e: PasteError) -> Self {
        ColoringError::from(e).into()
    }
}

/// A graph line's error, as the task's reason.
impl From<GraphError> for PuzzleError {
    fn from(e: GraphError) -> Self {
        ColoringError::Graph(e).into()
    }
}
