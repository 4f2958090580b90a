//! What the command-line tests share: the real binary run from the repository root, its stdin
//! and its JSON lines, and the shipped weights.
#![allow(dead_code)] // each test crate uses its own part

use engine::transfer::ReadBack;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_native-trainer"));
    c.current_dir(root());
    c
}

pub fn root() -> PathBuf {
    Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into())).parent().unwrap().to_path_buf()
}

/// A fresh, empty directory under the system's temp dir for one test (named by the test
/// process's id, so two test binaries never share one).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nt-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn weights(name: &str) -> PathBuf {
    root().join("public/weights").join(format!("{name}.bpk"))
}

pub fn run_with_stdin(cmd: Command, input: &str) -> Output {
    run_with_stdin_bytes(cmd, input.as_bytes())
}

/// `run_with_stdin` for input that need not be text.
pub fn run_with_stdin_bytes(mut cmd: Command, input: &[u8]) -> Output {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // A command that refuses its arguments exits before reading: the pipe may be closed already.
    match child.stdin.take().unwrap().write_all(input) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    child.wait_with_output().unwrap()
}

pub fn lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

/// Every float parameter of `module`, as bits (a `.bpk` also holds parameter ids, which differ
/// between runs, so files cannot be compared byte for byte).
pub fn param_bits<M: burn::module::Module>(module: &M) -> Vec<Vec<u32>> {
    use burn::module::{ModuleVisitor, Param};
    use burn::tensor::Tensor;
    struct Bits(Vec<Vec<u32>>);
    impl ModuleVisitor for Bits {
        fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<D>>) {
            self.0.push(p.val().floats().unwrap().iter().map(|x| x.to_bits()).collect());
        }
    }
    let mut bits = Bits(Vec::new());
    module.visit(&mut bits);
    bits.0
}

/// The directory of `dir`'s latest checkpoint and its `state.json`.
pub fn latest_checkpoint(dir: &Path) -> (PathBuf, serde_json::Value) {
    let ckpt = dir.join(std::fs::read_to_string(dir.join("latest")).unwrap().trim());
    let state = serde_json::from_slice(&std::fs::read(ckpt.join("state.json")).unwrap()).unwrap();
    (ckpt, state)
}
