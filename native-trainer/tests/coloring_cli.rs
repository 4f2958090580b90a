//! The graph-colouring command-line contract (`split`, `solve`, `train --augment`), on the real binary and the
//! shipped `gram-coloring8` weights: the same shape as N-Queens' and Sudoku's (cli.rs).

use std::collections::BTreeSet;

use engine::tasks::coloring::{Colouring, Graph, Part, part_of};

mod common;
use common::{bin, lines, run_with_stdin, weights};

#[test]
fn coloring_split_and_solve_keep_the_same_contract() {
    let get = |part: &str| {
        let out = bin().args(["split", "--task", "coloring8", "--part", part]).output().unwrap();
        assert!(out.status.success());
        lines(&out)
    };
    let (train, test) = (get("train"), get("test"));
    let train_set: BTreeSet<_> = train.iter().collect();
    assert!(test.iter().all(|t| !train_set.contains(t)), "disjoint");
    assert_eq!((train.len(), test.len()), (6673, 246));
    for line in &test {
        assert_eq!(line.len(), 28);
        assert_eq!(part_of(&Graph::parse(line, 8).unwrap()), Part::Test);
    }

    // K4 on vertices 0-3: pairs (0,1) (0,2) (0,3), (1,2) (1,3), (2,3) in text order.
    let mut k4 = Graph::empty(8);
    for (i, j) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
        k4.set_edge(i, j, true);
    }
    let good = test[0].clone();
    let input = format!("{good}\n{}\n{}2\n{}\n", &good[..27], &good[..27], k4.to_text());
    let mut cmd = bin();
    cmd.args(["solve", "--task", "coloring8", "--weights"]).arg(weights("gram-coloring8")).args(["--samples", "4"]);
    let out = run_with_stdin(cmd, &input);
    assert_eq!(out.status.code(), Some(1), "exit code says some lines failed");
    let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 4);
    let samples = rows[0]["samples"].as_array().unwrap();
    assert_eq!(samples.len(), 4);
    let selected = rows[0]["selected"].as_str().unwrap();
    assert!(samples.iter().any(|s| s == selected), "selected is one of the samples");
    let graph = Graph::parse(&good, 8).unwrap();
    let verified = Colouring::parse(selected, 8).is_ok_and(|c| graph.is_coloured_by(&c));
    assert_eq!(rows[0]["verified"].as_bool().unwrap(), verified, "verified is what the rules say");
    assert!(rows[1]["error"].as_str().unwrap().contains("expected 28 characters"));
    assert!(rows[2]["error"].as_str().unwrap().contains("character 28 is '2'"));
    assert!(rows[3]["error"].as_str().unwrap().contains("not 3-colourable: vertices 0, 1, 2 and 3"));

    // The wrong task for the weights is an error before any line is read.
    let mut cmd = bin();
    cmd.args(["solve", "--task", "nqueens8", "--weights"]).arg(weights("gram-coloring8"));
    let out = run_with_stdin(cmd, &good);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds a coloring8 model"));
}

/// `solve` samples 10-vertex graphs at their task's guidance scale, 1.5 (the page's default too),
/// and 8-vertex ones at the paper's 1: leaving the flag out is the same run as giving that scale.
#[test]
fn solve_takes_each_size_its_own_default_scale() {
    let samples = |task: &str, model: &str, graph: &str, scale: Option<&str>| {
        let mut cmd = bin();
        cmd.args(["solve", "--task", task, "--weights"]).arg(weights(model)).args(["--samples", "6", "--seed", "3"]);
        if let Some(s) = scale {
            cmd.args(["--guidance-scale", s]);
        }
        let out = run_with_stdin(cmd, graph);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let row: serde_json::Value = serde_json::from_str(&lines(&out)[0]).unwrap();
        row["samples"].clone()
    };
    // A sparse graph (a 10-cycle) has many colourings, so the noise's scale shows in the samples.
    let ring = |n: usize| {
        let mut g = Graph::empty(n);
        for i in 0..n {
            g.set_edge(i, (i + 1) % n, true);
        }
        g.to_text()
    };
    let ring10 = ring(10);
    let default = samples("coloring10", "gram-coloring10", &ring10, None);
    assert_eq!(default, samples("coloring10", "gram-coloring10", &ring10, Some("1.5")));
    assert_ne!(default, samples("coloring10", "gram-coloring10", &ring10, Some("1")), "scale 1 should sample differently");
    let ring8 = ring(8);
    assert_eq!(samples("coloring8", "gram-coloring8", &ring8, None), samples("coloring8", "gram-coloring8", &ring8, Some("1")));
}

/// `--copies samples` without the verified stop: TRM answers one thing N times on the graph as
/// given, and on copies its first sample is still that answer while the others differ (each the
/// model's answer on a relabelled copy, read back); every sample is in the graph's frame.
/// `eval` says it is not the paper's sampler, and a task without copies is refused.
#[test]
fn copies_per_sample_give_trm_many_answers_in_the_graphs_frame() {
    let mut ring = Graph::empty(8);
    for i in 0..8 {
        ring.set_edge(i, (i + 1) % 8, true);
    }
    let solve = |extra: &[&str]| {
        let mut cmd = bin();
        cmd.args(["solve", "--task", "coloring8", "--weights"]).arg(weights("trm-coloring8")).args(["--samples", "8"]).args(extra);
        let out = run_with_stdin(cmd, &ring.to_text());
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let row: serde_json::Value = serde_json::from_str(&lines(&out)[0]).unwrap();
        row["samples"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    let plain = solve(&[]);
    assert!(plain.iter().all(|s| s == &plain[0]), "TRM is deterministic: {plain:?}");
    let copied = solve(&["--copies", "samples"]);
    assert_eq!(copied[0], plain[0], "the first sample solves the graph as given");
    let canonical: BTreeSet<Colouring> =
        copied.iter().filter_map(|s| Colouring::parse(s, 8).ok()).filter(|c| ring.is_coloured_by(c)).map(|c| c.canonical()).collect();
    assert!(canonical.len() >= 2, "copies give TRM several colourings of an 8-ring: {copied:?}");

    let out = bin()
        .args(["eval", "--weights"])
        .arg(weights("trm-coloring8"))
        .args(["--part", "validation", "--limit", "3", "--samples", "4", "--copies", "samples"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Each sample on its own copy of the input") && text.contains("some sample proper"), "{text}");
    let out =
        bin().args(["eval", "--weights"]).arg(weights("gram-nqueens8")).args(["--limit", "2", "--copies", "samples"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("nqueens8 makes no copies of its inputs"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out =
        bin().args(["eval", "--weights"]).arg(weights("trm-coloring8")).args(["--limit", "2", "--copies", "restarts"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "copies per restart need the verified stop");
}

/// `train --augment` on colouring: the run says it draws copies, records it in its state, and a
/// resumed run keeps it; a task with no such copy (N-Queens) is refused with a reason.
#[test]
fn augment_is_recorded_and_refused_where_a_task_has_no_copies() {
    let dir = std::env::temp_dir().join(format!("nt-coloring-augment-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let train = |preset: &str, extra: &[&str]| {
        let mut cmd = bin();
        cmd.args(["--threads", "1", "train", "--preset", preset, "--steps", "2", "--batch", "8", "--eval-every", "0", "--run-dir"])
            .arg(&dir)
            .args(extra);
        cmd.output().unwrap()
    };
    let out = train("gram-coloring8", &["--augment"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("x random answer-preserving copies"), "{err}");
    let (_, state) = common::latest_checkpoint(&dir);
    assert_eq!(state["train_augment"], serde_json::json!(true));
    std::fs::remove_dir_all(&dir).unwrap();
    let out = train("gram-nqueens8", &["--augment"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--augment: nqueens8 has no answer-preserving copy"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Graphs from elsewhere: `solve` reads an edge list as a line; `data import --format coloring
/// --test` reads edge lists, DIMACS blocks and the task's lines, says which the project's dataset
/// holds, and `eval --data` scores them with the split's tables; a graph with no colouring, a
/// vertex beyond the models' and an import of the other size are refused with the reason.
#[test]
fn graphs_from_elsewhere_are_read_imported_and_scored() {
    let mut cmd = bin();
    cmd.args(["solve", "--task", "coloring8", "--weights"]).arg(weights("gram-coloring8")).args(["--samples", "3"]);
    let out = run_with_stdin(cmd, "0-1 1-2 2-0\n0-1 1-9\n");
    let rows: Vec<serde_json::Value> = lines(&out).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows[0]["samples"].as_array().map(Vec::len), Some(3), "{rows:?}");
    assert_eq!(rows[0]["puzzle"], "0-1 1-2 2-0", "the line as given");
    assert!(
        rows[0]["samples"].as_array().unwrap().iter().all(|c| c.as_str().map(str::len) == Some(8)),
        "a colour per vertex of the model's 8"
    );
    assert!(rows[1]["error"].as_str().unwrap().contains("vertex 9 is beyond this model's 8 vertices"));

    let dir = std::env::temp_dir().join(format!("nt-coloring-import-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let test_line = {
        let out = bin().args(["split", "--task", "coloring8", "--part", "test"]).output().unwrap();
        lines(&out)[0].clone()
    };
    let file = dir.join("graphs.txt");
    std::fs::write(&file, format!("# three graphs\n0-1 1-2 2-3 3-0\nc a triangle\np edge 3 3\ne 1 2\ne 2 3\ne 3 1\n{test_line}\n"))
        .unwrap();
    let import = |out: &str, extra: &[&str]| {
        let mut cmd = bin();
        cmd.args(["data", "import", "--format", "coloring", "--input"]).arg(&file).arg("--out").arg(dir.join(out)).args(extra);
        cmd.output().unwrap()
    };
    let out = import("imp", &["--test", "--vertices", "8"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = lines(&out).join("\n");
    assert!(text.contains("graphs: 3 on 8 vertices"), "{text}");
    assert!(text.contains("1 in its test part (none the models trained on)"), "{text}");
    let written = std::fs::read_to_string(dir.join("imp/test.txt")).unwrap();
    assert_eq!(written.lines().nth(2), Some(test_line.as_str()));

    let eval = |w: &str| {
        let mut cmd = bin();
        cmd.args(["--threads", "1", "eval", "--weights"]).arg(weights(w)).arg("--data").arg(dir.join("imp")).args(["--samples", "2"]);
        cmd.output().unwrap()
    };
    let out = eval("gram-coloring8");
    let text = lines(&out).join("\n");
    assert!(out.status.success() && text.contains("imported test") && text.contains(": 3 graphs"), "{text}");
    assert!(text.contains("TABLE1 conflicts="), "{text}");
    let out = eval("gram-coloring10");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("8-vertex graphs; these are coloring10 weights"));

    // Nothing is written when a line is bad, or --test is missing.
    std::fs::write(&file, "0-1\n0-1 0-2 0-3 1-2 1-3 2-3\n").unwrap();
    let out = import("bad", &["--test", "--vertices", "8"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2: not 3-colourable: vertices 0, 1, 2 and 3"));
    let out = import("bad", &["--vertices", "8"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("add --test"));
    assert!(!dir.join("bad").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
