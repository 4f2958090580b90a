//! The shipped JEPA-Reasoner + Talker (`public/weights/reasoner-tree.*`) is a product: its
//! manifest matches the file, it loads into the current code, reproduces its recorded routes and
//! latent for fixed trees, and still solves held-out trees at its recorded rate.

mod common;

use std::path::PathBuf;

use burn::tensor::Device;
use engine::tasks::tree::reasoner::{evaluate_trees, solve_trees};
use engine::tasks::tree::{self, Part, TreeTask, part_of};
use engine::weights::reasoner::{ReasonerManifest, load_reasoner};
use engine::weights::sha256_hex;

fn files() -> (ReasonerManifest, Vec<u8>) {
    let dir: PathBuf = common::shipped_dir();
    let json = std::fs::read_to_string(dir.join("reasoner-tree.json")).expect("reasoner-tree.json is shipped");
    let manifest = ReasonerManifest::from_json(&json).unwrap();
    let bytes = std::fs::read(dir.join("reasoner-tree.bpk")).expect("reasoner-tree.bpk is shipped");
    (manifest, bytes)
}

#[test]
fn manifest_describes_the_file_and_how_it_was_made() {
    let (m, bytes) = files();
    assert_eq!((m.name.as_str(), m.model.as_str(), m.task.as_str()), ("reasoner-tree", "jepa-reasoner", "tree"));
    assert_eq!(m.bytes, bytes.len());
    assert_eq!(m.sha256, sha256_hex(&bytes));
    // 1.3 M f32 parameters: 5.1 MiB, fetched once by the worker with a progress bar (GRAM files
    // stay under 4 MiB; the page and worker wasm are 5 + 17 MB).
    assert!(bytes.len() < 6 << 20, "{} bytes: too big for a browser", bytes.len());
    assert_eq!(m.training_commands.len(), 3, "{:?}", m.training_commands);
    for (cmd, phase) in m.training_commands.iter().zip(["reasoner-tree-pretrain", "reasoner-tree-sst", "reasoner-tree-talker"]) {
        assert!(cmd.contains(&format!("train --preset {phase}")), "{cmd}");
    }
    assert!(m.eval.is_some(), "no recorded eval");
}

#[test]
fn loads_and_reproduces_its_recorded_routes_and_latent() {
    let (m, bytes) = files();
    let device = Device::flex();
    let model = load_reasoner(&m, &bytes, &device).unwrap();
    let r = m.reference.as_ref().expect("a recorded reference");
    let tasks: Vec<TreeTask> = r.inputs.iter().map(|l| TreeTask::parse(l).unwrap()).collect();
    assert!(tasks.iter().all(|t| part_of(t) == Part::Test), "the reference uses held-out trees");
    let answers = solve_trees(&model, &tasks, 0.0, 0, &device);
    let routes: Vec<Option<String>> = answers.iter().map(|a| a.route.clone()).collect();
    assert_eq!(routes, r.routes);
    for (a, b) in answers[0].latents[0].iter().zip(&r.first_latent) {
        assert!((a - b).abs() < 1e-4, "first latent {:?} vs recorded {:?}", &answers[0].latents[0][..8], r.first_latent);
    }
    let norm: f32 = answers[0].latents[0].iter().map(|v| v * v).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-4, "latents live on the unit sphere, norm {norm}");
}

#[test]
fn corrupt_or_mismatched_files_are_refused() {
    let (m, mut bytes) = files();
    let device = Device::flex();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    let e = load_reasoner(&m, &bytes, &device).unwrap_err().to_string();
    assert!(e.contains("sha256") || e.contains("hash"), "{e}");
    let (mut m, bytes) = files();
    m.config.reasoner.d_ffn += 8;
    assert!(load_reasoner(&m, &bytes, &device).is_err(), "a config that does not match the tensors loads");
}

#[test]
fn still_solves_held_out_trees_at_its_recorded_rate() {
    let (m, bytes) = files();
    let device = Device::flex();
    let model = load_reasoner(&m, &bytes, &device).unwrap();
    let recorded = m.eval.as_ref().unwrap().eval.exact_match;
    let tasks = tree::test_set(200);
    let e = evaluate_trees(&model, &tasks, 0.0, 0, &device);
    // 200 of the recorded set's first trees: allow sampling slack below the full-set figure.
    assert!(e.exact_match >= recorded - 3.0, "exact match {:.2}% vs recorded {recorded:.2}%", e.exact_match);
    assert!(e.major_contributor >= 90.0, "{e:?}");
}
