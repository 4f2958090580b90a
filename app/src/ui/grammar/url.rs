//! `/grammar`: which held-out sequence, the share of its prefix corrupted, the latent noise, the
//! seed of both, and the run flag.

use engine::studies::grammar::recorded::RecordedGrammar;

use crate::url_state::UrlState;
use crate::url_state::fields::{Decimal, SEED, Whole, read_run, run_suffix, same};

/// Weights the page runs (the small scale of the grammar study).
pub const WEIGHTS: &str = "cfg-small";
/// `seq`: which held-out (test) sequence, 0 to 9,999.
pub const SEQUENCE: Whole<usize> = Whole { min: 0, max: 9_999 };
/// `corrupt`: 0 to 0.3 in steps of 0.01 (the paper sweeps 0-30%).
pub const CORRUPT: Decimal = Decimal { max: 0.3, per_unit: 100.0, rule: "a number from 0 to 0.3 (the share of the prefix flipped)" };
/// `noise`: 0 to 0.15 in steps of 0.01 (the paper sweeps 0-15% of max |h|).
pub const NOISE: Decimal = Decimal { max: 0.15, per_unit: 100.0, rule: "a number from 0 to 0.15 (a fraction of max |h|)" };

/// What a teacher shares on `/grammar`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GrammarSettings {
    pub sequence: usize,
    pub corrupt: f64,
    pub noise: f64,
    pub seed: u64,
    /// Run as soon as the page is ready.
    pub run: bool,
}

impl UrlState for GrammarSettings {
    const PATH: &'static str = "/grammar";

    fn apply(&mut self, key: &str, value: &str, notes: &mut Vec<String>) -> bool {
        match key {
            "seq" => SEQUENCE.read(key, value, &mut self.sequence, notes),
            "corrupt" => CORRUPT.read(key, value, &mut self.corrupt, notes),
            "noise" => NOISE.read(key, value, &mut self.noise, notes),
            "seed" => SEED.read(key, value, &mut self.seed, notes),
            "run" => read_run(value, &mut self.run),
            _ => return false,
        }
        true
    }

    fn to_query(&self) -> String {
        format!("seq={}&corrupt={}&noise={}&seed={}{}", self.sequence, self.corrupt, self.noise, self.seed, run_suffix(self.run))
    }
}

/// The recording is the exploration `/grammar` asks for with `s` (its weights, sequence,
/// corruption, noise and seed).
pub fn grammar_matches(run: &RecordedGrammar, s: &GrammarSettings) -> bool {
    run.model == WEIGHTS && run.sequence == s.sequence && same(run.corrupt, s.corrupt) && same(run.noise, s.noise) && run.seed == s.seed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_contract() {
        let s = GrammarSettings { sequence: 12, corrupt: 0.2, noise: 0.05, seed: 3, run: true };
        assert_eq!(s.to_query(), "seq=12&corrupt=0.2&noise=0.05&seed=3&run=1");
        assert_eq!(GrammarSettings::from_query(&s.to_query()), (s, vec![]));
        let (d, notes) = GrammarSettings::from_query("corrupt=0.5&noise=0.2&seq=x");
        assert_eq!(d, GrammarSettings::default());
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].contains("0 to 0.3") && notes[1].contains("0 to 0.15") && notes[2].contains("0 to 9999"));
        let (s, _) = GrammarSettings::from_query("corrupt=0.123");
        assert_eq!(s.corrupt, 0.12, "rounded to the slider's step");
    }
}
