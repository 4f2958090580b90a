//! `/generate`: what to generate (digits, 8x8 N-Queens boards or Sudoku grids), the model, and how to sample,
//! on top of the shared [`Sampling`] parameters (the verified stop means nothing here: it is
//! always written `stop=0`).

use engine::tasks::boards::{QueensBoards, SudokuGrids};
use engine::tasks::digits::Digit;
use engine::tasks::sudoku::SudokuGrid;
use engine::tasks::{InferenceDefaults, Task};

use crate::url_state::gram_page::{GramSettings, Model, PageInput};
use crate::url_state::sampling::Sampling;

/// Largest N the page accepts (the 1-64).
pub const MAX_SAMPLES: usize = crate::url_state::sampling::MAX_SAMPLES;

/// What the page draws from nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Binarized MNIST digits.
    Digits,
    /// 8x8 N-Queens boards.
    Queens8,
    /// Full 9x9 Sudoku grids.
    Sudoku,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Digits, Kind::Queens8, Kind::Sudoku];

    pub fn key(self) -> &'static str {
        match self {
            Kind::Digits => "digits",
            Kind::Queens8 => "nqueens8",
            Kind::Sudoku => "sudoku",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.key() == text)
    }

    pub fn label(self) -> &'static str {
        match self {
            Kind::Digits => "Digits (MNIST)",
            Kind::Queens8 => "8x8 N-Queens boards",
            Kind::Sudoku => "9x9 Sudoku grids",
        }
    }

    /// The shipped weights of `model` for this kind.
    pub fn weights(self, model: Model) -> String {
        match self {
            Kind::Digits => format!("{}-digits", model.key()),
            Kind::Queens8 => format!("{}-nqueens8-boards", model.key()),
            Kind::Sudoku => format!("{}-sudoku-grids", model.key()),
        }
    }

    /// The constant input, as the worker reads it: the blank image, the empty board or grid.
    pub fn blank_input(self) -> String {
        match self {
            Kind::Digits => Digit::blank().to_text(),
            Kind::Queens8 => {
                let task = QueensBoards::new(8);
                task.puzzle_text(&task.instance().puzzle)
            }
            Kind::Sudoku => SudokuGrids.puzzle_text(&SudokuGrid::empty()),
        }
    }
}

/// The page's sampling when nothing is set: 16 samples, 16 supervision steps (digits sharpen
/// with steps: validation FID 93.7 after 8, 82.9 after 16; docs/results/generation.md), the learned prior.
pub fn default_sampling() -> Sampling {
    Sampling::from_defaults(&InferenceDefaults { samples: 16, steps: 16, ..InferenceDefaults::PAPER })
}

/// What a teacher shares on `/generate`: what to draw, the model, and how to sample.
pub type GenerateSettings = GramSettings<Kind>;

impl PageInput for Kind {
    const PATH: &'static str = "/generate";
    const KEY: &'static str = "kind";
    const DEFAULT_NAME: &'static str = "digits";
    const MAX_SAMPLES: usize = MAX_SAMPLES;
    // No rule to stop at: the verified stop and its restarts do not apply here.
    const VERIFIED_STOP: bool = false;

    fn default_of(_: usize) -> Self {
        Kind::Digits
    }
    fn read(text: &str) -> Result<Self, String> {
        Kind::parse(text).ok_or_else(|| "digits, nqueens8 or sudoku".into())
    }
    fn text(&self) -> String {
        self.key().into()
    }
    fn weights(&self, model: Model) -> String {
        Kind::weights(*self, model)
    }
    fn default_sampling(_size: usize) -> Sampling {
        default_sampling()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url_state::UrlState;

    #[test]
    fn the_url_contract() {
        let d = GenerateSettings::default();
        assert_eq!(d.to_query(), "kind=digits&model=gram&n=16&scale=1&seed=0&steps=16&stop=0");
        assert_eq!(d.weights(), "gram-digits");
        let (s, notes) = GenerateSettings::from_query("kind=nqueens8&model=trm&n=64&steps=16&stop=1&restarts=3&run=1");
        assert_eq!(s.sampling.restarts, 0);
        assert_eq!(
            (s.puzzle, s.model, s.sampling.samples, s.sampling.steps, s.sampling.stop, s.sampling.run),
            (Kind::Queens8, Model::Trm, 64, 16, false, true)
        );
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(s.weights(), "trm-nqueens8-boards");
        assert_eq!(GenerateSettings::from_query(&s.to_query()), (s, vec![]));
        let (s, notes) = GenerateSettings::from_query("kind=cats&n=65");
        assert_eq!(s, GenerateSettings::default());
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("digits, nqueens8 or sudoku"), "{notes:?}");
        assert_eq!(Kind::Queens8.blank_input(), ".".repeat(64));
        assert_eq!(Kind::Sudoku.blank_input(), ".".repeat(81));
        let (s, _) = GenerateSettings::from_query("kind=sudoku&model=gram");
        assert_eq!(s.weights(), "gram-sudoku-grids");
        assert_eq!(Kind::Digits.blank_input().len(), 28 * 28 + 27);
    }
}
