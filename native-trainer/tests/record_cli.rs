//! `record` as the pages' instant start uses it: the JSON holds every step of every sample, each
//! answer a board an independent check reads, the weights' sha256, the verified stop where it
//! verified; the same command gives the same file; a bad puzzle and weights without a manifest
//! are refused with a reason.

mod common;

use engine::tasks::nqueens::Board;

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
        let probs = s["queen_probs"].as_array().unwrap();
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
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("bad board"), "{}", String::from_utf8_lossy(&bad.stderr));
    let nothing = record(&["--weights", dir.to_str().unwrap(), "--puzzle", puzzle], &dir.join("x.json"));
    assert!(!nothing.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
