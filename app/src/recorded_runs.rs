//! The recorded runs the GRAM pages show the moment they open (`public/runs/<page>.json`, made
//! by `native-trainer record` from the shipped weights): which file a page shows, whether it is
//! the run the page's settings ask for, and its steps as the worker's reports.
//!
//! Plain Rust, tested natively: each committed file is the run of its page's default settings
//! and of the shipped weights as they are now (their sha256), so a retrain or a new default
//! fails the test until the runs are recorded again (`print_record_commands` prints how).

use engine::solve::recorded::RecordedRun;

use crate::protocol::{StepReport, VerifiedStep};
use crate::url_state::sampling::Sampling;

/// Where the pages find their recorded runs, under the site's root.
pub const RUNS_PATH: &str = "/runs";

/// What a page would run now, to compare with a recording.
pub struct Wanted<'a> {
    pub weights: &'a str,
    pub puzzle: &'a str,
    pub sampling: &'a Sampling,
}

/// The recording is the run `wanted` asks for (same weights, puzzle, N, steps, seed, scale, stop).
pub fn matches(run: &RecordedRun, wanted: &Wanted) -> bool {
    let s = wanted.sampling;
    run.model == wanted.weights
        && run.puzzle == wanted.puzzle
        && run.samples == s.samples
        && run.steps == s.steps
        && run.seed == s.seed
        && (run.scale - s.scale).abs() < 1e-9
        && run.verified_stop == s.stop
        && (!s.stop || run.restarts == s.restarts)
}

/// The recording's steps as reports of run `id` (no timing: they were not computed here).
pub fn reports(run: &RecordedRun, id: u64) -> Vec<StepReport> {
    run.steps_recorded.iter().map(|s| StepReport::from_view(id, s.view(), 0.0)).collect()
}

/// Where the recorded run verified, as the worker's `Done` says it.
pub fn verified(run: &RecordedRun) -> Option<VerifiedStep> {
    run.verified.map(|v| VerifiedStep { round: v.round, step: v.step, sample: v.sample })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url_state::coloring::ColoringSettings;
    use crate::url_state::generate::GenerateSettings;
    use crate::url_state::nqueens::NQueensSettings;
    use crate::url_state::sudoku::{SudokuSettings, weights as sudoku_weights};

    /// (file, weights, puzzle, sampling) of every GRAM page's default settings.
    fn defaults() -> Vec<(&'static str, String, String, Sampling)> {
        let (q, s, c, g) = (NQueensSettings::default(), SudokuSettings::default(), ColoringSettings::default(), GenerateSettings::default());
        vec![
            ("nqueens", q.weights(), q.board.to_text(), q.sampling),
            ("sudoku", sudoku_weights(s.model).to_string(), s.puzzle.to_text(), s.sampling),
            ("coloring", c.weights(), c.graph.to_text(), c.sampling),
            ("generate", g.weights(), g.kind.blank_input(), g.sampling),
        ]
    }

    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    #[test]
    fn every_committed_run_is_its_pages_default_run_of_the_shipped_weights() {
        for (page, weights, puzzle, sampling) in defaults() {
            let path = root().join(format!("public{RUNS_PATH}/{page}.json"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let run: RecordedRun = serde_json::from_str(&text).unwrap();
            assert!(matches(&run, &Wanted { weights: &weights, puzzle: &puzzle, sampling: &sampling }), "{page}: not the default run; re-record");
            let manifest = std::fs::read_to_string(root().join(format!("public/weights/{weights}.json"))).unwrap();
            let sha = serde_json::from_str::<serde_json::Value>(&manifest).unwrap()["sha256"].as_str().unwrap().to_string();
            assert_eq!(run.weights_sha256, sha, "{page}: recorded with other weights; re-record");
            let steps = &run.steps_recorded;
            assert!(!steps.is_empty() && steps.iter().all(|v| v.boards.len() == sampling.samples && v.values.len() == sampling.samples));
            assert_eq!(reports(&run, 0).len(), steps.len());
            // Without the stop the whole budget; with it, it ends where it verified.
            let last = steps.last().unwrap();
            match run.verified {
                Some(v) => assert!(sampling.stop && (v.round, v.step) == (last.round, last.step)),
                None => assert_eq!(steps.len(), sampling.steps * if sampling.stop { 1 + sampling.restarts } else { 1 }),
            }
        }
    }

    #[test]
    fn another_setting_is_not_the_recorded_run() {
        let (_, weights, puzzle, sampling) = defaults().remove(0);
        let run = RecordedRun {
            model: weights.clone(),
            weights_sha256: String::new(),
            puzzle: puzzle.clone(),
            samples: sampling.samples,
            steps: sampling.steps,
            seed: sampling.seed,
            scale: sampling.scale,
            verified_stop: sampling.stop,
            restarts: sampling.restarts,
            verified: None,
            steps_recorded: Vec::new(),
        };
        assert!(matches(&run, &Wanted { weights: &weights, puzzle: &puzzle, sampling: &sampling }));
        let other = Sampling { seed: sampling.seed + 1, ..sampling.clone() };
        assert!(!matches(&run, &Wanted { weights: &weights, puzzle: &puzzle, sampling: &other }));
        assert!(!matches(&run, &Wanted { weights: "trm-nqueens8", puzzle: &puzzle, sampling: &sampling }));
    }

    /// `cargo test -p app --lib -- --ignored print_record_commands --nocapture`: the commands
    /// that record every page's default run (run them from the repository root).
    #[test]
    #[ignore]
    fn print_record_commands() {
        for (page, weights, puzzle, s) in defaults() {
            let stop = if s.stop { format!(" --stop-restarts {}", s.restarts) } else { String::new() };
            println!(
                "target/release/native-trainer record --weights public/weights/{weights}.bpk --puzzle '{puzzle}' --samples {} --steps {} --seed {} --guidance-scale {}{stop} --out public{RUNS_PATH}/{page}.json",
                s.samples, s.steps, s.seed, s.scale
            );
        }
    }
}
