//! `/tree`: the tree and question, the latent noise and its seed. The seed and the run flag are
//! the shared readers; the tree page has no N, scale, steps or backend.

use engine::tasks::tree::TreeTask;
use engine::tasks::tree::recorded::RecordedTree;

use crate::url_state::UrlState;
use crate::url_state::fields::{Decimal, SEED, parsed, read_run, run_suffix, same};
use crate::url_state::query::encode;

/// Weights the page runs.
pub const WEIGHTS: &str = "reasoner-tree";
/// Largest latent noise the slider offers (sigma as a fraction of max |h|); the paper sweeps 0-15%.
pub const MAX_NOISE: f64 = 0.5;
/// `noise`: 0 to 0.5 in steps of 0.01.
pub const NOISE: Decimal = Decimal { max: MAX_NOISE, per_unit: 100.0, rule: "a number from 0 to 0.5 (a fraction of max |h|)" };
/// The paper's own example (the JEPA-Reasoner paper, appendix A).
pub const PAPER_EXAMPLE: &str = "NL, NO, LJ, LI, OA, OM, JB, JH, IG, IF, AD, AE, MK, MC[ROOT]N[TARGET]K[ROUTE]";

/// What a teacher shares on `/tree`.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeSettings {
    /// The question, as the engine writes it.
    pub task: TreeTask,
    /// Latent noise sigma / max |h|, in steps of 0.01.
    pub noise: f64,
    pub seed: u64,
    /// Run as soon as the page is ready.
    pub run: bool,
}

impl Default for TreeSettings {
    fn default() -> Self {
        Self { task: TreeTask::parse(PAPER_EXAMPLE).expect("the paper's example parses"), noise: 0.0, seed: 0, run: false }
    }
}

impl UrlState for TreeSettings {
    const PATH: &'static str = "/tree";

    fn apply(&mut self, key: &str, value: &str, notes: &mut Vec<String>) -> bool {
        match key {
            "tree" => parsed(key, value, TreeTask::parse(value), &mut self.task, "the paper's example tree", notes),
            "noise" => NOISE.read(key, value, &mut self.noise, notes),
            "seed" => SEED.read(key, value, &mut self.seed, notes),
            "run" => read_run(value, &mut self.run),
            _ => return false,
        }
        true
    }

    /// The tree line is percent-encoded; the browser's URLSearchParams decodes it.
    fn to_query(&self) -> String {
        format!("tree={}&noise={}&seed={}{}", encode(&self.task.input_text()), self.noise, self.seed, run_suffix(self.run))
    }
}

/// The recording is the answer `/tree` asks for with `s` (its weights, question, noise and seed).
pub fn tree_matches(run: &RecordedTree, s: &TreeSettings) -> bool {
    run.model == WEIGHTS && run.task().is_some_and(|t| t == s.task) && same(run.noise, s.noise) && run.seed == s.seed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url_state::query::decode_component;

    #[test]
    fn round_trips_and_rejects_bad_values_with_notes() {
        let s = TreeSettings { task: TreeTask::parse("AB, AC, BD, BE[ROOT]A[TARGET]E[ROUTE]").unwrap(), noise: 0.12, seed: 5, run: true };
        let back: Vec<(String, String)> =
            s.to_query().split('&').map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), decode_component(v))).unwrap()).collect();
        assert_eq!(TreeSettings::from_pairs(&back), (s, vec![]));
        let bad = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
        for (k, v, want) in [
            ("tree", "AB, AC[ROOT]A[TARGET]Q[ROUTE]", "not in the tree"),
            ("noise", "2", "0 to 0.5"),
            ("seed", "-1", "whole"),
            ("x", "1", "unknown"),
        ] {
            let (d, notes) = TreeSettings::from_pairs(&bad(k, v));
            assert_eq!(d, TreeSettings::default());
            assert!(notes.len() == 1 && notes[0].contains(want), "{notes:?}");
        }
    }

    /// The exact query of today's links, e.g. the e2e test's `noise=0.3&seed=7&run=1`.
    #[test]
    fn the_url_contract() {
        let d = TreeSettings::default();
        assert_eq!(
            d.to_query(),
            "tree=NL%2C%20NO%2C%20LJ%2C%20LI%2C%20OA%2C%20OM%2C%20JB%2C%20JH%2C%20IG%2C%20IF%2C%20AD%2C%20AE%2C%20MK%2C%20MC%5BROOT%5DN%5BTARGET%5DK%5BROUTE%5D&noise=0&seed=0"
        );
        let (s, notes) = TreeSettings::from_query("noise=0.3&seed=7&run=1");
        assert_eq!((s.noise, s.seed, s.run, notes.len()), (0.3, 7, true, 0));
        assert!(s.to_query().ends_with("&noise=0.3&seed=7&run=1"));
        let (s, notes) = TreeSettings::from_query("noise=0.123&n=4&backend=cpu");
        assert_eq!(s.noise, 0.12, "rounded to the slider's step");
        assert_eq!(notes, ["Ignored unknown parameter \"n\".", "Ignored unknown parameter \"backend\"."], "no sampling keys here");
        let (_, notes) = TreeSettings::from_query("noise=0.6");
        assert_eq!(notes, ["Ignored noise=\"0.6\" (a number from 0 to 0.5 (a fraction of max |h|)); using 0."]);
    }
}
