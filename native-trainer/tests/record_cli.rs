//! `record` as the pages' instant start uses it. GRAM: the JSON holds every step of every
//! sample, each answer a board an independent check reads, the weights' sha256, the verified stop
//! where it verified; the same command gives the same file; a bad puzzle and weights without a
//! manifest are refused with a reason. Tree and grammar: the file is what the engine computes
//! afresh with the page's calls, and flags of another family or values out of range are refused.

mod common;

use burn::tensor::Device;
use engine::studies::grammar::explore::DRAWS;
use engine::studies::grammar::recorded::{RecordedGrammar, record_grammar};
use engine::studies::grammar::sweep::CORRUPTION;
use engine::tasks::nqueens::Board;
use engine::tasks::tree::recorded::{RecordedTree, record_tree};
use engine::weights::grammar::{GrammarManifest, load_grammar};
use engine::weights::reasoner::{ReasonerManifest, load_reasoner};

use common::{bin, weights};

fn record(args: &[&str], out: &std::path::Path) -> std::process::Output {
    let mut cmd = bin();
    cmd.args(["--threads", "1", "record"]).args(args).arg("--out").arg(out);
    cmd.output().unwrap()
}

#[test]
fn record_writes_every_step_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("nt-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("run.json");
    let w = weights("gram-nqueens8");
    let puzzle = "..............................................Q..Q.........Q....";
    let args = ["--weights", w.to_str().unwrap(), "--puzzle", puzzle, "--samples", "5", "--steps", "4", "--seed", "2"];
    let o = record(&args, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let run: serde_json::Value = serde_json::from_str(&text).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(w.with_extension("json")).unwrap()).unwrap();
    assert_eq!(run["weights_sha256"], manifest["sha256"]);
    assert_eq!((run["model"].as_str(), run["samples"].as_u64(), run["steps"].as_u64()), (Some("gram-nqueens8"), Some(5), Some(4)));
    let steps = run["steps_recorded"].as_array().unwrap();
    assert_eq!(steps.len(), 4, "no stop: the whole budget");
    let given = Board::parse(puzzle, 8).unwrap();
    for (k, s) in steps.iter().enumerate() {
        assert_eq!(s["step"].as_u64(), Some(k as u64 + 1));
        for b in s["boards"].as_array().unwrap() {
            let board = Board::parse(b.as_str().unwrap(), 8).unwrap();
            assert!(board.keeps(&given) || !board.is_solution(), "a board read from the run");
        }
        let probs = s["probs"].as_array().unwrap();
        assert_eq!(probs.len(), 5);
        assert!(probs.iter().all(|p| p.as_str().unwrap().len() == 64 && p.as_str().unwrap().chars().all(|c| c.is_ascii_hexdigit())));
        assert_eq!(s["latents"][0].as_array().unwrap().len(), 32);
    }
    // The same command, the same file.
    let again = dir.join("again.json");
    assert!(record(&args, &again).status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    // The verified stop ends where a sample passes the rules.
    let stop = dir.join("stop.json");
    let mut with_stop = args.to_vec();
    with_stop.extend(["--stop-restarts", "1"]);
    assert!(record(&with_stop, &stop).status.success());
    let run: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&stop).unwrap()).unwrap();
    if let Some(v) = run["verified"].as_object() {
        let last = run["steps_recorded"].as_array().unwrap().last().unwrap().clone();
        assert_eq!((v["round"].clone(), v["step"].clone()), (last["round"].clone(), last["step"].clone()));
    }
    // A board of the wrong size, and a checkpoint-less directory, are refused with a reason.
    let bad = record(&["--weights", w.to_str().unwrap(), "--puzzle", "Q..."], &dir.join("bad.json"));
    assert!(
        !bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("bad board"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    let nothing = record(&["--weights", dir.to_str().unwrap(), "--puzzle", puzzle], &dir.join("x.json"));
    assert!(!nothing.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nt-record-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The two JSON values are equal, numbers to within 1e-9 (relative) or 1e-12: the file's floats
/// are what this process computes, up to the order of a sum split over other threads.
fn same_json(a: &serde_json::Value, b: &serde_json::Value, at: &str) {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!((x - y).abs() <= 1e-12 + 1e-9 * x.abs().max(y.abs()), "{at}: {x} against {y}");
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "{at}: lengths");
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                same_json(p, q, &format!("{at}[{i}]"));
            }
        }
        (Value::Object(x), Value::Object(y)) => {
            assert_eq!(x.keys().collect::<Vec<_>>(), y.keys().collect::<Vec<_>>(), "{at}: fields");
            for (k, p) in x {
                same_json(p, &y[k], &format!("{at}.{k}"));
            }
        }
        _ => assert_eq!(a, b, "{at}"),
    }
}

fn sha256_of(name: &str) -> String {
    let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(weights(name).with_extension("json")).unwrap()).unwrap();
    m["sha256"].as_str().unwrap().to_string()
}

#[test]
fn record_answers_a_tree_as_the_page_does_and_refuses_what_does_not_apply() {
    let dir = temp_dir("tree");
    let w = weights("reasoner-tree");
    let line = "NL, NO, LJ, LI, OA, OM, JB, JH, IG, IF, AD, A E, MK, MC[ROOT]N[TARGET]K[ROUTE]";
    let out = dir.join("tree.json");
    let o = record(&["--weights", w.to_str().unwrap(), "--puzzle", line, "--latent-noise", "0.05", "--seed", "3"], &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let run: RecordedTree = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (run.model.as_str(), run.weights_sha256.clone(), run.noise, run.seed),
        ("reasoner-tree", sha256_of("reasoner-tree"), 0.05, 3)
    );
    assert_eq!(run.input, line.replace("A E", "AE"), "the question as the engine writes it");
    // A fresh answer with the page's own call, from the same file.
    let manifest = ReasonerManifest::from_json(&std::fs::read_to_string(w.with_extension("json")).unwrap()).unwrap();
    let model = load_reasoner(&manifest, &std::fs::read(&w).unwrap(), &Device::flex()).unwrap();
    let fresh = record_tree(&model, ("reasoner-tree", &manifest.sha256), line, 0.05, 3, &Device::flex()).unwrap();
    same_json(&serde_json::from_str(&text).unwrap(), &serde_json::to_value(&fresh).unwrap(), "tree");
    assert_eq!(run.explanation.steps.len(), fresh.explanation.steps.len());
    // Noise-free, the paper's example is answered right.
    let clean = dir.join("clean.json");
    assert!(record(&["--weights", w.to_str().unwrap(), "--puzzle", line], &clean).status.success());
    let clean: RecordedTree = serde_json::from_str(&std::fs::read_to_string(&clean).unwrap()).unwrap();
    assert_eq!((clean.explanation.route.as_deref(), clean.explanation.correct, clean.noise, clean.seed), (Some("NOMK"), true, 0.0, 0));
    // GRAM flags, a target that is not a leaf and noise out of range are refused with a reason.
    for (extra, want) in [
        (vec!["--puzzle", line, "--samples", "5"], "--samples does not apply to tree"),
        (vec!["--puzzle", line, "--sequence", "1", "--corrupt", "0.1"], "--sequence, --corrupt do not apply to tree"),
        (vec!["--puzzle", "NL, NO[ROOT]N[TARGET]Q[ROUTE]"], "not in the tree"),
        (vec!["--puzzle", line, "--latent-noise", "2"], "between 0 and 1"),
        (vec![], "--puzzle is required"),
    ] {
        let mut args = vec!["--weights", w.to_str().unwrap()];
        args.extend(extra);
        let bad = record(&args, &dir.join("bad.json"));
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(!bad.status.success() && err.contains(want), "{args:?}: {err}");
    }
    assert!(!dir.join("bad.json").exists(), "nothing written for a refused command");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn record_explores_a_grammar_sequence_as_the_page_does_and_refuses_what_does_not_apply() {
    let dir = temp_dir("grammar");
    let w = weights("cfg-small");
    let out = dir.join("grammar.json");
    let args = ["--weights", w.to_str().unwrap(), "--sequence", "2", "--corrupt", "0.1", "--latent-noise", "0.05", "--seed", "4"];
    let o = record(&args, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let run: RecordedGrammar = serde_json::from_str(&text).unwrap();
    assert_eq!((run.model.as_str(), run.weights_sha256.clone()), ("cfg-small", sha256_of("cfg-small")));
    assert_eq!((run.sequence, run.corrupt, run.noise, run.seed), (2, 0.1, 0.05, 4));
    let v = &run.view;
    assert_eq!(v.answers.iter().map(|a| a.model.as_str()).collect::<Vec<_>>(), ["t", "c", "r"]);
    assert!(!v.flipped.is_empty() && v.flipped.iter().all(|&p| p < v.cut && v.seen[p] != v.sequence[p]), "10% of the prefix flipped");
    // The whole curve: every level, T and R, each a mean over the draws of 4-token accuracy.
    assert_eq!(v.draws, DRAWS);
    assert_eq!(v.curve.iter().map(|p| p.0).collect::<Vec<_>>(), CORRUPTION.to_vec());
    for (_, points) in &v.curve {
        assert_eq!(points.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(), ["t", "r"]);
        assert!(points.iter().all(|p| (0.0..=100.0).contains(&p.1)));
    }
    // Uncorrupted, every draw is the same prefix: each model's accuracy is a whole number of tokens.
    assert!(v.curve[0].1.iter().all(|p| (p.1 / 25.0 - (p.1 / 25.0).round()).abs() < 1e-9), "{:?}", v.curve[0]);
    // A fresh exploration with the page's own calls, from the same file.
    let manifest = GrammarManifest::from_json(&std::fs::read_to_string(w.with_extension("json")).unwrap()).unwrap();
    let models = load_grammar(&manifest, &std::fs::read(&w).unwrap(), &Device::flex()).unwrap();
    let fresh =
        record_grammar(&models, manifest.config.variant, ("cfg-small", &manifest.sha256), 2, 0.1, 0.05, 4, &Device::flex()).unwrap();
    same_json(&serde_json::from_str(&text).unwrap(), &serde_json::to_value(&fresh).unwrap(), "grammar");
    // Flags of GRAM pages or of the tree, and corruption out of range, are refused with a reason.
    for (extra, want) in [
        (vec!["--puzzle", "AB, AC[ROOT]A[TARGET]B[ROUTE]"], "--puzzle does not apply to grammar"),
        (vec!["--samples", "5", "--steps", "4"], "--samples, --steps do not apply to grammar"),
        (vec!["--corrupt", "2"], "corruption must be between 0 and 1"),
    ] {
        let mut args = vec!["--weights", w.to_str().unwrap()];
        args.extend(extra);
        let bad = record(&args, &dir.join("bad.json"));
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(!bad.status.success() && err.contains(want), "{args:?}: {err}");
    }
    // And GRAM weights refuse the grammar's and the tree's flags.
    let gram = weights("gram-nqueens8");
    let bad = record(&["--weights", gram.to_str().unwrap(), "--puzzle", &".".repeat(64), "--latent-noise", "0.1"], &dir.join("bad.json"));
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("--latent-noise does not apply to GRAM/TRM"));
    let _ = std::fs::remove_dir_all(&dir);
}
