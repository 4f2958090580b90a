//! The shipped language models of the regex task (`public/weights/regex-lm.*`, LM only, and
//! `regex-llm-jepa.*`, LM + LLM-JEPA) are products: each manifest matches its file
//! and names how it was made, the file loads into the current code, writes its recorded regexes
//! for fixed held-out descriptions, is refused when corrupt or mismatched, and still writes
//! regexes right in meaning for held-out descriptions at its recorded rate (and at least 80%).

mod common;

use burn::tensor::Device;
use engine::studies::regex::model::write_regexes;
use engine::studies::regex::pairs;
use engine::studies::regex::score::score;
use engine::tasks::split::Part;
use engine::weights::regex::{RegexManifest, load_regex};
use engine::weights::sha256_hex;

const SHIPPED: [(&str, &str); 2] = [("regex-lm", "regex-lm"), ("regex-llm-jepa", "regex-llm-jepa")];

fn files(name: &str) -> (RegexManifest, Vec<u8>) {
    let dir = common::shipped_dir();
    let json = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap_or_else(|e| panic!("{name}.json is shipped: {e}"));
    let manifest = RegexManifest::from_json(&json).unwrap();
    let bytes = std::fs::read(dir.join(format!("{name}.bpk"))).unwrap_or_else(|e| panic!("{name}.bpk is shipped: {e}"));
    (manifest, bytes)
}

#[test]
fn manifests_describe_their_files_and_how_they_were_made() {
    for (name, preset) in SHIPPED {
        let (m, bytes) = files(name);
        assert_eq!((m.name.as_str(), m.model.as_str(), m.task.as_str(), m.preset.as_str()), (name, "regex-lm", "regex", preset));
        assert_eq!((m.bytes, m.sha256.clone()), (bytes.len(), sha256_hex(&bytes)));
        assert!(bytes.len() < 1 << 20, "{name}: {} bytes", bytes.len());
        assert!(m.training_command.contains(&format!("train --preset {preset}")), "{}", m.training_command);
        assert!(m.eval.is_some(), "{name}: no recorded eval");
    }
}

#[test]
fn each_loads_and_writes_its_recorded_regexes() {
    let device = Device::flex();
    for (name, _) in SHIPPED {
        let (m, bytes) = files(name);
        let model = load_regex(&m, &bytes, &device).unwrap();
        let reference = m.reference.as_ref().expect("a recorded reference");
        let descriptions: Vec<&str> = reference.iter().map(|(d, _)| d.as_str()).collect();
        let test: Vec<String> = pairs(Part::Test).into_iter().map(|p| p.description).collect();
        assert!(descriptions.iter().all(|d| test.iter().any(|t| t == d)), "the reference uses held-out descriptions");
        let written: Vec<String> =
            write_regexes(&model.lm, &descriptions, m.config.objective.k(), &device).into_iter().map(Result::unwrap).collect();
        let recorded: Vec<String> = reference.iter().map(|(_, r)| r.clone()).collect();
        assert_eq!(written, recorded, "{name}");
    }
}

#[test]
fn corrupt_or_mismatched_files_are_refused() {
    let device = Device::flex();
    let (m, mut bytes) = files("regex-lm");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    let e = load_regex(&m, &bytes, &device).unwrap_err().to_string();
    assert!(e.contains("sha256") || e.contains("hash"), "{e}");
    let (mut m, bytes) = files("regex-lm");
    m.config.lm.d_ffn += 8;
    assert!(load_regex(&m, &bytes, &device).is_err(), "a config that does not match the tensors loads");
}

#[test]
fn each_still_writes_held_out_regexes_right_at_its_recorded_rate() {
    let device = Device::flex();
    let set = pairs(Part::Test);
    let descriptions: Vec<&str> = set.iter().map(|p| p.description.as_str()).collect();
    let refs: Vec<String> = set.iter().map(|p| p.regex.clone()).collect();
    for (name, _) in SHIPPED {
        let (m, bytes) = files(name);
        let model = load_regex(&m, &bytes, &device).unwrap();
        let written: Vec<String> =
            write_regexes(&model.lm, &descriptions, m.config.objective.k(), &device).into_iter().map(|r| r.unwrap_or_default()).collect();
        let s = score(&written, &refs);
        let recorded = m.eval.as_ref().unwrap().score.semantic;
        assert!((s.semantic - recorded).abs() < 1e-9, "{name}: semantic {:.4} vs recorded {recorded:.4}", s.semantic);
        assert!(s.semantic >= 0.80, "{name}: {:.1}% of held-out regexes right in meaning, below the 80% bar", 100.0 * s.semantic);
    }
}
