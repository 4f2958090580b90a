//! `train` as the command line runs it: checkpoints, `--resume` (bit for bit), `--stop-after`,
//! `--init-from` and the weights' average, Ctrl-C, two devices, the best checkpoint on
//! validation, a diverging run, and the manifest's lineage. The shipped weights are used where
//! a trained model is needed.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{bin, param_bits, scratch, weights};

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
    let out = bin().args(["train", "--preset", "trm-nqueens8", "--steps", "6", "--resume", "--run-dir"]).arg(&dir).output().unwrap();
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
    let out = bin().args(["export", "--name", "probe", "--run-dir"]).arg(&dir).arg("--out-dir").arg(&out_dir).output().unwrap();
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
    let mut child = train_cmd(&dir, 100_000, 100_000).args(["--log-every", "1"]).stderr(Stdio::piped()).spawn().unwrap();
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
            .args([
                "train",
                "--preset",
                "trm-nqueens8",
                "--steps",
                "2",
                "--eval-every",
                "0",
                "--devices",
                "2",
                "--grad-accum",
                "2",
                "--batch",
                batch,
                "--run-dir",
            ])
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

/// A checkpoint file of a run directory.
fn ckpt_file(dir: &Path, step: usize, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(format!("ckpt-{step:07}")).join(name)).unwrap_or_else(|e| panic!("{name} at step {step}: {e}"))
}

fn state_json(dir: &Path, step: usize) -> serde_json::Value {
    serde_json::from_slice(&ckpt_file(dir, step, "state.json")).unwrap()
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
        let out =
            bin().args(["train", "--preset", "gram-nqueens8", "--log-every", "1", "--run-dir"]).arg(dir).args(extra).output().unwrap();
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
        let out = bin()
            .args(["train", "--preset", "reasoner-tree-pretrain", "--eval-every", "0", "--run-dir"])
            .arg(dir)
            .args(extra)
            .output()
            .unwrap();
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
