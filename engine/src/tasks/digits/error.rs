//! Why a text is not the digits task's input: [`DigitsError`], the task's own reason that
//! [`crate::tasks::PuzzleError::Task`] carries: a digit's format error as it is, or an image with
//! ink (the task's one input is the blank image).

use thiserror::Error;

use super::data::DigitError;
use crate::tasks::{PuzzleError, TaskReason};

/// Why a text is not the blank image the digits task takes. The text (`Display`) is the sentence
/// the CLI and the pages show.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DigitsError {
    /// A digit's text (28 rows of 0/1).
    #[error(transparent)]
    Digit(#[from] DigitError),
    /// An image with ink (its one input is the blank image).
    #[error("digits are generated from nothing: the one input is the blank image (all 0s)")]
    NotBlankImage,
}

/// The task's reason, as every task's parse answers it.
impl From<DigitsError> for PuzzleError {
    fn from(e: DigitsError) -> Self {
        PuzzleError::Task(TaskReason::new(e))
    }
}

/// A digit's format error, as the task's reason.
impl From<DigitError> for PuzzleError {
    fn from(e: DigitError) -> Self {
        DigitsError::Digit(e).into()
    }
}
