//! What the command-line tests share: the real binary run from the repository root, its stdin
//! and its JSON lines, and the shipped weights.
#![allow(dead_code)] // each test crate uses its own part

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

pub fn weights(name: &str) -> PathBuf {
    root().join("public/weights").join(format!("{name}.bpk"))
}

pub fn run_with_stdin(mut cmd: Command, input: &str) -> Output {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // A command that refuses its arguments exits before reading: the pipe may be closed already.
    match child.stdin.take().unwrap().write_all(input.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    child.wait_with_output().unwrap()
}

pub fn lines(out: &Output) -> Vec<String> {
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}
