//! What a teacher shares: the board, model, N, guidance scale, seed, steps and backend, as URL
//! query parameters. Parsing never fails: a bad value falls back to its default and leaves a note
//! the page shows.

use std::sync::OnceLock;

use engine::tasks::nqueens::{Board, Instance, Part, split};

use crate::protocol::BackendChoice;

pub const SIDE: usize = 8;
pub const MAX_SAMPLES: usize = 64;
pub const MAX_STEPS: usize = 16;
pub const MAX_SCALE: f64 = 3.0;

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

#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub board: Board,
    pub model: Model,
    pub samples: usize,
    pub scale: f64,
    pub seed: u64,
    pub steps: usize,
    pub backend: BackendChoice,
    /// Start the run as soon as the page is ready (set once a run was started, so reloading the
    /// URL reproduces it).
    pub run: bool,
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

impl Default for Settings {
    fn default() -> Self {
        Self {
            board: default_board(),
            model: Model::Gram,
            samples: 20,
            scale: 1.0,
            seed: 0,
            steps: 8,
            backend: BackendChoice::Auto,
            run: false,
        }
    }
}

impl Settings {
    /// Reads `pairs` (decoded query parameters); returns the settings and one note per value
    /// that was ignored.
    pub fn from_pairs(pairs: &[(String, String)]) -> (Settings, Vec<String>) {
        let mut s = Settings::default();
        let mut notes = Vec::new();
        let bad = |key: &str, value: &str, rule: &str, default: String| {
            format!("Ignored {key}={value:?} ({rule}); using {default}.")
        };
        for (key, value) in pairs {
            let v = value.as_str();
            match key.as_str() {
                "board" => match Board::parse(v, SIDE) {
                    Ok(b) => s.board = b,
                    Err(e) => notes.push(bad(key, v, &e.to_string(), "the default board".into())),
                },
                "model" => match Model::parse(v) {
                    Some(m) => s.model = m,
                    None => notes.push(bad(key, v, "gram or trm", "gram".into())),
                },
                "n" => match v.parse::<usize>() {
                    Ok(n) if (1..=MAX_SAMPLES).contains(&n) => s.samples = n,
                    _ => notes.push(bad(key, v, "a whole number from 1 to 64", s.samples.to_string())),
                },
                "scale" => match v.parse::<f64>() {
                    Ok(x) if (0.0..=MAX_SCALE).contains(&x) => s.scale = (x * 10.0).round() / 10.0,
                    _ => notes.push(bad(key, v, "a number from 0 to 3", s.scale.to_string())),
                },
                "seed" => match v.parse::<u64>() {
                    Ok(x) if x <= 1_000_000_000 => s.seed = x,
                    _ => notes.push(bad(key, v, "a whole number from 0 to 1000000000", s.seed.to_string())),
                },
                "steps" => match v.parse::<usize>() {
                    Ok(x) if (1..=MAX_STEPS).contains(&x) => s.steps = x,
                    _ => notes.push(bad(key, v, "a whole number from 1 to 16", s.steps.to_string())),
                },
                "backend" => match BackendChoice::parse(v) {
                    Some(b) => s.backend = b,
                    None => notes.push(bad(key, v, "auto, webgpu or cpu", "auto".into())),
                },
                "run" => s.run = v == "1",
                _ => notes.push(format!("Ignored unknown parameter {key:?}.")),
            }
        }
        (s, notes)
    }

    /// The query string (without `?`) that reproduces these settings.
    pub fn to_query(&self) -> String {
        let mut q = format!(
            "board={}&model={}&n={}&scale={}&seed={}&steps={}",
            self.board.to_text(),
            self.model.key(),
            self.samples,
            self.scale,
            self.seed,
            self.steps
        );
        if self.backend != BackendChoice::Auto {
            q.push_str(&format!("&backend={}", self.backend.as_str()));
        }
        if self.run {
            q.push_str("&run=1");
        }
        q
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
        let mut s = Settings::default();
        s.samples = 7;
        s.scale = 2.5;
        s.model = Model::Trm;
        s.run = true;
        let back: Vec<(String, String)> = s
            .to_query()
            .split('&')
            .map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())).unwrap())
            .collect();
        assert_eq!(Settings::from_pairs(&back), (s, vec![]));
        let (d, notes) = Settings::from_pairs(&pairs(&[("n", "abc"), ("scale", "9"), ("board", "QQ"), ("x", "1")]));
        assert_eq!(d, Settings::default());
        assert_eq!(notes.len(), 4, "{notes:?}");
    }
}
