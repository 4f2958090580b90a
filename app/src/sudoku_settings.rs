//! What a teacher shares on `/sudoku`: the puzzle, N, guidance scale, seed, steps and backend as
//! URL query parameters. Like the N-Queens settings, parsing never fails: a bad value falls back
//! to its default and leaves a note the page shows.

use std::sync::OnceLock;

use engine::tasks::sudoku::{Difficulty, SudokuGrid};

use crate::protocol::BackendChoice;
use crate::settings::{Sampling, ignored, sampling_query};

/// Weights the page runs.
pub const WEIGHTS: &str = "gram-sudoku";
/// Sudoku's supervision step costs ~5x an 8x8 N-Queens step (81 cells, K = 6), so N stops at 32.
pub const MAX_SAMPLES: usize = 32;

#[derive(Clone, Debug, PartialEq)]
pub struct SudokuSettings {
    pub puzzle: SudokuGrid,
    pub samples: usize,
    pub scale: f64,
    pub seed: u64,
    pub steps: usize,
    pub backend: BackendChoice,
    /// Start the run as soon as the page is ready (reopening the URL reproduces it).
    pub run: bool,
}

/// The default puzzle: a generated "medium" puzzle from a fixed seed, built once.
pub fn default_puzzle() -> SudokuGrid {
    static PUZZLE: OnceLock<SudokuGrid> = OnceLock::new();
    PUZZLE.get_or_init(|| Difficulty::Medium.generate(1).puzzle).clone()
}

impl Default for SudokuSettings {
    fn default() -> Self {
        Self {
            puzzle: default_puzzle(),
            samples: 10,
            scale: 1.0,
            seed: 0,
            steps: 8,
            backend: BackendChoice::Auto,
            run: false,
        }
    }
}

impl SudokuSettings {
    /// Reads decoded query parameters; returns the settings and one note per ignored value.
    pub fn from_pairs(pairs: &[(String, String)]) -> (SudokuSettings, Vec<String>) {
        let mut s = SudokuSettings::default();
        let mut notes = Vec::new();
        for (key, value) in pairs {
            let v = value.as_str();
            if s.sampling().read(key, v, MAX_SAMPLES, &mut notes) {
                continue;
            }
            match key.as_str() {
                "puzzle" => match SudokuGrid::parse(v) {
                    Ok(g) => s.puzzle = g,
                    Err(e) => notes.push(ignored(key, v, &e.to_string(), "the default puzzle")),
                },
                _ => notes.push(format!("Ignored unknown parameter {key:?}.")),
            }
        }
        (s, notes)
    }

    fn sampling(&mut self) -> Sampling<'_> {
        Sampling {
            samples: &mut self.samples,
            scale: &mut self.scale,
            seed: &mut self.seed,
            steps: &mut self.steps,
            backend: &mut self.backend,
            run: &mut self.run,
        }
    }

    /// The query string (without `?`) that reproduces these settings.
    pub fn to_query(&self) -> String {
        format!(
            "puzzle={}&{}",
            self.puzzle.to_text(),
            sampling_query(self.samples, self.scale, self.seed, self.steps, self.backend, self.run)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(q: &[(&str, &str)]) -> Vec<(String, String)> {
        q.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn round_trips_and_rejects_bad_values_with_notes() {
        let mut s = SudokuSettings::default();
        assert!(engine::tasks::sudoku::unique_solution(&s.puzzle).is_some(), "the default puzzle is proper");
        s.samples = 7;
        s.scale = 2.5;
        s.seed = 42;
        s.backend = BackendChoice::Cpu;
        s.run = true;
        let back: Vec<(String, String)> = s
            .to_query()
            .split('&')
            .map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).unwrap())
            .collect();
        assert_eq!(SudokuSettings::from_pairs(&back), (s, vec![]));
        let (d, notes) =
            SudokuSettings::from_pairs(&pairs(&[("n", "33"), ("scale", "-1"), ("puzzle", "12x"), ("steps", "0"), ("y", "1")]));
        assert_eq!(d, SudokuSettings::default());
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert!(notes[2].contains("81 cells"), "{notes:?}");
    }
}
