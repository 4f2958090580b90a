//! The command-line contracts other tools rely on, exercised on the real binary: `split`, `solve`
//! (JSON lines, per-line errors, exit codes), bad weights, `eval`'s table row, and the Sudoku and
//! tree tasks' same contract. Training (checkpoints, resume, Ctrl-C, divergence) is in
//! `training_cli.rs`. The shipped weights are used where a trained model is needed.

use std::collections::BTreeSet;

use engine::tasks::nqueens::{Board, Part, completions, part_of};

mod common;
use common::{bin, lines, run_with_stdin, run_with_stdin_bytes, scratch, weights};

#[test]
fn split_prints_disjoint_stable_parts_in_the_puzzle_format() {
    let get = |part: &str| {
        let out = bin().args(["split", "--task", "nqueens8", "--part", part]).output().unwrap();
        assert!(out.status.success());
        lines(&out)
    };
    let (train, validation, test) = (get("train"), get("validation"), get("test"));
    assert_eq!(get("test"), test, "stable across runs");
    let train_set: BTreeSet<_> = train.iter().collect();
    let validation_set: BTreeSet<_> = validation.iter().collect();
    assert!(test.iter().chain(&validation).all(|t| !train_set.contains(t)), "disjoint");
    assert!(test.iter().all(|t| !validation_set.contains(t)), "disjoint");
    assert_eq!((train.len(), validation.len(), test.len()), (4_015, 235, 898));
    for (lines, part) in [(&train, Part::Train), (&validation, Part::Validation), (&test, Part::Test)] {
        for line in lines {
            assert_eq!(line.len(), 64);
            let board = Board::parse(line, 8).unwrap();
            assert!((1..=3).contains(&board.queen_count()));
            assert_eq!(part_of(&board), part);
        }
    }
    let bad = bin().args(["split", "--task", "nqueens8", "--part", "dev"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("train, validation or test"));
}

#[test]
fn solve_answers_each_line_and_reports_bad_lines_without_stopping() {
    let good_owned = engine::tasks::nqueens::split(8, engine::tasks::nqueens::Part::Test)[5].puzzle.to_text();
    let good = good_owned.as_str();
    assert!(!completions(&Board::parse(good, 8).unwrap()).is_empty());
    let conflict = format!("QQ{}", ".".repeat(62));
    let input = format!("{good}\nnot a board\n{conflict}\n\n{}x\n{good}\n", ".".repeat(63));
    let mut cmd = bin();
    cmd.args(["solve", "--weights"]).arg(weights("gram-nqueens8")).args(["--samples", "8", "--seed", "3"]);
    let out = run_with_stdin(cmd, &input);
    assert_eq!(out.status.code(), Some(1), "exit code says some lines failed");
    let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 5, "one object per non-blank line");
    for i in [0, 4] {
        assert_eq!(rows[i]["puzzle"], good);
        let samples = rows[i]["samples"].as_array().unwrap();
        assert_eq!(samples.len(), 8);
        for s in samples {
            assert!(Board::parse(s.as_str().unwrap(), 8).is_ok());
        }
        let selected = rows[i]["selected"].as_str().unwrap();
        assert!(samples.iter().any(|s| s == selected), "selected is one of the samples");
    }
    assert_eq!(rows[0], rows[4], "same seed, same puzzle, same answer");
    assert!(rows[1]["error"].as_str().unwrap().contains("expected 64 cells"));
    assert!(rows[2]["error"].as_str().unwrap().contains("attack each other"));
    assert!(rows[3]["error"].as_str().unwrap().contains("row 8, column 8"));
}

#[test]
fn solve_answers_the_lines_around_one_that_is_not_text() {
    let good = engine::tasks::nqueens::split(8, engine::tasks::nqueens::Part::Test)[5].puzzle.to_text();
    let mut input = format!("{good}\n").into_bytes();
    input.extend(b"\xff\xfe\n");
    input.extend(format!("{good}\n").bytes());
    let mut cmd = bin();
    cmd.args(["solve", "--weights"]).arg(weights("gram-nqueens8")).args(["--samples", "4", "--seed", "3"]);
    let out = run_with_stdin_bytes(cmd, &input);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 3, "both puzzles and one error line");
    assert_eq!(rows[1]["error"], "line 2 is not UTF-8 text (byte 0xff at column 1)");
    assert_eq!((rows[0]["puzzle"].as_str(), rows[2]["puzzle"].as_str()), (Some(good.as_str()), Some(good.as_str())));
    assert_eq!(rows[0], rows[2], "the line between changes nothing");
}

#[test]
fn solve_fed_raw_bytes_answers_every_line() {
    // A fixed stream of pseudo-random lines (no newline inside), some of them blank once trimmed.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut byte = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 24) as u8
    };
    let mut input = Vec::new();
    let mut expected = 0;
    for i in 0..40 {
        let len = (byte() as usize % 90) + usize::from(i % 7 == 0);
        let line: Vec<u8> = (0..len).map(|_| byte()).filter(|&b| b != b'\n').collect();
        expected += usize::from(!String::from_utf8_lossy(&line).trim().is_empty());
        input.extend(&line);
        input.push(b'\n');
    }
    let mut cmd = bin();
    cmd.args(["solve", "--weights"]).arg(weights("gram-nqueens8")).args(["--samples", "2", "--steps", "2"]);
    let out = run_with_stdin_bytes(cmd, &input);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), expected, "one answer per non-blank line");
    assert!(rows.iter().all(|r| r["error"].is_string()), "random bytes are no board");
    assert!(rows.iter().any(|r| r["error"].as_str().unwrap().contains("is not UTF-8 text")), "some lines are not text");
}

#[test]
fn solve_reports_an_impossible_but_conflict_free_puzzle() {
    // Two non-attacking queens that no solution contains together.
    let mut board = Board::empty(8).unwrap();
    board.set(0, 0, true);
    board.set(1, 2, true);
    assert!(board.conflicts().is_empty() && completions(&board).is_empty());
    let mut cmd = bin();
    cmd.args(["solve", "--weights"]).arg(weights("gram-nqueens8"));
    let out = run_with_stdin(cmd, &board.to_text());
    assert_eq!(out.status.code(), Some(1));
    assert!(lines(&out)[0].contains("no placement of the remaining queens completes it"));
}

#[test]
fn corrupt_missing_and_mismatched_weights_are_clear_errors() {
    let dir = scratch("badweights");
    let src = weights("gram-nqueens8");
    // Corrupt: one flipped byte.
    let mut bytes = std::fs::read(&src).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(dir.join("w.bpk"), &bytes).unwrap();
    std::fs::copy(src.with_extension("json"), dir.join("w.json")).unwrap();
    let out = run_with_stdin(
        {
            let mut c = bin();
            c.args(["solve", "--weights"]).arg(dir.join("w.bpk"));
            c
        },
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("corrupt"), "{}", String::from_utf8_lossy(&out.stderr));
    // Mismatched: TRM tensors under a GRAM manifest with the TRM file's hash.
    let trm = std::fs::read(weights("trm-nqueens8")).unwrap();
    std::fs::write(dir.join("m.bpk"), &trm).unwrap();
    let mut manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(src.with_extension("json")).unwrap()).unwrap();
    manifest["sha256"] = serde_json::Value::String(engine::weights::sha256_hex(&trm));
    std::fs::write(dir.join("m.json"), manifest.to_string()).unwrap();
    let out = bin().args(["eval", "--limit", "1", "--weights"]).arg(dir.join("m.bpk")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("do not match"), "{}", String::from_utf8_lossy(&out.stderr));
    // Missing manifest.
    let out = bin().args(["eval", "--weights"]).arg(dir.join("nothing.bpk")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("manifest"));
    // A manifest naming a task its weights cannot be: refused by every command, both named.
    std::fs::copy(&src, dir.join("s.bpk")).unwrap();
    manifest = serde_json::from_str(&std::fs::read_to_string(src.with_extension("json")).unwrap()).unwrap();
    manifest["task"] = serde_json::Value::String("sudoku".into());
    std::fs::write(dir.join("s.json"), manifest.to_string()).unwrap();
    for command in [&["eval", "--limit", "1"][..], &["generate"], &["convert", "--out", "s.safetensors"]] {
        let out = bin().current_dir(&dir).args(command).arg("--weights").arg(dir.join("s.bpk")).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {err}");
        assert!(err.contains("task named is sudoku") && err.contains("nqueens8's"), "{command:?}: {err}");
    }
}

#[test]
fn eval_prints_the_table1_row() {
    let out = bin().args(["eval", "--limit", "8", "--samples", "4", "--weights"]).arg(weights("gram-nqueens8")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("GRAM on nqueens8/test: 8 inputs"), "{text}");
    assert!(text.contains("8 supervision steps (the last 2 without noise)"), "N-Queens settles by default: {text}");
    assert!(text.lines().any(|l| l.starts_with("TABLE1 accuracy=")), "{text}");
}

#[test]
fn settle_is_a_fraction_of_the_budget() {
    let out = bin().args(["eval", "--limit", "1", "--settle", "1.5", "--weights"]).arg(weights("gram-nqueens8")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--settle must be a fraction between 0 and 1, not 1.5"));
    let mut cmd = bin();
    cmd.args(["solve", "--samples", "2", "--settle", "0", "--weights"]).arg(weights("gram-nqueens8"));
    let paper = run_with_stdin(cmd, &format!("{}\n", ".".repeat(64)));
    assert!(paper.status.success(), "--settle 0 is the paper's sampler");
}

#[test]
fn unknown_preset_and_missing_gpu_feature_are_explained() {
    let out = bin().args(["train", "--preset", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("presets: gram-nqueens8"));
    if !cfg!(feature = "wgpu-unfused") {
        let out = bin().args(["--backend", "wgpu", "split", "--part", "test"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("--features wgpu"));
    }
}

#[test]
fn sudoku_split_and_solve_keep_the_same_contract() {
    use engine::tasks::sudoku::{SudokuGrid, part_of, unique_solution};
    let get = |part: &str| {
        let out = bin().args(["split", "--task", "sudoku", "--part", part]).output().unwrap();
        assert!(out.status.success());
        lines(&out)
    };
    let (train, test) = (get("train"), get("test"));
    let train_set: BTreeSet<_> = train.iter().collect();
    assert!(test.iter().all(|t| !train_set.contains(t)), "disjoint");
    assert_eq!(test.len(), 400);
    for line in &test {
        let g = SudokuGrid::parse(line).unwrap();
        assert_eq!(part_of(&g), engine::tasks::sudoku::Part::Test);
        assert!(unique_solution(&g).is_some());
    }

    let good = test[0].clone();
    let two_solutions = ".".repeat(81);
    let clash = format!("11{}", ".".repeat(79));
    let input = format!("{good}\n{}\n{two_solutions}\n{clash}\n{}\n", &good[..80], good.replace('.', "0"));
    let mut cmd = bin();
    cmd.args(["solve", "--task", "sudoku", "--weights"]).arg(weights("gram-sudoku")).args(["--samples", "3", "--steps", "2"]);
    let out = run_with_stdin(cmd, &input);
    assert_eq!(out.status.code(), Some(1), "exit code says some lines failed");
    let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 5);
    for i in [0, 4] {
        let samples = rows[i]["samples"].as_array().unwrap();
        assert_eq!(samples.len(), 3);
        let selected = rows[i]["selected"].as_str().unwrap();
        assert!(samples.iter().any(|s| s == selected), "selected is one of the samples");
        let grid = SudokuGrid::parse(selected).unwrap();
        let puzzle = SudokuGrid::parse(&good).unwrap();
        assert_eq!(rows[i]["verified"].as_bool().unwrap(), grid.solves(&puzzle));
    }
    assert_eq!(rows[0]["samples"], rows[4]["samples"], "0 and . are the same blank");
    assert!(rows[1]["error"].as_str().unwrap().contains("81 cells"));
    assert!(rows[2]["error"].as_str().unwrap().contains("more than one solution"));
    assert!(rows[3]["error"].as_str().unwrap().contains("clash"));

    // The wrong task for the weights is an error before any line is read.
    let mut cmd = bin();
    cmd.args(["solve", "--task", "nqueens8", "--weights"]).arg(weights("gram-sudoku"));
    let out = run_with_stdin(cmd, &good);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds a sudoku model"));
}

/// `--verified-stop`: `verified_at` names the first step and sample that pass the rules, the
/// selected answer is that sample, the compute is N x that step; `--restarts` alone is refused.
#[test]
fn solve_with_the_verified_stop_names_where_it_verified() {
    use engine::tasks::sudoku::SudokuGrid;
    let out = bin().args(["split", "--task", "sudoku", "--part", "validation"]).output().unwrap();
    let puzzles: Vec<String> = lines(&out).into_iter().take(6).collect();
    let mut cmd = bin();
    cmd.args(["solve", "--weights"]).arg(weights("gram-sudoku")).args([
        "--samples",
        "4",
        "--steps",
        "8",
        "--verified-stop",
        "--restarts",
        "1",
    ]);
    let out = run_with_stdin(cmd, &(puzzles.join("\n") + "\n"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 6);
    let mut verified = 0;
    for (row, text) in rows.iter().zip(&puzzles) {
        let puzzle = SudokuGrid::parse(text).unwrap();
        let selected = SudokuGrid::parse(row["selected"].as_str().unwrap()).unwrap();
        let steps = row["trajectory_steps"].as_u64().unwrap();
        match row["verified_at"].as_object() {
            Some(at) => {
                verified += 1;
                assert!(selected.solves(&puzzle) && row["verified"] == true);
                let sample = at["sample"].as_u64().unwrap() as usize;
                assert_eq!(row["samples"][sample], row["selected"]);
                let (round, step) = (at["round"].as_u64().unwrap(), at["step"].as_u64().unwrap());
                assert!(round <= 1 && (1..=8).contains(&step));
                assert_eq!(steps, 4 * (8 * round + step), "N x the steps run, over the rounds");
            }
            None => {
                assert!(!selected.solves(&puzzle) && row["verified"] == false);
                assert_eq!(steps, 4 * 8 * 2, "two whole rounds");
            }
        }
    }
    assert!(verified >= 3, "the shipped model verifies most validation puzzles: {verified} of 6");
    // Restarts follow a budget that verified nothing, so the paper's sampler has none (Sudoku's
    // default is the verified stop: it must be turned off to ask for this).
    let mut cmd = bin();
    cmd.args(["solve", "--weights"]).arg(weights("gram-sudoku")).args(["--no-verified-stop", "--restarts", "2"]);
    let out = run_with_stdin(cmd, &puzzles[0]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--restarts and --copies restarts need --verified-stop"));
}

/// `solve --task sudoku` with no sampling flags runs the engine's Sudoku inference defaults,
/// the ones `/sudoku` opens with (N 10, scale 0.5, 6 steps, the verified stop, restarts, a copy
/// per sample):
/// the same lines as those flags spelled out; `--no-verified-stop` is the paper's sampler.
#[test]
fn sudoku_solve_defaults_are_the_pages() {
    use engine::tasks::sudoku::INFERENCE;
    let out = bin().args(["split", "--task", "sudoku", "--part", "validation"]).output().unwrap();
    let puzzles: Vec<String> = lines(&out).into_iter().take(2).collect();
    let run = |args: &[String]| -> Vec<serde_json::Value> {
        let mut cmd = bin();
        cmd.args(["solve", "--task", "sudoku", "--weights"]).arg(weights("gram-sudoku")).args(args);
        let out = run_with_stdin(cmd, &(puzzles.join("\n") + "\n"));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let implicit = run(&[]);
    const { assert!(INFERENCE.verified_stop && INFERENCE.guidance_scale == 0.5 && INFERENCE.samples == 10 && INFERENCE.restarts > 0) };
    let copies = match INFERENCE.copies {
        engine::solve::Copies::None => "none",
        engine::solve::Copies::Restarts => "restarts",
        engine::solve::Copies::Samples => "samples",
    };
    let spelled: Vec<String> = [
        "--samples",
        &INFERENCE.samples.to_string(),
        "--steps",
        &INFERENCE.steps.to_string(),
        "--guidance-scale",
        &INFERENCE.guidance_scale.to_string(),
        "--verified-stop",
        "--restarts",
        &INFERENCE.restarts.to_string(),
        "--copies",
        copies,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(implicit, run(&spelled));
    assert!(implicit.iter().all(|r| r.get("verified_at").is_some() && r["samples"].as_array().unwrap().len() == INFERENCE.samples));
    let plain = run(&["--no-verified-stop".into(), "--samples".into(), "2".into()]);
    assert!(plain.iter().all(|r| r.get("verified_at").is_none() && r["samples"].as_array().unwrap().len() == 2), "{plain:?}");
    // The first sample of the first budget solves the puzzle as given under either copies.
    let per_restart = run(&["--copies".into(), "restarts".into(), "--steps".into(), "1".into(), "--restarts".into(), "0".into()]);
    let per_sample = run(&["--copies".into(), "samples".into(), "--steps".into(), "1".into(), "--restarts".into(), "0".into()]);
    assert_eq!(per_restart[0]["samples"][0], per_sample[0]["samples"][0], "the first sample solves the puzzle as given either way");
    let mut cmd = bin();
    cmd.args(["solve", "--task", "sudoku", "--weights"]).arg(weights("gram-sudoku")).args(["--copies", "rows"]);
    let out = run_with_stdin(cmd, &puzzles[0]);
    assert_eq!(out.status.code(), Some(2), "an unknown --copies is refused");
}

#[test]
fn tree_split_and_solve_keep_the_same_contract() {
    use engine::tasks::tree::{Part, TreeTask, part_of};
    let get = |part: &str| {
        let out = bin().args(["split", "--task", "tree", "--part", part]).output().unwrap();
        assert!(out.status.success());
        lines(&out)
    };
    let (train, test) = (get("train"), get("test"));
    let train_set: BTreeSet<_> = train.iter().collect();
    assert!(test.iter().all(|t| !train_set.contains(t)), "disjoint");
    assert_eq!(test.len(), 1000);
    assert_eq!(test, get("test"), "stable");
    for line in &test {
        assert_eq!(part_of(&TreeTask::parse(line).unwrap()), Part::Test);
    }

    let good = test[0].clone();
    let paper = "NL, NO, LJ, LI, OA, OM, JB, JH, IG, IF, AD, A E, MK, MC[ROOT]N[TARGET]K[ROUTE]";
    let not_leaf = "AB, AC, BD, BE[ROOT]A[TARGET]B[ROUTE]";
    let with_answer = "AB, AC[ROOT]A[TARGET]B[ROUTE]AB";
    let input = format!("{good}\n{paper}\n{not_leaf}\n{with_answer}\nhello\n");
    let mut cmd = bin();
    cmd.args(["solve", "--task", "tree", "--weights"]).arg(weights("reasoner-tree"));
    let out = run_with_stdin(cmd, &input);
    assert_eq!(out.status.code(), Some(1), "exit code says some lines failed");
    let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 5);
    for (i, line) in [(0, good.as_str()), (1, paper)] {
        assert_eq!(rows[i]["input"], line);
        let route = rows[i]["route"].as_str().unwrap();
        let task = TreeTask::parse(line).unwrap();
        assert_eq!(rows[i]["verified"].as_bool().unwrap(), route == task.route_text());
    }
    assert!(rows[2]["error"].as_str().unwrap().contains("not a leaf"));
    assert!(rows[3]["error"].as_str().unwrap().contains("after [ROUTE]"));
    assert!(rows[4]["error"].as_str().unwrap().contains("[ROOT]"));

    // GRAM weights are not a tree model: an error before any line is read.
    let mut cmd = bin();
    cmd.args(["solve", "--task", "tree", "--weights"]).arg(weights("gram-nqueens8"));
    let out = run_with_stdin(cmd, &good);
    assert_eq!(out.status.code(), Some(2));
    assert!(!String::from_utf8_lossy(&out.stderr).is_empty());
}
