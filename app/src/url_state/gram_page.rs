//! What every page that samples GRAM or TRM shares in its URL (`/nqueens`, `/coloring`,
//! `/sudoku`, `/generate`), written once: its input (a board, a graph, a Sudoku puzzle, or on
//! `/generate` what to draw from nothing), the model, and the shared [`Sampling`]. A page says
//! only what its input is ([`PageInput`]): its key, its text, its sizes and its weights' names.

use std::fmt::Debug;

use super::fields::parsed;
use super::page::UrlState;
use super::sampling::{HasSampling, Sampling};

/// The two models every GRAM page offers.
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
    pub fn label(self) -> &'static str {
        match self {
            Self::Gram => "GRAM",
            Self::Trm => "TRM",
        }
    }
}

/// What a GRAM page's input is, as its URL carries it.
pub trait PageInput: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// The page's path, e.g. `/nqueens`.
    const PATH: &'static str;
    /// The input's query key (`board`, `graph`, `puzzle`, `kind`).
    const KEY: &'static str;
    /// What a note says is kept when the input's value is bad (`the default board`).
    const DEFAULT_NAME: &'static str;
    /// Largest N the page (and the worker) accepts.
    const MAX_SAMPLES: usize;
    /// The sizes `size=` offers, the first the default; none: the page has no `size`.
    const SIZES: &'static [usize] = &[];
    /// What a note says is kept when `size` is bad (`the board's size`).
    const SIZE_NAME: &'static str = "the size";
    /// Whether the page has a rule to stop at; without one the verified stop and its restarts
    /// stay off whatever the URL says.
    const VERIFIED_STOP: bool = true;
    /// Whether the task makes shuffled copies of an input (the engine's
    /// `TokenTask::restart_copy`): the page offers "Every sample solves its own shuffled copy".
    const COPIES: bool = false;
    /// What the copies checkbox says: what a copy changes.
    const COPIES_LABEL: &'static str = "Every sample solves its own shuffled copy of the puzzle (digits relabelled, rows and columns shuffled: the same puzzle to the rules, a new one to the network; shown unshuffled)";
    /// The default input of size `size` (the first of [`PageInput::SIZES`], or 0 when unsized).
    fn default_of(size: usize) -> Self;
    /// Held-out input number `pick` (wrapping) of size `size`, for "New puzzle": one the model
    /// never trained on. None where the page has none.
    fn held_out(_size: usize, _pick: usize) -> Option<Self> {
        None
    }
    /// The input's size (0 when the page has no sizes).
    fn size(&self) -> usize {
        0
    }
    /// Reads the input's text (bringing its own size); the error says why not.
    fn read(text: &str) -> Result<Self, String>;
    /// The input as its URL writes it.
    fn text(&self) -> String;
    /// The shipped weights `model` runs on this input.
    fn weights(&self, model: Model) -> String;
    /// How the page samples an input of size `size` when nothing is set (the task's inference
    /// defaults for that size).
    fn default_sampling(size: usize) -> Sampling;
}

/// What a teacher shares on a GRAM page: the input, the model, and how to sample.
#[derive(Clone, Debug, PartialEq)]
pub struct GramSettings<I> {
    /// The board, graph or puzzle on screen; on `/generate`, what to draw.
    pub puzzle: I,
    pub model: Model,
    pub sampling: Sampling,
}

impl<I: PageInput> GramSettings<I> {
    /// Name of the shipped weights the page runs.
    pub fn weights(&self) -> String {
        self.puzzle.weights(self.model)
    }

    /// Puts `puzzle` on screen. Where its size differs, the sampling follows the new size's
    /// defaults in every setting still at the old size's ([`Sampling::follow_defaults`]).
    pub fn set_puzzle(&mut self, puzzle: I) {
        let (old, new) = (self.puzzle.size(), puzzle.size());
        self.puzzle = puzzle;
        if old != new {
            self.sampling.follow_defaults(&I::default_sampling(old), &I::default_sampling(new));
        }
    }
}

impl<I: PageInput> Default for GramSettings<I> {
    fn default() -> Self {
        let size = I::SIZES.first().copied().unwrap_or(0);
        Self { puzzle: I::default_of(size), model: Model::Gram, sampling: I::default_sampling(size) }
    }
}

/// The one size parser: one of `sizes`, or why not (`8 or 10`).
pub fn read_size(value: &str, sizes: &[usize]) -> Result<usize, String> {
    let names: Vec<String> = sizes.iter().map(usize::to_string).collect();
    value.parse().ok().filter(|n| sizes.contains(n)).ok_or_else(|| names.join(" or "))
}

impl<I: PageInput> UrlState for GramSettings<I> {
    const PATH: &'static str = I::PATH;

    fn apply(&mut self, key: &str, value: &str, notes: &mut Vec<String>) -> bool {
        if self.sampling.read(key, value, I::MAX_SAMPLES, notes) {
            if !I::VERIFIED_STOP {
                self.sampling.stop = false;
                self.sampling.restarts = 0;
            }
            return true;
        }
        match key {
            // A size switches to that size's default input, unless the input already has it; an
            // input brings its own size (so `size` and the input may come in either order).
            "size" if !I::SIZES.is_empty() => {
                let mut size = self.puzzle.size();
                parsed(key, value, read_size(value, I::SIZES), &mut size, I::SIZE_NAME, notes);
                if size != self.puzzle.size() {
                    self.set_puzzle(I::default_of(size));
                }
            }
            "model" => parsed(key, value, Model::parse(value).ok_or("gram or trm"), &mut self.model, "gram", notes),
            _ if key == I::KEY => {
                let mut puzzle = self.puzzle.clone();
                parsed(key, value, I::read(value), &mut puzzle, I::DEFAULT_NAME, notes);
                self.set_puzzle(puzzle);
            }
            _ => return false,
        }
        true
    }

    /// The size and the input first: they set the sampling's defaults, which the other keys
    /// then change (`scale=1&size=10` keeps scale 1 wherever the keys stand).
    fn read_first(key: &str) -> bool {
        key == "size" || key == I::KEY
    }

    fn to_query(&self) -> String {
        let size = if I::SIZES.is_empty() { String::new() } else { format!("size={}&", self.puzzle.size()) };
        format!("{size}{}={}&model={}&{}", I::KEY, self.puzzle.text(), self.model.key(), self.sampling.to_query())
    }
}

impl<I: PageInput> HasSampling for GramSettings<I> {
    const MAX_SAMPLES: usize = I::MAX_SAMPLES;
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

    #[test]
    fn the_size_parser_names_the_sizes() {
        assert_eq!(read_size("10", &[8, 10]), Ok(10));
        assert_eq!(read_size("9", &[8, 10]), Err("8 or 10".into()));
        assert_eq!(read_size("x", &[4, 6, 8]), Err("4 or 6 or 8".into()));
    }
}
