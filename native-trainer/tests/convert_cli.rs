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
    let model = load_gram(&manifest, &std::fs::read(bpk).unwrap(), &Device::flex()).unwrap();
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

/// `convert --from trm`: the committed TinyRecursiveModels fixture (tests/pytorch, TRM's names
/// behind `_orig_mod.model.inner.`) becomes our TRM `.bpk` with a manifest whose config comes
/// from its shapes and the flags and whose lineage names the checkpoint's sha256; the weights
/// are the engine's import bit for bit. A file that is not SafeTensors, or missing flags, is a
/// clear error that writes nothing.
#[test]
fn a_trm_checkpoint_converts_with_its_manifest() {
    use engine::weights::trm_import::{TrmImportOptions, gram_from_trm_checkpoint};
    let dir = std::env::temp_dir().join(format!("convert-trm-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ckpt = dir.join("step_100.safetensors");
    std::fs::copy(common::root().join("tests/pytorch/fixtures/trm-official.safetensors"), &ckpt).unwrap();
    let bpk = dir.join("trm-official.bpk");
    let flags = ["--n-heads", "2", "--seq-len", "9", "--puzzle-emb-len", "4", "--h-cycles", "2", "--l-cycles", "2"];
    let out = bin().args(["convert", "--from", "trm", "--weights"]).arg(&ckpt).arg("--out").arg(&bpk).args(flags).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let (model, manifest) = load(&bpk);
    let c = &manifest.config;
    assert_eq!((manifest.model.as_str(), c.d_model, c.vocab, c.d_hidden, c.n_layers, c.n_heads, c.seq_len), ("trm", 16, 6, 32, 2, 2, 9));
    assert_eq!((c.t_outer, c.k_inner, c.n_sup, c.guidance), (2, 2, 16, false));
    assert_eq!((c.puzzle_emb_len, c.puzzle_emb_ndim, c.n_puzzles), (Some(4), Some(24), Some(3)));
    let sha = engine::weights::sha256_hex(&std::fs::read(&ckpt).unwrap());
    assert!(
        manifest.training_command.contains("imported from a TRM checkpoint") && manifest.training_command.contains(&sha),
        "{}",
        manifest.training_command
    );
    let options = TrmImportOptions { puzzle_emb_len: 4, h_cycles: 2, l_cycles: 2, ..TrmImportOptions::new(2, 9) };
    let (direct, _) = gram_from_trm_checkpoint(&std::fs::read(&ckpt).unwrap(), &options, &Device::flex()).unwrap();
    assert_eq!(param_bits(&model), param_bits(&direct));

    let garbage = dir.join("step_1.pt");
    std::fs::write(&garbage, b"PK\x03\x04 a zip of pickles").unwrap();
    let bad = bin()
        .args(["convert", "--from", "trm", "--weights"])
        .arg(&garbage)
        .arg("--out")
        .arg(dir.join("bad.bpk"))
        .args(flags)
        .output()
        .unwrap();
    assert!(
        !bad.status.success() && stderr(&bad).contains("not a readable SafeTensors") && stderr(&bad).contains("saved as SafeTensors"),
        "{}",
        stderr(&bad)
    );
    assert!(!dir.join("bad.bpk").exists(), "a refused import wrote weights");
    let bad = bin().args(["convert", "--from", "trm", "--weights"]).arg(&ckpt).arg("--out").arg(dir.join("bad.bpk")).output().unwrap();
    assert!(!bad.status.success() && stderr(&bad).contains("needs --n-heads and --seq-len"), "{}", stderr(&bad));
    let bad =
        bin().args(["convert", "--weights"]).arg(&ckpt).arg("--out").arg(dir.join("bad.bpk")).args(["--n-heads", "2"]).output().unwrap();
    assert!(!bad.status.success() && stderr(&bad).contains("--from"), "{}", stderr(&bad));
    let _ = std::fs::remove_dir_all(&dir);
}
