//! `train --init-from W --d-hidden H --d-token-hidden T` widens the weights' core MLPs before
//! training: the export carries the wider config and the lineage and evaluates like any weights;
//! narrowing, or a token width on an attention core, is a clear error that trains nothing. (That
//! widening keeps the function is the engine's test, `widening_the_core_keeps_every_sample`.)

mod common;
use common::{bin, weights};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nt-widen-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn init_from_widens_the_core_and_refuses_to_narrow_it() {
    let shipped = weights("gram-nqueens8");
    let train = |dir: &std::path::Path, sizes: &[&str]| {
        bin()
            .args(["--threads", "1", "train", "--preset", "gram-nqueens8-mixer", "--steps", "1", "--eval-every", "0", "--init-from"])
            .arg(&shipped)
            .args(sizes)
            .arg("--run-dir")
            .arg(dir)
            .output()
            .unwrap()
    };
    let dir = scratch("wide");
    let out = train(&dir, &["--d-hidden", "192", "--d-token-hidden", "320"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("widened the core's MLPs from 128 (token 256) to 192 (320)"), "{err}");
    let out_dir = scratch("wide-export");
    let out = bin().args(["export", "--name", "wide", "--run-dir"]).arg(&dir).arg("--out-dir").arg(&out_dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out_dir.join("wide.json")).unwrap()).unwrap();
    assert_eq!((manifest["config"]["d_hidden"].as_u64(), manifest["config"]["d_token_hidden"].as_u64()), (Some(192), Some(320)));
    let command = manifest["training_command"].as_str().unwrap();
    assert!(command.contains("--d-hidden 192") && command.contains("--init-from"), "{command}");
    // The widened file is a model of its own: it evaluates like any shipped weights.
    let out = bin()
        .args(["--threads", "1", "eval", "--limit", "4", "--samples", "2", "--weights"])
        .arg(out_dir.join("wide.bpk"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    for (sizes, says) in
        [(&["--d-hidden", "64"][..], "widen them, not narrow them"), (&["--d-token-hidden", "128"][..], "widen them, not narrow them")]
    {
        let dir = scratch("narrow");
        let out = train(&dir, sizes);
        assert_eq!(out.status.code(), Some(2), "{sizes:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(!dir.join("ckpt-0000001").exists(), "{sizes:?}: nothing trained");
    }
    let out = bin()
        .args(["--threads", "1", "train", "--preset", "gram-nqueens8", "--steps", "1", "--d-token-hidden", "64", "--run-dir"])
        .arg(scratch("attention"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has an attention core"), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&out_dir);
}
