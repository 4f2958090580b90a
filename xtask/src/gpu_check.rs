//! `cargo xtask gpu-check`: builds the GPU trainer (`--features wgpu`) and runs
//! `tools/gpu-check.sh` on whatever GPU this machine has: the adapter, the losses against the
//! CPU's, the full-size step times (docs/gpu.md). `cargo xtask test` runs its correctness part on
//! Mesa's software Vulkan with the trainer its own tests built (the same features).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{NATIVE_FEATURES, cargo, ensure_apt, root, run, target_dir};

/// Mesa's software Vulkan driver (lavapipe): a Vulkan adapter on a machine with no GPU.
const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

/// The GPU build of native-trainer, built if it is not up to date (the features `test` builds
/// with, so the two share every artefact).
fn build() -> Result<PathBuf, String> {
    run(cargo().args(["build", "--release", "-p", "native-trainer", "--features", NATIVE_FEATURES]))?;
    Ok(target_dir().join("release").join("native-trainer"))
}

fn script(bin: &Path) -> Command {
    let mut c = Command::new("bash");
    c.current_dir(root()).arg("tools/gpu-check.sh").env("BIN", bin);
    c
}

/// The whole check, on this machine's GPU: what a person with a GPU runs.
pub fn gpu_check() -> Result<(), String> {
    let bin = build()?;
    run(&mut script(&bin))
}

/// The correctness part on lavapipe (installed if missing): the adapter is named, a software
/// one refused without `--allow-software-gpu`, no adapter at all is a readable error, and two
/// training steps from the shipped weights give the CPU's losses. `bin` is a `--features wgpu`
/// build of the trainer. Installs lavapipe and returns the check's command, for `test` to run.
pub fn correctness_on_software_vulkan(bin: &Path) -> Result<Command, String> {
    ensure_apt(LAVAPIPE_ICD, "mesa-vulkan-drivers")?;
    let mut check = script(bin);
    check.env("ONLY", "correctness").env("ALLOW_SOFTWARE", "1").env("REQUIRE_ADAPTER", "1").env("VK_DRIVER_FILES", LAVAPIPE_ICD);
    Ok(check)
}
