//! `record --task jepa` as `/jepa`'s instant start uses it: the JSON holds the settings, a
//! progress point every 5 steps (both cross-entropies, the JEPA cosine) and both models'
//! snapshots at step 0 and every 50; the same command gives the same file; flags of the other
//! recording, or knobs out of range, are refused with a reason.

mod common;

use common::bin;

fn record(args: &[&str], out: &std::path::Path) -> std::process::Output {
    let mut cmd = bin();
    cmd.args(["--threads", "1", "record", "--task", "jepa"]).args(args).arg("--out").arg(out);
    cmd.output().unwrap()
}

#[test]
fn record_jepa_writes_the_session_and_refuses_bad_flags() {
    let dir = std::env::temp_dir().join(format!("nt-record-jepa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("jepa.json");
    let args = ["--steps", "55", "--seed", "2", "--lambda", "1.5", "--k", "2"];
    let o = record(&args, &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let run: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        (run["lambda"].as_f64(), run["k"].as_u64(), run["seed"].as_u64(), run["steps"].as_u64()),
        (Some(1.5), Some(2), Some(2), Some(55))
    );
    let progress = run["progress"].as_array().unwrap();
    assert_eq!(progress.iter().map(|p| p["step"].as_u64().unwrap()).collect::<Vec<_>>(), (1..=11).map(|i| 5 * i).collect::<Vec<_>>());
    for p in progress {
        let ce = p["ce"].as_array().unwrap();
        assert!(ce.len() == 2 && ce.iter().all(|c| c.as_f64().is_some_and(|c| c > 0.0 && c < 10.0)), "{p}");
        assert!(p["jepa_cos"].as_f64().is_some_and(|c| (-1.0..=1.0).contains(&c)), "{p}");
    }
    let snapshots = run["snapshots"].as_array().unwrap();
    assert_eq!(snapshots.len(), 2, "step 0 and step 50");
    for (i, pair) in snapshots.iter().enumerate() {
        let pair = pair.as_array().unwrap();
        assert_eq!(pair.len(), 2, "LM only, LM + LLM-JEPA");
        for s in pair {
            assert_eq!(s["step"].as_u64(), Some(50 * i as u64));
            assert_eq!((s["text"].as_array().unwrap().len(), s["code"].as_array().unwrap().len()), (40, 40));
            assert!(s["semantic"].as_f64().is_some_and(|a| (0.0..=100.0).contains(&a)));
            assert!(s["cosine"].as_f64().is_some() && s["spread"].as_f64().is_some());
        }
    }
    assert!(text.len() < 20_000, "rounded: {} bytes", text.len());
    // The same command, the same file.
    let again = dir.join("again.json");
    assert!(record(&args, &again).status.success());
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    // The GRAM recording's flags, an unknown task and knobs out of the page's range are refused.
    let bad = record(&["--steps", "5", "--puzzle", "Q..."], &dir.join("bad.json"));
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("--puzzle"), "{}", String::from_utf8_lossy(&bad.stderr));
    let lambda = record(&["--steps", "5", "--lambda", "9"], &dir.join("bad.json"));
    assert!(
        !lambda.status.success() && String::from_utf8_lossy(&lambda.stderr).contains("--lambda is 0 to 4"),
        "{}",
        String::from_utf8_lossy(&lambda.stderr)
    );
    let task = bin().args(["record", "--task", "tree", "--out"]).arg(dir.join("bad.json")).output().unwrap();
    assert!(!task.status.success() && String::from_utf8_lossy(&task.stderr).contains("jepa"), "{}", String::from_utf8_lossy(&task.stderr));
    let knob =
        bin().args(["record", "--weights", "x.bpk", "--puzzle", "Q", "--lambda", "2", "--out"]).arg(dir.join("bad.json")).output().unwrap();
    assert!(
        !knob.status.success() && String::from_utf8_lossy(&knob.stderr).contains("cannot be used with '--lambda"),
        "{}",
        String::from_utf8_lossy(&knob.stderr)
    );
    assert!(!dir.join("bad.json").exists(), "nothing written when refused");
    let _ = std::fs::remove_dir_all(&dir);
}
