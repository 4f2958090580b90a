//! `generate` as a user runs it: one JSON line per sample, each `valid` flag what an independent
//! check of the board says, the same seed the same samples, and clear errors for weights that
//! cannot generate and for out-of-range options.

mod common;

use engine::tasks::nqueens::Board;
use engine::tasks::sudoku::SudokuGrid;

use common::{bin, lines, weights};

fn generate(weights_name: &str, args: &[&str]) -> std::process::Output {
    let mut cmd = bin();
    cmd.args(["--threads", "1", "generate", "--weights"]).arg(weights(weights_name)).args(args);
    cmd.output().unwrap()
}

#[test]
fn generate_prints_one_checked_board_per_sample_and_refuses_what_cannot_generate() {
    // The completion model on the empty board: the baseline path (docs/results/generation.md).
    let out = generate("gram-nqueens8", &["--samples", "6", "--steps", "3", "--seed", "4"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 6);
    for row in &rows {
        let text = row["sample"].as_str().unwrap();
        let board = Board::parse(text, 8).unwrap();
        assert_eq!(row["valid"].as_bool().unwrap(), board.is_solution(), "{text}");
    }
    let again = generate("gram-nqueens8", &["--samples", "6", "--steps", "3", "--seed", "4"]);
    assert_eq!(lines(&again), lines(&out), "the same seed gives the same samples");

    // Sudoku grids: the generation weights and the completion model on the empty grid.
    for name in ["gram-sudoku-grids", "trm-sudoku-grids", "gram-sudoku"] {
        let out = generate(name, &["--samples", "3", "--steps", "2", "--seed", "1"]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(rows.len(), 3, "{name}");
        for row in &rows {
            let text = row["sample"].as_str().unwrap();
            let grid = SudokuGrid::parse(text).unwrap();
            assert_eq!(text.len(), 81, "{name}: {text}");
            assert_eq!(row["valid"].as_bool().unwrap(), grid.is_solved(), "{name}: {text}");
        }
    }

    let coloring = generate("gram-coloring8", &["--samples", "2"]);
    assert_eq!(coloring.status.code(), Some(2));
    let err = String::from_utf8_lossy(&coloring.stderr);
    assert!(err.contains("holds a coloring8 model") && err.contains("generate needs generation weights"), "{err}");

    for bad in [["--samples", "0"], ["--steps", "0"], ["--guidance-scale", "nan"]] {
        let out = generate("gram-nqueens8", &bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(bad[0]), "{bad:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
