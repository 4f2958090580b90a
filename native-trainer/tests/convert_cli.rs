//! `convert` on the real binary: shipped weights to SafeTensors (PyTorch's conventions) and back
//! give the same parameters bit for bit; the manifest travels beside the file; a wrong pair of
//! extensions or a SafeTensors file without its manifest is refused and writes nothing.

use std::path::Path;

use burn::tensor::Device;
use engine::weights::{Manifest, load_gram, safetensors::safetensors_names};

mod common;
use common::{bin, param_bits, weights};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn load(bpk: &Path) -> (engine::gram::Gram, Manifest) {
    let manifest = Manifest::from_json(&std::fs::read_to_string(bpk.with_extension("json")).unwrap()).unwrap();
    let model = load_gram(&manifest, &std::fs::read(bpk).unwrap(), &Device::default()).unwrap();
    (model, manifest)
}

#[test]
fn shipped_weights_go_to_safetensors_and_back_unchanged() {
    let dir = std::env::temp_dir().join(format!("convert-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let st = dir.join("gram.safetensors");
    let out = bin().args(["convert", "--weights"]).arg(weights("gram-nqueens8")).arg("--out").arg(&st).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let names = safetensors_names(&std::fs::read(&st).unwrap()).unwrap();
    assert!(names.iter().any(|n| n == "lm_head.weight") && names.iter().any(|n| n == "h_init"), "{names:?}");
    assert!(st.with_extension("json").exists(), "no manifest beside the SafeTensors file");

    let back = dir.join("back.bpk");
    let out = bin().args(["convert", "--weights"]).arg(&st).arg("--out").arg(&back).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let (original, shipped) = load(&weights("gram-nqueens8"));
    let (round_trip, manifest) = load(&back);
    assert_eq!(param_bits(&original), param_bits(&round_trip), "the parameters changed on the way");
    assert_eq!(manifest.config, shipped.config);
    assert!(manifest.training_command.contains("then imported from") && manifest.name == "back", "{}", manifest.training_command);

    // Refusals: the direction comes from the extensions; SafeTensors needs its manifest.
    let bad = bin().args(["convert", "--weights"]).arg(weights("gram-nqueens8")).arg("--out").arg(dir.join("x.bin")).output().unwrap();
    assert!(!bad.status.success() && stderr(&bad).contains(".bpk -> .safetensors"), "{}", stderr(&bad));
    let lone = dir.join("lone.safetensors");
    std::fs::copy(&st, &lone).unwrap();
    let bad = bin().args(["convert", "--weights"]).arg(&lone).arg("--out").arg(dir.join("lone.bpk")).output().unwrap();
    assert!(!bad.status.success() && stderr(&bad).contains("cannot read the manifest"), "{}", stderr(&bad));
    assert!(!dir.join("lone.bpk").exists(), "a refused import wrote weights");
    let _ = std::fs::remove_dir_all(&dir);
}
