//! `convert`: GRAM/TRM weights between our burnpack (`.bpk` + manifest) and SafeTensors in
//! PyTorch's conventions (`engine::weights::safetensors`: tensor names are our module paths,
//! Linear weights `[d_out, d_in]`, RMSNorm gains as `weight`), for exchange with PyTorch code.
//! The direction follows the extensions. Either way the manifest travels beside the file
//! (`F.safetensors` + `F.json`): it holds the config, which SafeTensors has no place for, and
//! the lineage; a SafeTensors file written by PyTorch needs a manifest copied from weights of
//! the same config (the config is what is read: the lineage says where the tensors came from).
//!
//! `--from trm` reads an official TinyRecursiveModels checkpoint instead
//! (`engine::weights::trm_import`): the config comes from its shapes and the flags, and the
//! manifest is written afresh, its lineage naming the checkpoint and its sha256.

use std::fs;
use std::path::Path;
use std::process::ExitCode;

use burn::module::Module;
use burn::tensor::Device;
use engine::weights::safetensors::{gram_from_safetensors, gram_to_safetensors};
use engine::weights::trm_import::gram_from_trm_checkpoint;
use engine::weights::{FORMAT_VERSION, Manifest, WeightsError, gram_to_bytes, sha256_hex};

use crate::convert_args::{ConvertFrom, TrmArgs};
use crate::gram::weights::load_weights;
use crate::run::lineage::program_relative;

fn extension(path: &Path) -> &str {
    path.extension().and_then(|e| e.to_str()).unwrap_or("")
}

pub fn convert(
    input: &Path,
    out: &Path,
    from: Option<ConvertFrom>,
    trm: &TrmArgs,
    command: &str,
    device: &Device,
) -> Result<ExitCode, String> {
    if from == Some(ConvertFrom::Trm) {
        return from_trm(input, out, trm, command, device);
    }
    match (extension(input), extension(out)) {
        ("bpk", "safetensors") => to_safetensors(input, out, device),
        ("safetensors", "bpk") => from_safetensors(input, out, command, device),
        _ => Err(format!(
            "convert goes .bpk -> .safetensors or .safetensors -> .bpk (by the files' extensions), not {} -> {}",
            input.display(),
            out.display()
        )),
    }
}

fn to_safetensors(input: &Path, out: &Path, device: &Device) -> Result<ExitCode, String> {
    let (model, _, manifest) = load_weights(input, device)?;
    let mut manifest = manifest.ok_or("convert takes shipped weights (a .bpk with its manifest)")?;
    let bytes = gram_to_safetensors(&model);
    // The manifest beside the SafeTensors file describes that file.
    manifest.sha256 = sha256_hex(&bytes);
    manifest.bytes = bytes.len();
    write_pair(out, &bytes, &manifest)?;
    println!(
        "wrote {} ({}, {} bytes, {} params) and its manifest {}",
        out.display(),
        manifest.model,
        bytes.len(),
        manifest.params,
        out.with_extension("json").display()
    );
    Ok(ExitCode::SUCCESS)
}

fn from_safetensors(input: &Path, out: &Path, command: &str, device: &Device) -> Result<ExitCode, String> {
    let manifest_path = input.with_extension("json");
    let text = fs::read_to_string(&manifest_path).map_err(|e| {
        format!(
            "cannot read the manifest {} beside {} (it gives the config; copy one from weights of the same config): {e}",
            manifest_path.display(),
            input.display()
        )
    })?;
    let (mut manifest, _) = engine::weights::identity::gram_manifest(&text).map_err(|e| format!("{}: {e}", manifest_path.display()))?;
    let tensors = fs::read(input).map_err(|e| format!("cannot read {}: {e}", input.display()))?;
    let model = gram_from_safetensors(&manifest.config, &tensors, device).map_err(|e| format!("{}: {e}", input.display()))?;
    let bytes = gram_to_bytes(&model);
    let name = out.file_stem().and_then(|s| s.to_str()).ok_or("the output has no name")?.to_string();
    manifest.training_command = format!(
        "{} ; then imported from {} (sha256 {}): {}",
        manifest.training_command,
        input.display(),
        sha256_hex(&tensors),
        program_relative(command)
    );
    manifest.name = name;
    manifest.params = model.num_params();
    manifest.sha256 = sha256_hex(&bytes);
    manifest.bytes = bytes.len();
    // The known output belonged to the tensors the manifest came with: re-export to get one.
    manifest.reference = None;
    write_pair(out, &bytes, &manifest)?;
    println!("wrote {} ({} bytes, {} params) from {}", out.display(), bytes.len(), manifest.params, input.display());
    Ok(ExitCode::SUCCESS)
}

/// An official TinyRecursiveModels checkpoint (SafeTensors) -> our TRM `.bpk` and a fresh manifest.
fn from_trm(input: &Path, out: &Path, flags: &TrmArgs, command: &str, device: &Device) -> Result<ExitCode, String> {
    if extension(out) != "bpk" {
        return Err(format!("convert --from trm writes our weights, a .bpk (its manifest beside it), not {}", out.display()));
    }
    let options = flags.options()?;
    let tensors = fs::read(input).map_err(|e| format!("cannot read {}: {e}", input.display()))?;
    let (model, config) = gram_from_trm_checkpoint(&tensors, &options, device).map_err(|e| match e {
        WeightsError::SafeTensors(_) => {
            format!("{}: {e} (a PyTorch .pt checkpoint must first be saved as SafeTensors: tests/pytorch/README.md)", input.display())
        }
        e => format!("{}: {e}", input.display()),
    })?;
    let bytes = gram_to_bytes(&model);
    let manifest = Manifest {
        format_version: FORMAT_VERSION,
        name: out.file_stem().and_then(|s| s.to_str()).ok_or("the output has no name")?.to_string(),
        model: "trm".into(),
        // TRM's data and token numbering, not one of our tasks (eval and solve go by the shapes).
        task: "trm-import".into(),
        config,
        params: model.num_params(),
        training_command: format!(
            "TinyRecursiveModels (SamsungSAILMontreal/TinyRecursiveModels) training; imported from a TRM checkpoint {} (sha256 {}): {}",
            input.display(),
            sha256_hex(&tensors),
            program_relative(command)
        ),
        data_seed: 0,
        train_steps: 0,
        train_seconds: 0.0,
        eval: None,
        reference: None,
        sha256: sha256_hex(&bytes),
        bytes: bytes.len(),
        curve: None,
    };
    write_pair(out, &bytes, &manifest)?;
    println!(
        "wrote {} ({} bytes, {} params, TRM D {} x {} layers, T {} K {}) from {}",
        out.display(),
        bytes.len(),
        manifest.params,
        manifest.config.d_model,
        manifest.config.n_layers,
        manifest.config.t_outer,
        manifest.config.k_inner,
        input.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn write_pair(out: &Path, bytes: &[u8], manifest: &Manifest) -> Result<(), String> {
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    fs::write(out, bytes).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let json = out.with_extension("json");
    fs::write(&json, manifest.to_json() + "\n").map_err(|e| format!("cannot write {}: {e}", json.display()))
}
