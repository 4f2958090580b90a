//! `/jepa`: LLM-JEPA's two knobs (lambda, the weight of the JEPA term; k, its [PRED] tokens),
//! how the models start (fresh or from the shipped end of training), the seed, and the run flag.

use engine::studies::regex::session::RecordedSession;

use crate::url_state::UrlState;
use crate::url_state::fields::{Decimal, SEED, Whole, ignored, read_run, run_suffix, same};

/// `lambda`: 0 to 4 in steps of 0.1.
pub const LAMBDA: Decimal = Decimal { max: 4.0, per_unit: 10.0, rule: "a number from 0 to 4 (the JEPA term's weight)" };
/// `k`: 0 to 4 [PRED] tokens.
pub const K: Whole<usize> = Whole { min: 0, max: 4 };
/// Steps a live request trains at most (each model) before it pauses by itself.
pub const MAX_LIVE_STEPS: usize = 3_000;

#[derive(Clone, Debug, PartialEq)]
pub struct JepaSettings {
    pub lambda: f64,
    pub k: usize,
    /// Start from the shipped trained weights instead of fresh ones.
    pub trained: bool,
    pub seed: u64,
    /// Start training as soon as the page opens.
    pub run: bool,
}

impl Default for JepaSettings {
    fn default() -> Self {
        JepaSettings { lambda: 1.0, k: 1, trained: false, seed: 0, run: false }
    }
}

impl UrlState for JepaSettings {
    const PATH: &'static str = "/jepa";

    fn apply(&mut self, key: &str, value: &str, notes: &mut Vec<String>) -> bool {
        match key {
            "lambda" => LAMBDA.read(key, value, &mut self.lambda, notes),
            "k" => K.read(key, value, &mut self.k, notes),
            "start" => match value {
                "fresh" => self.trained = false,
                "trained" => self.trained = true,
                _ => notes.push(ignored(key, value, "fresh or trained", if self.trained { "trained" } else { "fresh" })),
            },
            "seed" => SEED.read(key, value, &mut self.seed, notes),
            "run" => read_run(value, &mut self.run),
            _ => return false,
        }
        true
    }

    fn to_query(&self) -> String {
        let start = if self.trained { "trained" } else { "fresh" };
        format!("lambda={}&k={}&start={start}&seed={}{}", self.lambda, self.k, self.seed, run_suffix(self.run))
    }
}

/// The recorded session is the one `settings` would train: fresh models, the same lambda, k and
/// seed (a session has no planned end, so any recorded length is its beginning).
pub fn jepa_matches(session: &RecordedSession, settings: &JepaSettings) -> bool {
    !settings.trained && same(session.lambda, settings.lambda) && session.k == settings.k && session.seed == settings.seed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_contract() {
        let s = JepaSettings { lambda: 2.5, k: 3, trained: true, seed: 4, run: true };
        assert_eq!(s.to_query(), "lambda=2.5&k=3&start=trained&seed=4&run=1");
        assert_eq!(JepaSettings::from_query(&s.to_query()), (s, vec![]));
        let (d, notes) = JepaSettings::from_query("lambda=9&k=7&start=end");
        assert_eq!(d, JepaSettings::default());
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].contains("0 to 4") && notes[1].contains("0 to 4") && notes[2].contains("fresh or trained"));
        assert_eq!(JepaSettings::from_query("lambda=1.26").0.lambda, 1.3, "rounded to the slider's step");
    }
}
