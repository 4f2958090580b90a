//! The recorded runs the pages show the moment they open (`public/runs/<page>.json`, made by
//! `native-trainer record` from the shipped weights): which file a page shows, whether it is
//! the run the page's settings ask for, and (GRAM pages) its steps as the worker's reports.
//! The GRAM pages record a [`RecordedRun`], `/tree` a [`RecordedTree`], `/grammar` a
//! [`RecordedGrammar`]; `/jepa`'s recorded training session is `crate::recorded_jepa`'s.
//!
//! Plain Rust, tested natively: each committed file is the run of its page's default settings
//! and of the shipped weights as they are now (their sha256), so a retrain or a new default
//! fails the test until the runs are recorded again (`print_record_commands` prints how).

use engine::solve::Copies;
use engine::solve::recorded::RecordedRun;

use crate::protocol::{Knobs, StepReport, VerifiedStep};
use crate::url_state::fields::same;
use crate::url_state::sampling::Sampling;

/// Where the pages find their recorded runs, under the site's root.
pub const RUNS_PATH: &str = "/runs";

/// `/tree`'s, `/grammar`'s, `/jepa`'s and `/train`'s files under [`RUNS_PATH`] (without
/// `.json`); `/jepa`'s is a recorded training session (`crate::recorded_jepa`), `/train`'s a
/// recorded training run (`engine::training::recorded`).
pub const TREE_RUN: &str = "tree";
pub const GRAMMAR_RUN: &str = "grammar";
pub const JEPA_RUN: &str = "jepa";
pub const TRAIN_RUN: &str = "train";

/// What a page would run now, to compare with a recording.
pub struct Wanted<'a> {
    pub weights: &'a str,
    pub puzzle: &'a str,
    pub sampling: &'a Sampling,
}

/// The recording is the run `wanted` asks for (same weights, puzzle, N, steps, seed, scale, stop;
/// the same restarts, or any budget that reaches the round it verified in, and the same copies,
/// or copies per restart or none when it verified in round 0, which is then the same run; without
/// the stop copies count only on a page whose copies need none).
pub fn matches(run: &RecordedRun, wanted: &Wanted) -> bool {
    let s = wanted.sampling;
    run.model == wanted.weights
        && run.puzzle == wanted.puzzle
        && run.samples == s.samples
        && run.steps == s.steps
        && run.seed == s.seed
        && same(run.scale, s.scale)
        && run.verified_stop == s.stop
        && s.noise == 0.0
        && (!s.stop || run.restarts == s.restarts || run.verified.is_some_and(|v| v.round <= s.restarts.min(run.restarts)))
        && (run.copies == s.run_copies()
            || (!s.stop && !s.copies_free)
            || (s.stop && run.verified.is_some_and(|v| v.round == 0) && [run.copies, s.run_copies()].iter().all(|&c| c != Copies::Samples)))
}

/// How `run` sampled (the request that replays it live, `protocol::SolveRequest::new`; a
/// recording has no latent noise).
pub fn knobs(run: &RecordedRun) -> Knobs {
    Knobs {
        samples: run.samples,
        guidance_scale: run.scale,
        seed: run.seed,
        steps: run.steps,
        verified_stop: run.verified_stop,
        restarts: run.restarts,
        copies: run.copies,
        latent_noise: 0.0,
    }
}

/// The recording's steps as reports of run `id` (no timing: they were not computed here).
pub fn reports(run: &RecordedRun, id: u64) -> Vec<StepReport> {
    run.steps_recorded.iter().map(|s| StepReport::from_view(id, s.view(), 0.0)).collect()
}

/// Where the recorded run verified, as the worker's `Done` says it.
pub fn verified(run: &RecordedRun) -> Option<VerifiedStep> {
    run.verified.map(VerifiedStep::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::coloring::url::ColoringSettings;
    use crate::ui::generate::url::GenerateSettings;
    use crate::ui::grammar::url::{self as grammar, GrammarSettings, grammar_matches};
    use crate::ui::nqueens::url::NQueensSettings;
    use crate::ui::sudoku::url::SudokuSettings;
    use crate::ui::tree::url::{self as tree, TreeSettings, tree_matches};
    use engine::studies::grammar::recorded::RecordedGrammar;
    use engine::tasks::tree::recorded::RecordedTree;

    /// (file, weights, puzzle, sampling) of every GRAM page's default settings.
    fn defaults() -> Vec<(&'static str, String, String, Sampling)> {
        let (q, s, c, g) =
            (NQueensSettings::default(), SudokuSettings::default(), ColoringSettings::default(), GenerateSettings::default());
        vec![
            ("nqueens", q.weights(), q.puzzle.to_text(), q.sampling),
            ("sudoku", s.weights(), s.puzzle.to_text(), s.sampling),
            ("coloring", c.weights(), c.puzzle.to_text(), c.sampling),
            ("generate", g.weights(), g.puzzle.blank_input(), g.sampling),
        ]
    }

    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    /// The committed file of `page` and the sha256 of the shipped weights `weights`.
    fn committed(page: &str, weights: &str) -> (String, String) {
        let path = root().join(format!("public{RUNS_PATH}/{page}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let manifest = std::fs::read_to_string(root().join(format!("public/weights/{weights}.json"))).unwrap();
        let sha = serde_json::from_str::<serde_json::Value>(&manifest).unwrap()["sha256"].as_str().unwrap().to_string();
        // It arrives before the weights: a few kB, not the weights' MB.
        assert!(text.len() < 64 << 10, "{page}: {} bytes", text.len());
        (text, sha)
    }

    #[test]
    fn the_committed_tree_and_grammar_runs_are_their_pages_default_runs_of_the_shipped_weights() {
        let (text, sha) = committed(TREE_RUN, tree::WEIGHTS);
        let run: RecordedTree = serde_json::from_str(&text).unwrap();
        assert!(tree_matches(&run, &TreeSettings::default()), "/tree: not the default question; re-record");
        assert_eq!(run.weights_sha256, sha, "/tree: recorded with other weights; re-record");
        let e = &run.explanation;
        assert!(!e.steps.is_empty() && e.route.is_some(), "an answer with its latents explained");

        let (text, sha) = committed(GRAMMAR_RUN, grammar::WEIGHTS);
        let run: RecordedGrammar = serde_json::from_str(&text).unwrap();
        assert!(grammar_matches(&run, &GrammarSettings::default()), "/grammar: not the default request; re-record");
        assert_eq!(run.weights_sha256, sha, "/grammar: recorded with other weights; re-record");
        // The page's state once every curve point has arrived: the worker's draws, every level.
        let v = &run.view;
        assert_eq!(v.answers.len(), 3);
        assert_eq!(v.draws, engine::studies::grammar::explore::DRAWS);
        assert_eq!(v.curve.iter().map(|p| p.0).collect::<Vec<_>>(), engine::studies::grammar::sweep::CORRUPTION.to_vec());
    }

    #[test]
    fn another_tree_or_grammar_setting_is_not_the_recorded_run() {
        let run: RecordedTree = serde_json::from_str(&committed(TREE_RUN, tree::WEIGHTS).0).unwrap();
        let d = TreeSettings::default();
        assert!(tree_matches(&run, &TreeSettings { run: true, ..d.clone() }), "run=1 is not a setting of the answer");
        assert!(!tree_matches(&run, &TreeSettings { noise: 0.01, ..d.clone() }));
        assert!(!tree_matches(&run, &TreeSettings { seed: 1, ..d.clone() }));
        let other = engine::tasks::tree::TreeTask::parse("AB, AC[ROOT]A[TARGET]B[ROUTE]").unwrap();
        assert!(!tree_matches(&run, &TreeSettings { task: other, ..d.clone() }));
        assert!(!tree_matches(&RecordedTree { model: "reasoner-other".into(), ..run.clone() }, &d));

        let run: RecordedGrammar = serde_json::from_str(&committed(GRAMMAR_RUN, grammar::WEIGHTS).0).unwrap();
        let d = GrammarSettings::default();
        assert!(grammar_matches(&run, &d));
        for s in [
            GrammarSettings { sequence: 1, ..d.clone() },
            GrammarSettings { corrupt: 0.1, ..d.clone() },
            GrammarSettings { noise: 0.05, ..d.clone() },
            GrammarSettings { seed: 2, ..d.clone() },
        ] {
            assert!(!grammar_matches(&run, &s), "{s:?}");
        }
    }

    #[test]
    fn every_committed_run_is_its_pages_default_run_of_the_shipped_weights() {
        for (page, weights, puzzle, sampling) in defaults() {
            let path = root().join(format!("public{RUNS_PATH}/{page}.json"));
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let run: RecordedRun = serde_json::from_str(&text).unwrap();
            assert!(
                matches(&run, &Wanted { weights: &weights, puzzle: &puzzle, sampling: &sampling }),
                "{page}: not the default run; re-record"
            );
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
                None => assert_eq!(steps.len(), sampling.steps * if sampling.stop { sampling.restarts.saturating_add(1) } else { 1 }),
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
            copies: sampling.run_copies(),
            verified: None,
            steps_recorded: Vec::new(),
        };
        assert!(matches(&run, &Wanted { weights: &weights, puzzle: &puzzle, sampling: &sampling }));
        let other = Sampling { seed: sampling.seed + 1, ..sampling.clone() };
        assert!(!matches(&run, &Wanted { weights: &weights, puzzle: &puzzle, sampling: &other }));
        let noisy = Sampling { noise: 1.0, ..sampling.clone() };
        assert!(!matches(&run, &Wanted { weights: &weights, puzzle: &puzzle, sampling: &noisy }), "recordings are without PTRM noise");
        assert!(!matches(&run, &Wanted { weights: "trm-nqueens8", puzzle: &puzzle, sampling: &sampling }));
    }

    /// `cargo test -p app --lib -- --ignored print_record_commands --nocapture`: the commands
    /// that record every page's default run, the GRAM pages', `/tree`'s and `/grammar`'s (run
    /// them from the repository root).
    #[test]
    #[ignore]
    fn print_record_commands() {
        for (page, weights, puzzle, s) in defaults() {
            // A default of restarts until verified is recorded with the most a setting allows: the
            // recording verifies before them (checked by the test above).
            let stop = if s.stop {
                format!(" --stop-restarts {}", s.restarts.min(crate::url_state::sampling::MAX_RESTARTS))
            } else {
                String::new()
            };
            println!(
                "target/release/native-trainer record --weights public/weights/{weights}.bpk --puzzle '{puzzle}' --samples {} --steps {} --seed {} --guidance-scale {}{stop} --out public{RUNS_PATH}/{page}.json",
                s.samples, s.steps, s.seed, s.scale
            );
        }
        let t = TreeSettings::default();
        println!(
            "target/release/native-trainer record --weights public/weights/{}.bpk --puzzle '{}' --latent-noise {} --seed {} --out public{RUNS_PATH}/{TREE_RUN}.json",
            tree::WEIGHTS,
            t.task.input_text(),
            t.noise,
            t.seed
        );
        let g = GrammarSettings::default();
        println!(
            "target/release/native-trainer record --weights public/weights/{}.bpk --sequence {} --corrupt {} --latent-noise {} --seed {} --out public{RUNS_PATH}/{GRAMMAR_RUN}.json",
            grammar::WEIGHTS,
            g.sequence,
            g.corrupt,
            g.noise,
            g.seed
        );
        let j = crate::ui::jepa::url::JepaSettings::default();
        println!(
            "target/release/native-trainer record --task jepa --lambda {} --k {} --seed {} --steps {} --out public{RUNS_PATH}/{JEPA_RUN}.json",
            j.lambda,
            j.k,
            j.seed,
            engine::studies::regex::session::RECORDED_STEPS
        );
        let t = crate::ui::train::url::TrainSettings::default();
        println!(
            "target/release/native-trainer --threads 1 record --task train --seed {} --width {} --steps {} --out public{RUNS_PATH}/{TRAIN_RUN}.json",
            t.seed,
            t.width,
            engine::training::recorded::PAGE_STEPS
        );
    }

    /// `/train` opens on its recorded run: the page's default settings, task, cadence and
    /// length, a point every 5 steps and a held-out measure every 25 for both models.
    #[test]
    fn the_committed_training_run_is_the_pages_default_run() {
        use crate::ui::train::url::{TrainSettings, train_matches};
        use engine::training::recorded::{PAGE_CADENCE, PAGE_STEPS, RecordedTraining};
        let path = root().join(format!("public{RUNS_PATH}/{TRAIN_RUN}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let run: RecordedTraining = serde_json::from_str(&text).unwrap();
        let settings = TrainSettings::default();
        assert!(train_matches(&run, &settings), "not the default run; re-record");
        assert!(!train_matches(&run, &TrainSettings { seed: 1, ..settings.clone() }));
        assert!(!train_matches(&run, &TrainSettings { width: 32, ..settings }));
        assert_eq!((run.steps, run.cadence), (PAGE_STEPS, PAGE_CADENCE), "re-record with the page's length and cadence");
        for curve in [&run.gram, &run.trm] {
            let steps: Vec<usize> = curve.iter().map(|p| p.step).collect();
            assert_eq!(steps, (1..=PAGE_STEPS / 5).map(|i| i * 5).collect::<Vec<_>>());
            assert!(curve.iter().all(|p| p.held_out.is_some() == (p.step % 25 == 0)));
        }
    }
}
