//! `/train`: the seed both models start from, the networks' width, and the run flag.

use crate::url_state::UrlState;
use crate::url_state::fields::{SEED, ignored, read_run, run_suffix};

/// The widths (`d_model`) the page trains at, the worker's (`crate::protocol`).
pub use crate::protocol::TRAIN_WIDTHS as WIDTHS;
use engine::training::recorded::{PAGE_CADENCE, PAGE_STEPS};
/// Steps a training request runs at most (each model) before it pauses by itself.
pub const MAX_STEPS: usize = PAGE_STEPS;
/// Steps between two curve points, and between two held-out measures.
pub const POINT_EVERY: usize = PAGE_CADENCE.point_every;
pub const MEASURE_EVERY: usize = PAGE_CADENCE.measure_every;
/// The held-out measure: validation graphs and samples per graph (`eval --part validation
/// --limit 16 --samples 10` gives the same figures for the downloaded weights).
pub const HELD_OUT_INPUTS: usize = PAGE_CADENCE.held_out.inputs;
pub const HELD_OUT_SAMPLES: usize = PAGE_CADENCE.held_out.samples;
/// The task both models learn (the engine's `registry::LEARNABLE`).
pub const TASK: &str = "coloring6";

#[derive(Clone, Debug, PartialEq)]
pub struct TrainSettings {
    pub seed: u64,
    pub width: usize,
    /// Start training as soon as the page opens.
    pub run: bool,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings { seed: 0, width: 64, run: false }
    }
}

impl UrlState for TrainSettings {
    const PATH: &'static str = "/train";

    fn apply(&mut self, key: &str, value: &str, notes: &mut Vec<String>) -> bool {
        match key {
            "seed" => SEED.read(key, value, &mut self.seed, notes),
            "width" => match value.parse::<usize>().ok().filter(|w| WIDTHS.contains(w)) {
                Some(w) => self.width = w,
                None => notes.push(ignored(key, value, "32 or 64", self.width)),
            },
            "run" => read_run(value, &mut self.run),
            _ => return false,
        }
        true
    }

    fn to_query(&self) -> String {
        format!("seed={}&width={}{}", self.seed, self.width, run_suffix(self.run))
    }
}

/// The recorded run (`engine::training::recorded`) is the one these settings would train.
pub fn train_matches(run: &engine::training::recorded::RecordedTraining, settings: &TrainSettings) -> bool {
    run.seed == settings.seed && run.width == settings.width && run.task == TASK
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_contract() {
        let s = TrainSettings { seed: 4, width: 32, run: true };
        assert_eq!(s.to_query(), "seed=4&width=32&run=1");
        assert_eq!(TrainSettings::from_query(&s.to_query()), (s, vec![]));
        let (d, notes) = TrainSettings::from_query("width=48&seed=x");
        assert_eq!(d, TrainSettings::default());
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("32 or 64")), "{notes:?}");
    }
}
