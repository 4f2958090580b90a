//! `train --givens LO-HI` and `--hardest-of K`: how the Sudoku training pool is made, checked before
//! anything is generated, recorded in the checkpoint and kept by a resumed run; and the rated
//! held-out sets (`split` / `eval --hardest-of K`) its checkpoints are chosen on.

mod common;
use common::{bin, scratch};

fn refused(args: &[&str], says: &str) {
    let out = bin().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?} should say {says:?}: {err}");
}

#[test]
fn bad_givens_are_refused_before_training() {
    let dir = scratch("bad");
    let d = dir.to_str().unwrap();
    refused(&["train", "--preset", "gram-sudoku", "--givens", "12-31", "--run-dir", d], "17 <= LO <= HI <= 40");
    refused(&["train", "--preset", "gram-sudoku", "--givens", "31-22", "--run-dir", d], "17 <= LO <= HI <= 40");
    refused(&["train", "--preset", "gram-sudoku", "--givens", "twenty", "--run-dir", d], "e.g. 17-31");
    refused(
        &["train", "--preset", "gram-nqueens8", "--givens", "17-31", "--run-dir", d],
        "--givens and --hardest-of are for Sudoku presets",
    );
    refused(
        &["train", "--preset", "gram-nqueens8", "--hardest-of", "4", "--run-dir", d],
        "--givens and --hardest-of are for Sudoku presets",
    );
    refused(&["train", "--preset", "gram-sudoku", "--hardest-of", "0", "--run-dir", d], "--hardest-of");
    assert!(!dir.join("latest").exists(), "nothing was trained");
}

#[test]
fn the_givens_are_the_runs_data_and_a_resume_keeps_them() {
    let dir = scratch("run");
    let d = dir.to_str().unwrap();
    let base = ["train", "--preset", "gram-sudoku", "--eval-every", "0", "--run-dir", d];
    let out = bin().args(base).args(["--steps", "1", "--givens", "17-24"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("target givens 17-24"), "the run says what it trains on: {err}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ckpt-0000001").join("state.json")).unwrap()).unwrap();
    assert_eq!(state["train_givens"], serde_json::json!([17, 24]));
    // A resumed run keeps them; asking for others is refused.
    refused(&[&base[..], &["--steps", "2", "--resume", "--givens", "22-40"]].concat(), "keeps the training data");
    refused(&[&base[..], &["--steps", "2", "--resume", "--hardest-of", "4"]].concat(), "keeps the training data");
    let out = bin().args(base).args(["--steps", "2", "--resume"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains("target givens 17-24"), "{err}");
}

/// `split --hardest-of K` prints the part's rated set: 200 puzzles of that part, apart from the
/// other part's (the engine's test checks that a set is the same on every call and rates
/// higher); other tasks, and `eval --record` on it, are refused.
#[test]
fn a_rated_set_is_printed_and_held_out() {
    let lines = |args: &[&str]| {
        let out = bin().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap().lines().map(str::to_string).collect::<Vec<_>>()
    };
    let rated = lines(&["split", "--task", "sudoku", "--part", "validation", "--hardest-of", "2"]);
    assert_eq!(rated.len(), 200);
    for p in &rated {
        let grid = engine::tasks::sudoku::SudokuGrid::parse(p).unwrap();
        assert_eq!(engine::tasks::sudoku::part_of(&grid), engine::tasks::Part::Validation, "{p}");
        assert!((17..=40).contains(&grid.givens()), "{p}");
    }
    let test = lines(&["split", "--task", "sudoku", "--part", "test", "--hardest-of", "2"]);
    assert!(test.iter().all(|p| !rated.contains(p)));
    refused(&["split", "--task", "coloring8", "--part", "validation", "--hardest-of", "2"], "--hardest-of rates Sudoku puzzles");
    refused(&["eval", "--weights", "public/weights/gram-sudoku.bpk", "--hardest-of", "2", "--record"], "a rated set's is yours to keep");
}
