//! The command-line contracts other tools rely on, exercised on the real binary: `split`, `solve`
//! (JSON lines, per-line errors, exit codes), bad weights, `train` checkpoints, `--resume` (bit
//! for bit), `--stop-after`, a diverging run, Ctrl-C, the manifest's lineage. The shipped
//! weights are used where a trained model is needed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use engine::tasks::nqueens::{Board, Part, completions, part_of};

mod common;
use common::{bin, lines, run_with_stdin, weights};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nt-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

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
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(src.with_extension("json")).unwrap()).unwrap();
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
    let out = bin()
        .args(["eval", "--limit", "8", "--samples", "4", "--weights"])
        .arg(weights("gram-nqueens8"))
        .output()
        .unwrap();
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

fn train_cmd(dir: &Path, steps: usize, checkpoint_every: usize) -> Command {
    let mut c = bin();
    c.args(["train", "--preset", "gram-nqueens8", "--eval-every", "0"])
        .args(["--checkpoint-every", &checkpoint_every.to_string()])
        .args(["--steps", &steps.to_string(), "--run-dir"])
        .arg(dir);
    c
}

#[test]
fn training_checkpoints_and_resumes() {
    let dir = scratch("resume");
    let out = train_cmd(&dir, 3, 2).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.join("latest")).unwrap().trim(), "ckpt-0000003");
    let out = train_cmd(&dir, 5, 2).arg("--resume").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("resuming gram-nqueens8 from step 3"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("latest")).unwrap().trim(), "ckpt-0000005");
    // Resuming someone else's run is refused.
    let out = bin()
        .args(["train", "--preset", "trm-nqueens8", "--steps", "6", "--resume", "--run-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds a gram-nqueens8 run"));
}

/// `--init-from` continues shipped weights; `--ema` keeps the weights' average in every
/// checkpoint, a resumed run continues it, and `export` ships the average, not the raw weights.
#[test]
fn init_from_weights_and_the_weights_average_reach_the_export() {
    let dir = scratch("ema");
    let run = |steps: &str, extra: &[&str]| {
        bin()
            .args(["train", "--preset", "gram-nqueens8-mixer", "--eval-every", "0", "--checkpoint-every", "2"])
            .args(["--steps", steps, "--ema", "0.5", "--lr", "1e-4", "--run-dir"])
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap()
    };
    let shipped = weights("gram-nqueens8");
    let out = run("2", &["--init-from", shipped.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("starting gram-nqueens8-mixer from"), "{err}");
    let ckpt = dir.join("ckpt-0000002");
    let (model, ema) = (std::fs::read(ckpt.join("model.bpk")).unwrap(), std::fs::read(ckpt.join("ema.bpk")).unwrap());
    assert_ne!(model, ema, "after two steps the average lags the raw weights");
    let out = run("3", &["--resume"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let ema3 = std::fs::read(dir.join("ckpt-0000003").join("ema.bpk")).unwrap();
    assert_ne!(ema3, ema, "the resumed run keeps averaging");
    let out_dir = scratch("ema-export");
    let out = bin()
        .args(["export", "--name", "probe", "--run-dir"])
        .arg(&dir)
        .arg("--out-dir")
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(out_dir.join("probe.bpk")).unwrap(), ema3, "export ships the average");
    let manifest = std::fs::read_to_string(out_dir.join("probe.json")).unwrap();
    assert!(manifest.contains("--init-from") && manifest.contains("--ema 0.5"), "{manifest}");
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    let shipped_manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(shipped.with_extension("json")).unwrap()).unwrap();
    let command = manifest["training_command"].as_str().unwrap();
    assert!(
        command.starts_with(shipped_manifest["training_command"].as_str().unwrap()),
        "the recipe starts with the shipped weights' own: {command}"
    );
    assert_eq!(manifest["train_steps"].as_u64().unwrap(), shipped_manifest["train_steps"].as_u64().unwrap() + 3);

    // A run directory is not a weights file: it says what to do instead.
    let out = bin()
        .args(["train", "--preset", "gram-nqueens8-mixer", "--steps", "1", "--init-from"])
        .arg(&dir)
        .arg("--run-dir")
        .arg(scratch("ema-dir"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("export it first"));

    // Weights of another model are refused before any training.
    let out = bin()
        .args(["train", "--preset", "trm-nqueens8-mixer", "--steps", "1", "--init-from"])
        .arg(&shipped)
        .arg("--run-dir")
        .arg(scratch("ema-wrong"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("does not have the trm-nqueens8-mixer preset's config"), "{err}");
}

#[test]
fn ctrl_c_saves_a_checkpoint_and_exits() {
    let dir = scratch("ctrlc");
    let mut child = train_cmd(&dir, 100_000, 100_000)
        .args(["--log-every", "1"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first step's progress line, then interrupt.
    let began = Instant::now();
    let log = dir.join("log.csv");
    while std::fs::read_to_string(&log).map_or(true, |s| s.lines().count() < 2) {
        assert!(began.elapsed() < Duration::from_secs(120), "training never started");
        assert!(child.try_wait().unwrap().is_none(), "training exited before Ctrl-C");
        std::thread::sleep(Duration::from_millis(200));
    }
    Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("checkpoint saved"), "{err}");
    let latest = std::fs::read_to_string(dir.join("latest")).unwrap();
    assert!(dir.join(latest.trim()).join("model.bpk").exists());
}

/// `--devices 2` (here the CPU twice: the path, not the speed) trains and checkpoints; a split
/// the batch cannot take is refused before anything runs.
#[test]
fn training_over_two_devices_runs_and_refuses_an_uneven_split() {
    let dir = scratch("devices");
    let train = |batch: &str| {
        bin()
            .args(["train", "--preset", "trm-nqueens8", "--steps", "2", "--eval-every", "0", "--devices", "2", "--grad-accum", "2", "--batch", batch, "--run-dir"])
            .arg(&dir)
            .output()
            .unwrap()
    };
    let out = train("8");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 devices"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(state_json(&dir, 2)["step"].as_u64(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
    let out = train("6");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("do not divide the batch 6"), "{}", String::from_utf8_lossy(&out.stderr));
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
    cmd.args(["solve", "--weights"]).arg(weights("gram-sudoku")).args(["--samples", "4", "--steps", "8", "--verified-stop", "--restarts", "1"]);
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
    assert!(INFERENCE.verified_stop && INFERENCE.guidance_scale == 0.5 && INFERENCE.samples == 10 && INFERENCE.restarts > 0);
    let copies = match INFERENCE.copies {
        engine::solve::Copies::None => "none",
        engine::solve::Copies::Restarts => "restarts",
        engine::solve::Copies::Samples => "samples",
    };
    let spelled: Vec<String> = [
        "--samples", &INFERENCE.samples.to_string(), "--steps", &INFERENCE.steps.to_string(),
        "--guidance-scale", &INFERENCE.guidance_scale.to_string(), "--verified-stop",
        "--restarts", &INFERENCE.restarts.to_string(), "--copies", copies,
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

/// A checkpoint file of a run directory.
fn ckpt_file(dir: &Path, step: usize, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(format!("ckpt-{step:07}")).join(name)).unwrap_or_else(|e| panic!("{name} at step {step}: {e}"))
}

fn state_json(dir: &Path, step: usize) -> serde_json::Value {
    serde_json::from_slice(&ckpt_file(dir, step, "state.json")).unwrap()
}

/// Every float parameter of a module, as bit patterns, in traversal order. (Checkpoint files
/// differ between two processes even with equal values: they record burn's random parameter ids.)
fn param_bits<M: burn::module::Module>(module: &M) -> Vec<Vec<u32>> {
    use burn::module::{ModuleVisitor, Param};
    use burn::tensor::Tensor;
    struct Collect(Vec<Vec<u32>>);
    impl ModuleVisitor for Collect {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            let values = param.val().into_data().convert::<f32>().try_to_vec::<f32>().unwrap();
            self.0.push(values.iter().map(|v| v.to_bits()).collect());
        }
    }
    let mut collect = Collect(Vec::new());
    module.visit(&mut collect);
    collect.0
}

/// The parameters of a GRAM checkpoint's `model.bpk` or `ema.bpk`.
fn gram_params(dir: &Path, step: usize, file: &str) -> Vec<Vec<u32>> {
    let config: engine::gram::GramConfig = serde_json::from_value(state_json(dir, step)["config"].clone()).unwrap();
    let device = burn::tensor::Device::flex();
    param_bits(&engine::weights::gram_from_bytes(&config, &ckpt_file(dir, step, file), &device).unwrap())
}

/// Stopping at step 3 of a 6-step run (`--stop-after`) and resuming gives, at step 6, the same
/// weights, optimiser state, weights' average and in-flight batch as the uninterrupted run, bit
/// for bit; quick evals along the way change nothing; the resumed run keeps its recorded
/// settings (no flags repeated) and the export names both commands.
#[test]
fn a_stopped_and_resumed_run_equals_the_uninterrupted_one_bit_for_bit() {
    let (straight, split) = (scratch("exact-straight"), scratch("exact-split"));
    let run = |dir: &Path, extra: &[&str]| {
        let out = bin().args(["train", "--preset", "gram-nqueens8", "--log-every", "1", "--run-dir"]).arg(dir).args(extra).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{err}");
        err
    };
    let recipe = ["--steps", "6", "--ema", "0.9", "--seed", "5", "--checkpoint-every", "100"];
    run(&straight, &[&recipe[..], &["--eval-every", "2", "--eval-inputs", "2"]].concat());
    let err = run(&split, &[&recipe[..], &["--eval-every", "0", "--stop-after", "3"]].concat());
    assert!(err.contains("stopped at step 3 of 6 (--stop-after)"), "{err}");
    assert_eq!(std::fs::read_to_string(split.join("latest")).unwrap().trim(), "ckpt-0000003");
    let err = run(&split, &["--resume", "--eval-every", "0"]);
    assert!(err.contains("resuming gram-nqueens8 from step 3") && !err.contains("changes"), "{err}");
    let same = |step: usize| {
        for file in ["model.bpk", "ema.bpk"] {
            assert!(gram_params(&straight, step, file) == gram_params(&split, step, file), "{file} differs at step {step}");
        }
        assert!(ckpt_file(&straight, step, "latent.bin") == ckpt_file(&split, step, "latent.bin"), "z differs at step {step}");
        assert_eq!(state_json(&straight, step)["batch"], state_json(&split, step)["batch"], "slots differ at step {step}");
    };
    same(6);
    assert_ne!(gram_params(&split, 3, "model.bpk"), gram_params(&split, 6, "model.bpk"));
    let state = state_json(&split, 6);
    assert_eq!(state["optimizer"]["weight_decay"].as_f64().unwrap() as f32, 0.1, "the preset's weight decay");
    assert_eq!(state["schedule"]["ema"], 0.9);
    // One more step from each: equal again only if the optimiser states were equal too.
    for dir in [&straight, &split] {
        let err = run(dir, &["--resume", "--steps", "7", "--eval-every", "0"]);
        assert!(err.contains("total steps 6 -> 7"), "{err}");
    }
    same(7);

    let out_dir = scratch("exact-export");
    let out = bin().args(["export", "--name", "probe", "--run-dir"]).arg(&split).arg("--out-dir").arg(&out_dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(out_dir.join("probe.json")).unwrap()).unwrap();
    let command = manifest["training_command"].as_str().unwrap();
    assert!(command.starts_with("native-trainer train --preset gram-nqueens8 "), "{command}");
    assert!(command.contains("--stop-after 3 ; resumed at step 3: native-trainer train"), "{command}");
    assert!(command.ends_with("--resume --steps 7 --eval-every 0"), "{command}");
    assert_eq!(command.matches("; resumed at step").count(), 2, "{command}");
    assert_eq!(manifest["train_steps"], 7);
}

/// The checkpoint that scored best on the validation part is kept in `<run>/best/` (the run's own
/// checkpoints keep only the newest two), with the score and step in its state, and `export`
/// ships it when given that directory.
#[test]
fn the_best_checkpoint_on_validation_is_kept_and_exports() {
    let dir = scratch("best");
    let out = bin()
        .args(["train", "--preset", "trm-nqueens8", "--steps", "6", "--eval-every", "1", "--eval-inputs", "4", "--log-every", "1"])
        .args(["--checkpoint-every", "100", "--run-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let log = std::fs::read_to_string(dir.join("log.csv")).unwrap();
    let evals: Vec<(usize, f64)> = log
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((f[0].parse().ok()?, f[8].parse().ok()?))
        })
        .collect();
    assert_eq!(evals.len(), 6, "{log}");
    // The first step with the highest accuracy (a later tie does not replace it).
    let top = evals.iter().map(|e| e.1).fold(f64::MIN, f64::max);
    let best_step = evals.iter().find(|e| e.1 == top).unwrap().0;
    let best = dir.join("best");
    let latest = std::fs::read_to_string(best.join("latest")).unwrap();
    assert_eq!(latest.trim(), format!("ckpt-{best_step:07}"));
    let state = state_json(&best, best_step);
    assert_eq!(state["step"], best_step);
    assert_eq!(state["best_eval"][1], best_step);
    assert!((state["best_eval"][0].as_f64().unwrap() - top).abs() < 1e-3, "{state} vs {top}");
    assert_eq!(state_json(&dir, 6)["best_eval"], state["best_eval"], "the run's own state carries the best so far");
    let out_dir = scratch("best-export");
    let out = bin().args(["export", "--name", "probe", "--run-dir"]).arg(&best).arg("--out-dir").arg(&out_dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(out_dir.join("probe.json")).unwrap()).unwrap();
    assert_eq!(manifest["train_steps"], best_step);
}

/// The JEPA phases resume exactly too (optimiser, trees of each step, lineage).
#[test]
fn a_stopped_and_resumed_reasoner_phase_equals_the_uninterrupted_one() {
    let (straight, split) = (scratch("jepa-straight"), scratch("jepa-split"));
    let run = |dir: &Path, extra: &[&str]| {
        let out = bin().args(["train", "--preset", "reasoner-tree-pretrain", "--eval-every", "0", "--run-dir"]).arg(dir).args(extra).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    run(&straight, &["--steps", "4"]);
    run(&split, &["--steps", "4", "--stop-after", "2"]);
    run(&split, &["--resume"]);
    let params = |dir: &Path, step: usize| {
        let config: engine::reasoner::ReasonerModelConfig = serde_json::from_value(state_json(dir, step)["config"].clone()).unwrap();
        let bytes = ckpt_file(dir, step, "model.bpk");
        param_bits(&engine::weights::reasoner::reasoner_from_bytes(&config, &bytes, &burn::tensor::Device::flex()).unwrap())
    };
    assert!(params(&straight, 4) == params(&split, 4), "the weights differ after resuming");
    for dir in [&straight, &split] {
        run(dir, &["--resume", "--steps", "5"]);
    }
    assert!(params(&straight, 5) == params(&split, 5), "one step later the weights differ (optimiser state)");
    let command = state_json(&split, 5)["command"].as_str().unwrap().to_string();
    assert!(command.contains("--stop-after 2 ; resumed at step 2: ") && command.ends_with("--resume --steps 5"), "{command}");
    let out = bin().args(["train", "--preset", "reasoner-tree-pretrain", "--lr", "1", "--run-dir"]).arg(&split).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "JEPA presets refuse GRAM-only flags");
}

/// A diverging run (an absurd learning rate) stops with a clear error and a non-zero exit,
/// and leaves `latest` on a checkpoint whose weights are all finite.
#[test]
fn a_diverging_run_stops_and_keeps_the_last_good_checkpoint() {
    use burn::module::{Module, ModuleVisitor, Param};
    use burn::tensor::{Device, Tensor};
    struct Finite(bool);
    impl ModuleVisitor for Finite {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            self.0 &= param.val().is_finite().all().into_scalar::<bool>();
        }
    }
    let dir = scratch("diverge");
    let out = train_cmd(&dir, 40, 1).args(["--lr", "1e30", "--log-every", "1"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("training diverged at step") && err.contains("stopped without saving this state"), "{err}");
    assert!(err.contains("is kept; continue from it with --resume and a lower --lr"), "{err}");
    let latest = std::fs::read_to_string(dir.join("latest")).unwrap();
    let state: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join(latest.trim()).join("state.json")).unwrap()).unwrap();
    let step = state["step"].as_u64().unwrap();
    assert!((1..40).contains(&step), "stopped at step {step}");
    assert!(err.contains(&format!("training diverged at step {}", step + 1)), "{err}");
    let config: engine::gram::GramConfig = serde_json::from_value(state["config"].clone()).unwrap();
    let bytes = std::fs::read(dir.join(latest.trim()).join("model.bpk")).unwrap();
    let model = engine::weights::gram_from_bytes(&config, &bytes, &Device::flex()).unwrap();
    let mut finite = Finite(true);
    model.visit(&mut finite);
    assert!(finite.0, "the kept checkpoint's weights are finite");
}
