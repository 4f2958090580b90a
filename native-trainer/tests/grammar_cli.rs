//! The grammar study on the command line (the JEPA-Reasoner paper, section 5.2): a run through all six phases
//! resumes bit for bit and exports; `grammar` prints the grammar the weights were trained on;
//! `solve --task grammar` (or its old name `cfg`) keeps the JSON-lines contract for every model, with corruption and latent
//! noise; `eval` prints both sweeps and writes their CSV, and `ceiling` the same Bayes rows
//! without weights; the shipped weights reproduce their recorded outputs.

use std::path::Path;

use engine::studies::grammar::data::{GRAMMAR_SEED, GrammarVariant, parse_text};
use engine::studies::grammar::{Chart, Grammar};

mod common;
use common::{bin, latest_checkpoint, lines, param_bits, run_with_stdin, scratch, weights};

fn train(dir: &Path, extra: &[&str]) {
    let out = bin()
        .args(["--threads", "1", "train", "--preset", "grammar-small", "--eval-every", "0", "--run-dir"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The values of every parameter of the latest checkpoint's models, as bits (a `.bpk` also
/// holds parameter ids, which differ between runs).
fn latest_model(dir: &Path) -> Vec<Vec<u32>> {
    let (ckpt, state) = latest_checkpoint(dir);
    let config = serde_json::from_value(state["config"].clone()).unwrap();
    let bytes = std::fs::read(ckpt.join("model.bpk")).unwrap();
    param_bits(&engine::weights::grammar::grammar_from_bytes(&config, &bytes, &burn::tensor::Device::flex()).unwrap())
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line).unwrap()
}

#[test]
fn a_grammar_run_resumes_exactly_exports_and_answers_every_model() {
    let (straight, split, out_dir) = (scratch("straight"), scratch("split"), scratch("weights"));
    // 18 steps over the six phases: 7 pretrain, then 2, 2, 2, 1, 1; the stop falls in t-post,
    // after C and R have branched off the pretrained T.
    train(&straight, &["--steps", "18"]);
    train(&split, &["--steps", "18", "--stop-after", "8"]);
    let state: serde_json::Value = {
        let name = std::fs::read_to_string(split.join("latest")).unwrap();
        serde_json::from_slice(&std::fs::read(split.join(name.trim()).join("state.json")).unwrap()).unwrap()
    };
    assert_eq!((state["phase"].as_u64(), state["step"].as_u64()), (Some(1), Some(1)), "stopped in t-post");
    train(&split, &["--resume"]);
    assert!(latest_model(&straight) == latest_model(&split), "the models differ after resuming");

    let out = bin().args(["export", "--name", "cfg-test", "--out-dir"]).arg(&out_dir).arg("--run-dir").arg(&split).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let w = out_dir.join("cfg-test.bpk");
    let manifest = json(&std::fs::read_to_string(w.with_extension("json")).unwrap());
    let phases: Vec<&str> = manifest["phases"].as_array().unwrap().iter().map(|p| p[0].as_str().unwrap()).collect();
    assert_eq!(phases, ["pretrain", "t-post", "coconut", "sst", "dual-talker", "mono-talker"]);
    assert!(manifest["training_command"].as_str().unwrap().contains("resumed at step 8"));

    // The grammar, as JSON anyone can parse with: exactly the engine's.
    let out = bin().args(["grammar", "--weights"]).arg(&w).output().unwrap();
    assert!(out.status.success());
    let printed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed, Grammar::random(GrammarVariant::Short.spec(), GRAMMAR_SEED).to_json());

    // solve: each model, per-line errors, corruption and noise reported.
    let g = GrammarVariant::Short.grammar();
    let good = "1 2 3 1 1 2 3 3 2 1";
    let input = format!("{good}\n1 2 4\n\n{}\n", "1 ".repeat(300));
    for (model, steps) in [("t", "3"), ("c", "2"), ("r", "4"), ("r-mono", "1")] {
        let mut cmd = bin();
        cmd.args(["--threads", "1", "solve", "--task", "grammar", "--model", model, "--steps", steps, "--weights"]).arg(&w);
        let out = run_with_stdin(cmd, &input);
        assert_eq!(out.status.code(), Some(1), "a bad line makes the exit code 1");
        let l = lines(&out);
        assert_eq!(l.len(), 3, "{l:?}");
        let first = json(&l[0]);
        let completion: Vec<&str> = first["completion"].as_array().unwrap().iter().map(|t| t.as_str().unwrap()).collect();
        assert_eq!(completion.len(), steps.parse::<usize>().unwrap(), "{model}");
        assert_eq!(first["after_thoughts"].as_u64(), (model == "c").then_some(4), "{model}");
        let prefix = parse_text(good, 3).unwrap();
        assert_eq!(first["prefix_valid"].as_bool(), Some(Chart::new(&g, &prefix).accepts_prefix()));
        if model != "c" {
            let written = parse_text(&completion.join(" "), 3).ok();
            let valid = written.is_some_and(|w| Chart::new(&g, &[prefix.clone(), w].concat()).accepts_prefix());
            assert_eq!(first["valid"].as_bool(), Some(valid), "{model}: valid is the parser's verdict");
        }
        assert!(json(&l[1])["error"].as_str().unwrap().contains("token 3 is \"4\""));
        assert!(json(&l[2])["error"].as_str().unwrap().contains("300"), "too long a prefix is refused");
    }
    // The study's old name for the task is still read.
    let mut cmd = bin();
    cmd.args(["--threads", "1", "solve", "--task", "cfg", "--corrupt", "0.3", "--latent-noise", "0.1", "--seed", "4", "--weights"]).arg(&w);
    let out = run_with_stdin(cmd, &format!("{good}\n"));
    let first = json(&lines(&out)[0]);
    let flipped = first["corrupted_positions"].as_array().unwrap();
    assert_eq!(flipped.len(), 3, "30% of 10 terminals");
    let seen = parse_text(first["corrupted"].as_str().unwrap(), 3).unwrap();
    let clean = parse_text(good, 3).unwrap();
    let changed: Vec<u64> = (0..10).filter(|&i| seen[i] != clean[i]).map(|i| i as u64 + 1).collect();
    assert_eq!(changed, flipped.iter().map(|p| p.as_u64().unwrap()).collect::<Vec<_>>());
    for bad in [["--model", "x"], ["--corrupt", "1.5"], ["--steps", "9"]] {
        let mut cmd = bin();
        cmd.args(["solve", "--task", "cfg"]).args(bad).arg("--weights").arg(&w);
        let out = run_with_stdin(cmd, "1 2 3\n");
        assert!(!out.status.success() && lines(&out).is_empty(), "{bad:?} is refused before any line");
    }
    let mut cmd = bin();
    cmd.args(["solve", "--task", "cfg", "--model", "t", "--latent-noise", "0.1", "--weights"]).arg(&w);
    assert!(String::from_utf8_lossy(&run_with_stdin(cmd, "1\n").stderr).contains("no latents"));
    let mut cmd = bin();
    cmd.args(["solve", "--task", "nqueens8", "--weights"]).arg(&w);
    assert!(String::from_utf8_lossy(&run_with_stdin(cmd, "1\n").stderr).contains("--task grammar"));

    // eval: both sweeps, their CSV; the ceiling beside the models at each corruption level.
    let csv = out_dir.join("sweeps.csv");
    let out = bin().args(["--threads", "1", "eval", "--limit", "8", "--csv"]).arg(&csv).arg("--weights").arg(&w).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("token corruption (T vs R)") && text.contains("latent noise (C vs R)"));
    let rows: Vec<String> = std::fs::read_to_string(&csv).unwrap().lines().skip(1).map(str::to_string).collect();
    assert_eq!(rows.iter().filter(|r| r.starts_with("corruption,")).count(), 7 * 4);
    assert_eq!(rows.iter().filter(|r| r.starts_with("corruption,") && r.split(',').nth(2) == Some("bayes")).count(), 7);
    assert_eq!(rows.iter().filter(|r| r.starts_with("latent-noise,")).count(), 7 * 3);

    // ceiling: the same Bayes rows and floor with no weights, from the variant alone.
    let bayes =
        |text: &str| text.lines().filter(|l| l.contains("| bayes |") || l.starts_with("floor")).map(str::to_string).collect::<Vec<_>>();
    let out = bin().args(["ceiling", "--variant", "short", "--part", "test", "--limit", "8"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let alone = bayes(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(alone.len(), 7 + 1, "seven levels and the floor");
    assert_eq!(alone, bayes(&text), "ceiling and eval score the same completions the same way");
    for (args, why) in [
        (&["--variant", "long"][..], "--variant is short or paper"),
        (&["--part", "train"][..], "--part is test or validation"),
        (&["--limit", "0"][..], "--limit is at least 1"),
    ] {
        let out = bin().arg("ceiling").args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(why), "{args:?}: {err}");
    }
}

/// The shipped grammar weights write, for the recorded test prefixes, exactly the completions
/// their manifest records (every model), and their manifest holds the sweeps.
#[test]
fn the_shipped_grammar_weights_reproduce_their_recorded_completions() {
    for name in ["cfg-small"] {
        let w = weights(name);
        let manifest = json(&std::fs::read_to_string(w.with_extension("json")).unwrap());
        let eval = &manifest["eval"];
        assert_eq!(eval["split"], "cfg/test", "{name}: the sweeps are recorded");
        assert_eq!(eval["corruption"].as_array().unwrap().len(), 21);
        let r = &manifest["reference"];
        let inputs: Vec<&str> = r["inputs"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
        for entry in r["completions"].as_array().unwrap() {
            let model = entry[0].as_str().unwrap();
            let mut cmd = bin();
            cmd.args(["--threads", "1", "solve", "--task", "grammar", "--model", model, "--steps", "4", "--weights"]).arg(&w);
            let out = run_with_stdin(cmd, &(inputs.join("\n") + "\n"));
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            let got: Vec<String> = lines(&out)
                .iter()
                .map(|l| {
                    json(l)["completion"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect::<Vec<_>>().join(" ")
                })
                .collect();
            let want: Vec<String> = entry[1].as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect();
            assert_eq!(got, want, "{name} {model}");
        }
    }
}

/// The grammar models of the latest checkpoint, loaded.
fn latest_models(dir: &Path) -> engine::studies::grammar::models::GrammarModels {
    let (ckpt, state) = latest_checkpoint(dir);
    let config = serde_json::from_value(state["config"].clone()).unwrap();
    let bytes = std::fs::read(ckpt.join("model.bpk")).unwrap();
    engine::weights::grammar::grammar_from_bytes(&config, &bytes, &burn::tensor::Device::flex()).unwrap()
}

/// A run `--init-from` the shipped weights trains only the phases it names, with the recipe it
/// is given (corrupted inputs, free-running SST), records both, leaves the other models as the
/// weights had them, and exports a manifest whose lineage begins with the weights' own training.
#[test]
fn a_run_from_weights_trains_only_its_phases_and_keeps_the_lineage() {
    let (dir, out_dir) = (scratch("from-weights"), scratch("from-weights-out"));
    let w = weights("cfg-small");
    let w_arg = w.to_str().unwrap();
    let recipe = ["--phases", "sst,dual-talker", "--phase-steps", "2,1", "--train-corrupt", "0.3", "--sst-rollout", "2"];
    train(&dir, &[&["--init-from", w_arg][..], &recipe[..]].concat());
    let (_, state) = latest_checkpoint(&dir);
    assert_eq!(state["steps"], serde_json::json!([0, 0, 0, 2, 1, 0]));
    assert_eq!(state["phase"], 6, "finished");
    assert_eq!(state["recipe"], serde_json::json!({"train_corrupt": 0.3, "sst_rollout": 2}));
    let shipped = {
        let manifest =
            engine::weights::grammar::GrammarManifest::from_json(&std::fs::read_to_string(w.with_extension("json")).unwrap()).unwrap();
        engine::weights::grammar::load_grammar(&manifest, &std::fs::read(&w).unwrap(), &burn::tensor::Device::flex()).unwrap()
    };
    let run = latest_models(&dir);
    assert!(
        param_bits(&run.t) == param_bits(&shipped.t) && param_bits(&run.mono) == param_bits(&shipped.mono),
        "T and the Mono-Talker untouched"
    );
    assert!(param_bits(&run.r) != param_bits(&shipped.r) && param_bits(&run.dual) != param_bits(&shipped.dual), "R and its Talker trained");

    let out = bin().args(["export", "--name", "cfg-from", "--out-dir"]).arg(&out_dir).arg("--run-dir").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let manifest = json(&std::fs::read_to_string(out_dir.join("cfg-from.json")).unwrap());
    let names = |m: &serde_json::Value| -> Vec<String> {
        m["phases"].as_array().unwrap().iter().map(|p| p[0].as_str().unwrap().to_string()).collect()
    };
    let parent = json(&std::fs::read_to_string(w.with_extension("json")).unwrap());
    let want: Vec<String> = names(&parent).into_iter().chain(["sst".to_string(), "dual-talker".to_string()]).collect();
    assert_eq!(names(&manifest), want, "the weights' phases, then this run's");
    let command = manifest["training_command"].as_str().unwrap();
    let (before, after) = command.rsplit_once(" ; then, from those weights: ").expect("the lineage names the start");
    assert_eq!(before, parent["training_command"].as_str().unwrap());
    assert!(after.contains("--init-from") && after.contains("--train-corrupt 0.3"), "{command}");

    // Phases named without weights to take the others from, and the recipe on another family.
    let refused = |args: &[&str], why: &str| {
        let out = bin().args(["train", "--run-dir"]).arg(scratch("refused")).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(why), "{args:?}: {err}");
    };
    refused(&["--preset", "grammar-small", "--phases", "sst"], "--init-from");
    refused(&["--preset", "gram-nqueens8", "--train-corrupt", "0.2"], "--train-corrupt is for Grammar presets");
    refused(&["--preset", "grammar-small", "--sst-rollout", "9"], "--sst-rollout is 0 to 8");
}

/// `--reasoner-layers` measures another depth of R from trained weights: R is branched anew from
/// the weights' T (its first N layers), SST trains it, and the run's checkpoints and export record
/// the depth, so every reader loads R at its own size.
#[test]
fn a_deeper_reasoner_is_branched_anew_from_the_weights_t() {
    use burn::module::Module;
    let (dir, out_dir) = (scratch("deeper-r"), scratch("deeper-r-out"));
    let w = weights("cfg-small");
    let w_arg = w.to_str().unwrap();
    train(&dir, &["--init-from", w_arg, "--phases", "sst,dual-talker", "--phase-steps", "1,1", "--reasoner-layers", "4"]);
    let (_, state) = latest_checkpoint(&dir);
    assert_eq!(state["config"]["reasoner_layers"], 4);
    let run = latest_models(&dir);
    assert_eq!(run.r.num_params(), run.t.num_params(), "R has all four of T's layers (the shipped R has two)");
    let out = bin().args(["export", "--name", "cfg-deep", "--out-dir"]).arg(&out_dir).arg("--run-dir").arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let manifest = json(&std::fs::read_to_string(out_dir.join("cfg-deep.json")).unwrap());
    assert_eq!(manifest["config"]["reasoner_layers"], 4);
    let out = bin().args(["eval", "--limit", "4", "--weights"]).arg(out_dir.join("cfg-deep.bpk")).output().unwrap();
    assert!(out.status.success(), "the exported file loads: {}", String::from_utf8_lossy(&out.stderr));

    let refused = |args: &[&str], why: &str| {
        let out = bin().args(["train", "--preset", "cfg-small", "--run-dir"]).arg(scratch("refused-depth")).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(why), "{args:?}: {err}");
    };
    refused(&["--reasoner-layers", "5"], "--reasoner-layers is 1 to 4");
    refused(&["--init-from", w_arg, "--phases", "dual-talker", "--reasoner-layers", "4"], "--phases must train sst");
}
