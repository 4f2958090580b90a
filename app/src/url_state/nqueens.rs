//! `/nqueens`: the board and the model, on top of the shared [`Sampling`] parameters.

use std::sync::OnceLock;

use engine::tasks::nqueens::{Board, Instance, Part, split};

use super::page::UrlState;
use super::fields::parsed;
use super::sampling::{HasSampling, Sampling};

/// Side of the board the shipped models were trained on.
pub const SIDE: usize = 8;
/// Largest N the page (and the worker) accepts.
pub const MAX_SAMPLES: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    Gram,
    Trm,
}

impl Model {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "gram" => Some(Self::Gram),
            "trm" => Some(Self::Trm),
            _ => None,
        }
    }
    pub fn key(self) -> &'static str {
        match self {
            Self::Gram => "gram",
            Self::Trm => "trm",
        }
    }
    /// Name of the shipped weights.
    pub fn weights(self) -> &'static str {
        match self {
            Self::Gram => "gram-nqueens8",
            Self::Trm => "trm-nqueens8",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Self::Gram => "GRAM",
            Self::Trm => "TRM",
        }
    }
}

/// What a teacher shares on `/nqueens`: the board, the model, and how to sample.
#[derive(Clone, Debug, PartialEq)]
pub struct NQueensSettings {
    pub board: Board,
    pub model: Model,
    pub sampling: Sampling,
}

/// The held-out (test) split of 8x8 puzzles, built once: the default board and "New puzzle"
/// both draw from it.
pub fn held_out() -> &'static [Instance] {
    static SPLIT: OnceLock<Vec<Instance>> = OnceLock::new();
    SPLIT.get_or_init(|| split(SIDE, Part::Test))
}

/// The first held-out puzzle with 5 queens removed: a board the model never trained on, with a
/// handful of completions to find.
pub fn default_board() -> Board {
    held_out()
        .iter()
        .find(|i| i.removed() == 5)
        .map(|i| i.puzzle.clone())
        .unwrap_or_else(|| Board::empty(SIDE).expect("8 is supported"))
}

impl Default for NQueensSettings {
    fn default() -> Self {
        Self { board: default_board(), model: Model::Gram, sampling: Sampling::with_samples(20) }
    }
}

impl UrlState for NQueensSettings {
    const PATH: &'static str = "/nqueens";

    fn apply(&mut self, key: &str, value: &str, notes: &mut Vec<String>) -> bool {
        if self.sampling.read(key, value, MAX_SAMPLES, notes) {
            return true;
        }
        match key {
            "board" => parsed(key, value, Board::parse(value, SIDE), &mut self.board, "the default board", notes),
            "model" => parsed(key, value, Model::parse(value).ok_or("gram or trm"), &mut self.model, "gram", notes),
            _ => return false,
        }
        true
    }

    fn to_query(&self) -> String {
        format!("board={}&model={}&{}", self.board.to_text(), self.model.key(), self.sampling.to_query())
    }
}

impl HasSampling for NQueensSettings {
    const MAX_SAMPLES: usize = MAX_SAMPLES;
    fn sampling(&self) -> &Sampling {
        &self.sampling
    }
    fn sampling_mut(&mut self) -> &mut Sampling {
        &mut self.sampling
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url_state::query::decode;

    fn pairs(q: &[(&str, &str)]) -> Vec<(String, String)> {
        q.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn round_trips_and_rejects_bad_values_with_notes() {
        let mut s = NQueensSettings::default();
        s.sampling.samples = 7;
        s.sampling.scale = 2.5;
        s.model = Model::Trm;
        s.sampling.run = true;
        let back: Vec<(String, String)> = s
            .to_query()
            .split('&')
            .map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).unwrap())
            .collect();
        assert_eq!(NQueensSettings::from_pairs(&back), (s, vec![]));
        let (d, notes) = NQueensSettings::from_pairs(&pairs(&[("n", "abc"), ("scale", "9"), ("board", "QQ"), ("x", "1")]));
        assert_eq!(d, NQueensSettings::default());
        assert_eq!(notes.len(), 4, "{notes:?}");
    }

    /// The exact query and notes of today's links (shared links must keep working).
    #[test]
    fn the_url_contract() {
        let d = NQueensSettings::default();
        assert_eq!(d.to_query(), format!("board={}&model=gram&n=20&scale=1&seed=0&steps=8", default_board().to_text()));
        assert_eq!(default_board().queen_count(), 3, "the default board: a held-out puzzle with 5 queens removed");
        let (s, notes) = NQueensSettings::from_query("?backend=webgpu&n=4&steps=3&model=trm&seed=9&run=1");
        assert_eq!(s.sampling, Sampling { samples: 4, scale: 1.0, seed: 9, steps: 3, backend: crate::protocol::BackendChoice::WebGpu, run: true });
        assert_eq!((s.model, notes.len()), (Model::Trm, 0));
        assert!(s.to_query().ends_with("&model=trm&n=4&scale=1&seed=9&steps=3&backend=webgpu&run=1"), "{}", s.to_query());
        let (_, notes) = NQueensSettings::from_query("n=abc&scale=7&board=QQ&model=x&run=2&zz");
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert_eq!(notes[0], "Ignored n=\"abc\" (a whole number from 1 to 64); using 20.");
        assert_eq!(notes[1], "Ignored scale=\"7\" (a number from 0 to 3); using 1.");
        // The reason in the middle is the engine's own wording.
        assert!(notes[2].starts_with("Ignored board=\"QQ\" (") && notes[2].ends_with("); using the default board."), "{notes:?}");
        assert_eq!(notes[3], "Ignored model=\"x\" (gram or trm); using gram.");
        assert_eq!(notes[4], "Ignored unknown parameter \"zz\".");
        let lower = "q".repeat(1) + &".".repeat(63);
        let (s, _) = NQueensSettings::from_pairs(&decode(&format!("board={lower}")));
        assert!(s.board.has_queen(0, 0), "a lower-case q is a queen, as the engine reads it");
    }
}
