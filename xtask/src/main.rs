//! Project set-up and orchestration, so a fresh machine needs only cargo:
//!
//! - `cargo xtask test`: every test (engine unit tests, native-trainer CLI contract tests,
//!   shipped-weights tests), after installing whatever is missing.
//! - `cargo xtask serve`: the playground. Until the browser app lands (issue 3) this runs the
//!   trainer's demo: the shipped GRAM and TRM weights solve sample puzzles side by side.
//!
//! Build artefacts go to `$CARGO_TARGET_DIR` when set, else to `target/` in the checkout.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the workspace").to_path_buf()
}

fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask: {:?}", cmd);
    let status = cmd.status().map_err(|e| format!("{:?}: {e}", cmd.get_program()))?;
    if status.success() { Ok(()) } else { Err(format!("{:?} failed: {status}", cmd.get_program())) }
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    c
}

fn test() -> Result<(), String> {
    // One optimised profile for everything (see Cargo.toml): the same artefacts serve the
    // binaries and the tests, and burn is never built twice.
    run(cargo().args(["build", "--release", "-p", "native-trainer"]))?;
    run(cargo().args(["test", "--release", "-p", "engine", "-p", "native-trainer"]))?;
    // Cross-language check: the split rule and the shipped model's answers, re-derived in Python
    // without the engine's code.
    let bin = target_dir().join("release").join("native-trainer");
    run(Command::new("python3")
        .current_dir(root())
        .arg("tests/independent_check.py")
        .arg(&bin))
}

fn target_dir() -> PathBuf {
    std::env::var("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|_| root().join("target"))
}

fn serve() -> Result<(), String> {
    run(cargo().args(["build", "--release", "-p", "native-trainer"]))?;
    let bin = target_dir().join("release").join("native-trainer");
    run(Command::new(&bin).current_dir(root()).arg("demo"))
}

fn main() -> ExitCode {
    let task = std::env::args().nth(1).unwrap_or_default();
    let result = match task.as_str() {
        "test" => test(),
        "serve" => serve(),
        _ => Err("usage: cargo xtask <test|serve>".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
