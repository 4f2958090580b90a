//! PTRM's flags on the real binary (docs/cli.md): `--latent-noise` makes a
//! TRM sample N different trajectories in `eval` and `solve`, `--select vote|lprm|q` scores or
//! picks among them, and bad values are refused with a clear message and exit code 2.

use engine::tasks::nqueens::{Part, split};

mod common;
use common::{bin, lines, run_with_stdin, weights};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn eval_scores_every_selection_of_ptrm_trajectories() {
    let out = bin()
        .args([
            "eval",
            "--part",
            "validation",
            "--limit",
            "6",
            "--samples",
            "4",
            "--latent-noise",
            "0.3",
            "--select",
            "vote,lprm,q",
            "--weights",
        ])
        .arg(weights("trm-nqueens8"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("TRM on nqueens8/validation: 6 inputs, 4 samples"), "{text}");
    assert!(text.contains("PTRM latent noise sigma 0.3"), "{text}");
    for s in ["vote", "lprm", "q"] {
        assert!(text.contains(&format!("Selected by {s} among the 4 samples: ")), "{text}");
    }
    let table = text.lines().find(|l| l.starts_with("TABLE1 accuracy=")).expect("machine line");
    for s in ["selected(vote)=", "selected(lprm)=", "selected(q)="] {
        assert!(table.contains(s), "{table}");
    }
}

#[test]
fn bad_ptrm_values_are_refused() {
    let trm = weights("trm-nqueens8");
    let eval = |extra: &[&str]| bin().args(["eval", "--limit", "1", "--weights"]).arg(&trm).args(extra).output().unwrap();
    for (args, message) in [
        (&["--latent-noise=-0.1"][..], "--latent-noise (PTRM's sigma) must be a number >= 0, not -0.1"),
        (&["--latent-noise", "NaN"][..], "must be a number >= 0, not NaN"),
        (&["--select", "best"][..], "--select must be lprm, vote or q, not \"best\""),
        (&["--select", "q", "--verified-stop"][..], "--select scores the plain run's samples"),
        (&["--latent-noise", "0.2", "--record"][..], "drop --verified-stop, --latent-noise and --select"),
    ] {
        let out = eval(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    let mut cmd = bin();
    cmd.args(["solve", "--select", "best", "--weights"]).arg(&trm);
    let out = run_with_stdin(cmd, "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--select must be auto, lprm, vote or q, not \"best\""), "{}", stderr(&out));
    let mut cmd = bin();
    cmd.args(["solve", "--latent-noise=-1", "--weights"]).arg(&trm);
    let out = run_with_stdin(cmd, ".".repeat(64).as_str());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("must be a number >= 0"), "{}", stderr(&out));
}

/// Without the noise a TRM's samples are one answer repeated; with it they differ (on some of
/// the puzzles), the same seed gives the same lines, and `selected` is one of the samples.
#[test]
fn solve_with_latent_noise_samples_a_trm() {
    let input: String = split(8, Part::Validation).iter().take(6).map(|i| i.puzzle.to_text() + "\n").collect();
    let run = |extra: &[&str]| {
        let mut cmd = bin();
        cmd.args(["solve", "--samples", "6", "--seed", "2", "--weights"]).arg(weights("trm-nqueens8")).args(extra);
        let out = run_with_stdin(cmd, &input);
        assert!(out.status.success(), "{}", stderr(&out));
        lines(&out).iter().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()).collect::<Vec<_>>()
    };
    let distinct =
        |rows: &[serde_json::Value]| rows.iter().filter(|r| r["samples"].as_array().unwrap().iter().any(|s| *s != r["samples"][0])).count();
    assert_eq!(distinct(&run(&[])), 0, "a TRM repeats one answer");
    let noisy = run(&["--latent-noise", "0.5", "--select", "q"]);
    assert!(distinct(&noisy) > 0, "PTRM's trajectories differ");
    assert_eq!(noisy, run(&["--latent-noise", "0.5", "--select", "q"]), "same seed, same lines");
    for r in &noisy {
        assert!(r["samples"].as_array().unwrap().contains(&r["selected"]));
    }
}
