//! `/sudoku`: the puzzle and the model, on top of the shared [`Sampling`] parameters.

use std::sync::OnceLock;

use engine::tasks::sudoku::{self, Difficulty, SudokuGrid};

use crate::url_state::gram_page::{GramSettings, Model, PageInput};
use crate::url_state::sampling::{Sampling, UNTIL_VERIFIED};

/// Sudoku's supervision step costs ~5x an 8x8 N-Queens step (81 cells, K = 6), so N stops at 32.
pub const MAX_SAMPLES: usize = 32;

/// What a teacher shares on `/sudoku`: the puzzle, the model and how to sample.
pub type SudokuSettings = GramSettings<SudokuGrid>;

/// The default puzzle: a generated "medium" puzzle from a fixed seed, built once.
pub fn default_puzzle() -> SudokuGrid {
    static PUZZLE: OnceLock<SudokuGrid> = OnceLock::new();
    PUZZLE.get_or_init(|| Difficulty::Medium.generate(1).puzzle).clone()
}

impl PageInput for SudokuGrid {
    const COPIES: bool = true;
    const PATH: &'static str = "/sudoku";
    const KEY: &'static str = "puzzle";
    const DEFAULT_NAME: &'static str = "the default puzzle";
    const MAX_SAMPLES: usize = MAX_SAMPLES;

    fn default_of(_: usize) -> Self {
        default_puzzle()
    }
    fn read(text: &str) -> Result<Self, String> {
        SudokuGrid::parse(text).map_err(|e| e.to_string())
    }
    fn text(&self) -> String {
        self.to_text()
    }
    /// `gram-sudoku` or `trm-sudoku`.
    fn weights(&self, model: Model) -> String {
        format!("{}-sudoku", model.key())
    }
    /// The engine's Sudoku inference defaults, which `solve --task sudoku` also uses: chosen on
    /// the validation part (docs/results/sudoku.md, "The verified stop and how the page's defaults
    /// were chosen"; a visitor comes for a solved puzzle, and a sample that passes the rules is one),
    /// except that the page restarts until a sample passes or the visitor presses Stop: `solve`'s
    /// answer whenever `solve` verifies (the same rounds, the same seeds), and more search after.
    fn default_sampling(_size: usize) -> Sampling {
        Sampling { restarts: UNTIL_VERIFIED, ..Sampling::from_defaults(&sudoku::INFERENCE) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::BackendChoice;
    use crate::url_state::UrlState;
    use engine::tasks::sudoku::INFERENCE;

    #[test]
    fn round_trips_and_rejects_bad_values_with_notes() {
        let mut s = SudokuSettings::default();
        assert!(engine::tasks::sudoku::unique_solution(&s.puzzle).is_some(), "the default puzzle is proper");
        s.sampling.samples = 7;
        s.sampling.scale = 2.5;
        s.sampling.seed = 42;
        s.sampling.backend = BackendChoice::Cpu;
        s.sampling.run = true;
        assert_eq!(SudokuSettings::from_query(&s.to_query()), (s, vec![]));
        let (d, notes) = SudokuSettings::from_query("n=33&scale=-1&puzzle=12x&steps=0&y=1");
        assert_eq!(d, SudokuSettings::default());
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert!(notes[2].contains("81 cells"), "{notes:?}");
    }

    /// The exact query of today's links: the puzzle first, then the model; N defaults to 10
    /// (scale 0.5, the verified stop on) and stops at 32. Links from before the model choice (no
    /// `model`) open GRAM.
    #[test]
    fn the_url_contract() {
        let d = SudokuSettings::default();
        assert_eq!(
            d.to_query(),
            format!(
                "puzzle={}&model=gram&n=10&scale=0.5&seed=0&steps={}&stop=1&restarts=until&copies=1",
                default_puzzle().to_text(),
                INFERENCE.steps
            )
        );
        let (s, notes) = SudokuSettings::from_query("backend=cpu&n=4&steps=4&seed=3&run=1&model=trm&stop=0");
        assert_eq!(
            s.sampling,
            Sampling {
                samples: 4,
                scale: 0.5,
                seed: 3,
                steps: 4,
                stop: false,
                restarts: UNTIL_VERIFIED,
                copies: INFERENCE.copies != engine::solve::Copies::None,
                copies_free: false,
                noise: 0.0,
                backend: BackendChoice::Cpu,
                workers: 0,
                run: true
            }
        );
        assert_eq!((s.model, notes.len()), (Model::Trm, 0));
        assert!(s.to_query().ends_with("&model=trm&n=4&scale=0.5&seed=3&steps=4&stop=0&backend=cpu&run=1"));
        let (old, notes) = SudokuSettings::from_query("n=4");
        assert_eq!((old.model, notes.len()), (Model::Gram, 0));
        let (_, notes) = SudokuSettings::from_query("model=hrm");
        assert_eq!(notes, ["Ignored model=\"hrm\" (gram or trm); using gram."]);
        let (_, notes) = SudokuSettings::from_query("n=32&n=33");
        assert_eq!(notes, ["Ignored n=\"33\" (a whole number from 1 to 32); using 32."]);
        let famous = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let (s, notes) = SudokuSettings::from_query(&format!("puzzle={}", famous.replace('.', "0")));
        assert_eq!((s.puzzle.to_text(), notes.len()), (famous.to_string(), 0), "0 is a blank too");
    }
}
