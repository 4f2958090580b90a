//! `/train`'s messages: one model (GRAM or TRM) of a run trained from scratch in its own
//! worker, its curve points while it trains, and its weights when the visitor downloads them.

use serde::{Deserialize, Serialize};

/// The engine's point of a run's curve (training figures, and the held-out measure where one
/// was taken).
pub use engine::training::curve::CurvePoint;

/// The widths (`d_model`) the page trains at; the worker refuses others.
pub use engine::training::recorded::PAGE_WIDTHS as WIDTHS;

/// How a training request starts.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainStart {
    /// A fresh model from the seed.
    Fresh,
    /// The model as it was when paused (a fresh one if there is none).
    Continue,
}

/// Train one model of the task's recipe until paused (a `Cancel` of this run) or `steps` more
/// steps.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct TrainRequest {
    pub run: u64,
    /// A task of the engine's `registry::LEARNABLE` (`coloring6`).
    pub task: String,
    /// GRAM (stochastic guidance) or its TRM twin.
    pub guidance: bool,
    /// The network's width (its `d_model`).
    pub width: usize,
    pub seed: u64,
    pub start: TrainStart,
    pub steps: usize,
    /// Steps between two curve points, and between two held-out measures.
    pub point_every: usize,
    pub measure_every: usize,
    /// The held-out measure: validation inputs and samples per input.
    pub inputs: usize,
    pub samples: usize,
}

/// A curve point of the model a worker trains.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct TrainProgress {
    pub run: u64,
    pub point: CurvePoint,
    /// Worker milliseconds per training step since the last point.
    pub millis_per_step: f64,
    /// Worker milliseconds the held-out measure took, when the point has one.
    pub measure_millis: Option<f64>,
}

/// The trained model's files, as `native-trainer` reads them: `<name>.bpk` and `<name>.json`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct TrainedWeights {
    pub name: String,
    pub bpk: Vec<u8>,
    pub manifest: String,
}

/// "Try it": the model as it is now solves `puzzle` (a held-out input), `samples` times from
/// `seed`, sampled as the held-out measure samples (answered by one `Tried`, between two
/// training steps when it trains).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct TryRequest {
    pub puzzle: String,
    pub samples: usize,
    pub seed: u64,
}

/// What "Try it" found: each sample's answer as puzzle text, at which training step, and the
/// worker's milliseconds.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Trial {
    pub puzzle: String,
    pub answers: Vec<String>,
    pub step: usize,
    pub millis: f64,
}
