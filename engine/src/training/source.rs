//! Where a GRAM/TRM run's training pairs come from, as the training step sees it: a random pair
//! for a refilled slot, and the reward of a prediction for a pair (1 when it is a valid answer
//! to the pair's input). A listed task's pairs are [`super::Listed`]; the trainer adds Sudoku's
//! generated pool and the imports it reads from files.

use serde::{Deserialize, Serialize};

use crate::gram::noise::NoiseSource;

/// One (input, target) pair in a batch slot; its reward is checked against the input itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair {
    pub x: Vec<u32>,
    pub y: Vec<u32>,
}

/// A run's training pairs.
pub trait TrainSource: Sync {
    /// A random training pair.
    fn draw(&self, rng: &mut NoiseSource) -> Pair;
    /// r = 1 when `prediction` is a valid answer to the pair's input, else 0.
    fn reward(&self, pair: &Pair, prediction: &[u32]) -> f32;
}
