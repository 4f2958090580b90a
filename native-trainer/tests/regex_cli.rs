//! The regex task and the JEPA objectives on the command line: `split --task regex`
//! prints `description<TAB>regex` by meaning; each objective's run resumes bit for bit
//! (LLM-JEPA's dropout and T-decoder-JEPA's spans and EMA target included); `export`, `solve
//! --task regex` (its known output, per-line errors), `eval` with `--record` and `--csv`.

use std::collections::HashSet;
use std::path::Path;

use engine::studies::regex::Nfa;

mod common;
use common::{bin, latest_checkpoint, lines, param_bits, run_with_stdin, scratch};

fn train(preset: &str, dir: &Path, extra: &[&str]) {
    let out = bin()
        .args(["--threads", "1", "train", "--preset", preset, "--eval-every", "0", "--checkpoint-every", "4", "--run-dir"])
        .arg(dir)
        .args(extra)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Every parameter of one file (`model.bpk`, `target.bpk`) of the latest checkpoint, as bits.
fn latest_bits(dir: &Path, file: &str) -> Vec<Vec<u32>> {
    let (ckpt, state) = latest_checkpoint(dir);
    let config: engine::studies::regex::model::RegexConfig = serde_json::from_value(state["config"].clone()).unwrap();
    let bytes = std::fs::read(ckpt.join(file)).unwrap();
    let device = burn::tensor::Device::flex();
    if file == "target.bpk" {
        param_bits(&engine::weights::regex::lm_from_bytes(&config.lm, &bytes, &device).unwrap())
    } else {
        param_bits(&engine::weights::regex::regex_from_bytes(&config, &bytes, &device).unwrap())
    }
}

#[test]
fn every_objective_resumes_exactly() {
    for preset in ["regex-llm-jepa", "regex-t-jepa"] {
        let (straight, split) = (scratch(&format!("{preset}-straight")), scratch(&format!("{preset}-split")));
        train(preset, &straight, &["--steps", "10"]);
        train(preset, &split, &["--steps", "10", "--stop-after", "5"]);
        train(preset, &split, &["--resume"]);
        assert!(latest_bits(&straight, "model.bpk") == latest_bits(&split, "model.bpk"), "{preset}: the models differ after resuming");
        if preset == "regex-t-jepa" {
            assert!(latest_bits(&straight, "target.bpk") == latest_bits(&split, "target.bpk"), "the EMA target encoders differ");
            assert!(latest_bits(&split, "target.bpk") != latest_bits(&split, "model.bpk")[..latest_bits(&split, "target.bpk").len()]);
        }
    }
}

#[test]
fn split_prints_pairs_by_meaning() {
    let part = |p: &str| {
        let out = bin().args(["split", "--task", "regex", "--part", p]).output().unwrap();
        assert!(out.status.success());
        lines(&out)
            .into_iter()
            .map(|l| {
                let (d, r) = l.split_once('\t').expect("description<TAB>regex");
                (d.to_string(), r.to_string())
            })
            .collect::<Vec<_>>()
    };
    let (train, test) = (part("train"), part("test"));
    assert!(test.len() > 900 && train.len() > 5 * test.len(), "{} / {}", train.len(), test.len());
    let trained: HashSet<&str> = train.iter().map(|(_, r)| r.as_str()).collect();
    for (d, r) in &test {
        assert!(!trained.contains(r.as_str()), "test regex {r} is trained on");
        Nfa::parse(r).unwrap_or_else(|e| panic!("{d}: {r}: {e}"));
    }
}

#[test]
fn export_solve_and_eval() {
    let (run, out_dir) = (scratch("run"), scratch("weights"));
    train("regex-lm", &run, &["--steps", "40"]);
    let out = bin().args(["export", "--name", "regex-test", "--out-dir"]).arg(&out_dir).arg("--run-dir").arg(&run).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let w = out_dir.join("regex-test.bpk");
    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(w.with_extension("json")).unwrap()).unwrap();
    assert_eq!(
        (manifest["task"].as_str(), manifest["preset"].as_str(), manifest["steps"].as_u64()),
        (Some("regex"), Some("regex-lm"), Some(40))
    );

    // The known output, then per-line errors that do not stop the other lines.
    let reference = manifest["reference"].as_array().unwrap();
    let input: String = reference.iter().map(|p| format!("{}\n", p[0].as_str().unwrap())).collect::<String>() + "lines with a unicorn\n";
    let mut cmd = bin();
    cmd.args(["solve", "--task", "regex", "--weights"]).arg(&w);
    let out = run_with_stdin(cmd, &input);
    assert_eq!(out.status.code(), Some(1), "a bad line makes the exit code 1");
    let answers: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), reference.len() + 1);
    for (a, r) in answers.iter().zip(reference) {
        assert_eq!((a["input"].as_str(), a["regex"].as_str()), (r[0].as_str(), r[1].as_str()));
    }
    assert!(answers.last().unwrap()["error"].as_str().unwrap().contains("unknown word 'unicorn'"));
    let out = bin().args(["solve", "--task", "sudoku", "--weights"]).arg(&w).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("--task regex"));

    let csv = out_dir.join("eval.csv");
    let out = bin().args(["eval", "--record", "--csv"]).arg(&csv).arg("--weights").arg(&w).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("regex/test") && stdout.contains("| semantic % |"), "{stdout}");
    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(w.with_extension("json")).unwrap()).unwrap();
    assert!(manifest["eval"]["score"]["semantic"].as_f64().is_some());
    assert!(std::fs::read_to_string(&csv).unwrap().starts_with("weights,preset,n,semantic"));
    let projection = std::fs::read_to_string(out_dir.join("eval.projection.csv")).unwrap();
    assert!(projection.lines().filter(|l| l.starts_with("text,")).count() > 900);
}

#[test]
fn the_jepa_term_can_be_set_per_run_and_only_where_it_exists() {
    let dir = scratch("override");
    train("regex-llm-jepa-low", &dir, &["--steps", "4", "--jepa-lambda", "2.5", "--pred-tokens", "0"]);
    let (_, state) = latest_checkpoint(&dir);
    let j = &state["config"]["objective"]["LlmJepa"];
    assert_eq!((j["lambda"].as_f64(), j["k"].as_u64()), (Some(2.5), Some(0)), "{state}");
    for (preset, flags, says) in [
        ("regex-lm", vec!["--jepa-lambda", "1"], "no JEPA term"),
        ("regex-t-jepa", vec!["--pred-tokens", "2"], "LLM-JEPA's"),
        ("regex-llm-jepa", vec!["--pred-tokens", "9"], "0 to 4"),
        ("regex-llm-jepa-low", vec!["--resume", "--jepa-lambda", "1"], "keeps its objective"),
    ] {
        let out = bin().args(["train", "--preset", preset, "--run-dir"]).arg(&dir).args(&flags).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{preset} {flags:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{}", String::from_utf8_lossy(&out.stderr));
    }
}
