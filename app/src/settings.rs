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
        for (key, value) in pairs {
            let v = value.as_str();
            if s.sampling().read(key, v, MAX_SAMPLES, &mut notes) {
                continue;
            }
            match key.as_str() {
                "board" => match Board::parse(v, SIDE) {
                    Ok(b) => s.board = b,
                    Err(e) => notes.push(ignored(key, v, &e.to_string(), "the default board")),
                },
                "model" => match Model::parse(v) {
                    Some(m) => s.model = m,
                    None => notes.push(ignored(key, v, "gram or trm", "gram")),
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
            "board={}&model={}&{}",
            self.board.to_text(),
            self.model.key(),
            sampling_query(self.samples, self.scale, self.seed, self.steps, self.backend, self.run)
        )
    }
}

/// The note for a query value that was not understood.
pub fn ignored(key: &str, value: &str, rule: &str, default: impl std::fmt::Display) -> String {
    format!("Ignored {key}={value:?} ({rule}); using {default}.")
}

/// The settings every puzzle page shares (N, guidance scale, seed, steps, backend, run), borrowed
/// from a page's settings so one parser serves them all.
pub struct Sampling<'a> {
    pub samples: &'a mut usize,
    pub scale: &'a mut f64,
    pub seed: &'a mut u64,
    pub steps: &'a mut usize,
    pub backend: &'a mut BackendChoice,
    pub run: &'a mut bool,
}

impl Sampling<'_> {
    /// Applies `key=v` when the key is a shared one (`n`, `scale`, `seed`, `steps`, `backend`,
    /// `run`) and returns true; a bad value keeps the current one and leaves a note. Returns
    /// false for any other key.
    pub fn read(&mut self, key: &str, v: &str, max_samples: usize, notes: &mut Vec<String>) -> bool {
        match key {
            "n" => match v.parse::<usize>() {
                Ok(n) if (1..=max_samples).contains(&n) => *self.samples = n,
                _ => notes.push(ignored(key, v, &format!("a whole number from 1 to {max_samples}"), *self.samples)),
            },
            "scale" => match v.parse::<f64>() {
                Ok(x) if (0.0..=MAX_SCALE).contains(&x) => *self.scale = (x * 10.0).round() / 10.0,
                _ => notes.push(ignored(key, v, "a number from 0 to 3", *self.scale)),
            },
            "seed" => match v.parse::<u64>() {
                Ok(x) if x <= 1_000_000_000 => *self.seed = x,
                _ => notes.push(ignored(key, v, "a whole number from 0 to 1000000000", *self.seed)),
            },
            "steps" => match v.parse::<usize>() {
                Ok(x) if (1..=MAX_STEPS).contains(&x) => *self.steps = x,
                _ => notes.push(ignored(key, v, &format!("a whole number from 1 to {MAX_STEPS}"), *self.steps)),
            },
            "backend" => match BackendChoice::parse(v) {
                Some(b) => *self.backend = b,
                None => notes.push(ignored(key, v, "auto, webgpu or cpu", "auto")),
            },
            "run" => *self.run = v == "1",
            _ => return false,
        }
        true
    }
}

/// The shared tail of a page's query string: `n=..&scale=..&seed=..&steps=..`, then `backend`
/// when forced and `run=1` after a run.
pub fn sampling_query(samples: usize, scale: f64, seed: u64, steps: usize, backend: BackendChoice, run: bool) -> String {
    let mut q = format!("n={samples}&scale={scale}&seed={seed}&steps={steps}");
    if backend != BackendChoice::Auto {
        q.push_str(&format!("&backend={}", backend.as_str()));
    }
    if run {
        q.push_str("&run=1");
    }
    q
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
