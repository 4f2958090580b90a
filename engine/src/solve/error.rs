//! Why a run cannot start or go on: [`SolveError`], what the browser's and `record`'s step loop
//! ([`super::live::LiveRun`], [`super::recorded::record`]) and its parts ([`super::share::Share`],
//! [`super::lane::Lane`], [`super::step_answers::step_task`]) answer.

use thiserror::Error;

use crate::tasks::PuzzleError;
use crate::transfer::ReadBackError;

/// Why a run of a puzzle is refused or stopped. The text (`Display`) is the sentence the page
/// and the CLI show.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// The puzzle's text is not a puzzle of the task (`noun`: the task's word for one, `board`,
    /// `puzzle`, `graph`).
    #[error("bad {noun}: {source}")]
    BadPuzzle { noun: &'static str, source: PuzzleError },
    /// A task whose weights are not GRAM/TRM's (the tree task's JEPA-Reasoner): no step loop.
    #[error("{0} weights are not GRAM/TRM weights")]
    NotGram(String),
    /// No share `index` of `shares` (shares are 1 to `max`, [`super::share::MAX_SHARES`]; the
    /// index below them).
    #[error("share {index} of {shares}: shares are 1 to {max}, the index below their number")]
    Share { index: usize, shares: usize, max: usize },
    /// No lane `index` of `lanes` (lanes are 1 to `max`, [`super::lane::MAX_LANES`]; the index
    /// below them).
    #[error("lane {index} of {lanes}: lanes are 1 to {max}, the index below their number")]
    Lane { index: usize, lanes: usize, max: usize },
    /// A lane other than 0 on a run without the verified stop, or one the visitor changed.
    #[error("only a verified run nobody changed shares its rounds among lanes")]
    LaneOfChangedRun,
    /// A share that holds none of the run's samples (more shares than samples).
    #[error("share {index} of {shares} holds none of the run's {samples} samples")]
    EmptyShare { index: usize, shares: usize, samples: usize },
    /// A step's values could not be read back from the device.
    #[error(transparent)]
    ReadBack(#[from] ReadBackError),
}
