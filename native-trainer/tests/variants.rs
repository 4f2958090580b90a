//! `train --variant` (the GRAM paper's Table 10 ablations) trains the ablated model, also when it
//! starts from the shipped weights of the model it ablates: the same step from the same weights
//! and seed gives other weights than the unablated run, and the variant is in the checkpoint.

mod common;
use common::{bin, weights};

#[test]
fn a_variant_from_shipped_weights_trains_the_ablated_model() {
    let base = std::env::temp_dir().join(format!("nt-variants-{}", std::process::id()));
    let run = |name: &str, variant: Option<&str>| {
        let dir = base.join(name);
        let _ = std::fs::remove_dir_all(&dir);
        let mut cmd = bin();
        cmd.args(["--threads", "1", "train", "--preset", "gram-nqueens8-mixer", "--steps", "1", "--eval-every", "0", "--init-from"])
            .arg(weights("gram-nqueens8"))
            .arg("--run-dir")
            .arg(&dir);
        if let Some(v) = variant {
            cmd.args(["--variant", v]);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let ckpt = dir.join("ckpt-0000001");
        (std::fs::read(ckpt.join("model.bpk")).unwrap(), std::fs::read_to_string(ckpt.join("state.json")).unwrap())
    };
    let (plain, plain_state) = run("plain", None);
    let (direct, direct_state) = run("direct", Some("direct-prediction"));
    assert!(!plain_state.contains("direct-prediction") && direct_state.contains("\"direct-prediction\""));
    assert_ne!(plain, direct, "the ablation changed nothing in training");
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn eval_of_several_weights_ends_with_one_table_row_each() {
    let out = bin()
        .args(["--threads", "1", "eval", "--limit", "4", "--samples", "2", "--decoding", "sample", "--weights"])
        .arg(weights("gram-nqueens8"))
        .arg("--weights")
        .arg(weights("trm-nqueens8"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let summary = text.split("Summary (one row per --weights):").nth(1).expect("a summary table");
    assert!(summary.contains("| gram-nqueens8 | GRAM | - | sample | TABLE1 accuracy="), "{summary}");
    assert!(summary.contains("| trm-nqueens8 | TRM | - | sample | TABLE1 accuracy="), "{summary}");
    // A manifest records one evaluation: several weights cannot share --record.
    let out = bin()
        .args(["eval", "--record", "--weights"])
        .arg(weights("gram-nqueens8"))
        .arg("--weights")
        .arg(weights("trm-nqueens8"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--record and --csv take one --weights"));
}
