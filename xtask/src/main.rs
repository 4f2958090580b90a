//! Project set-up and orchestration, so a fresh machine needs only cargo (and, for the browser
//! parts, the machine's Node.js and apt):
//!
//! - `cargo xtask test`: every test — rustfmt's check, the docs check, clippy (`-D warnings`), the layout rules (tests/layout_check.py), engine unit tests, native-trainer CLI contract tests,
//!   shipped-weights tests, the independent Python checker, then the browser app built by trunk
//!   and driven end to end in Chromium (WebGPU on SwiftShader and the CPU fallback).
//! - `cargo xtask serve`: the playground on http://127.0.0.1:8080 (`PORT` overrides), built and
//!   served by trunk with the shipped weights.
//! - `cargo xtask dist [--base-path /latent/] [--out DIR] [--no-build]`: the playground as a
//!   static site for any host, at its root or under a sub-path (`dist.rs`).
//! - `cargo xtask demo`: the trainer's terminal demo (GRAM and TRM side by side, no browser).
//! - `cargo xtask docs`: the docs check alone (`docs_check.rs`), which `test` runs first.
//! - `cargo xtask gpu-check`: builds the GPU trainer and checks it on this machine's GPU: the
//!   adapter, its losses against the CPU's, full-size step times beside the CPU's (`gpu_check.rs`).
//! - `cargo xtask screenshot`: the README's picture of `/nqueens` mid-run, re-made from the real
//!   page (`tests/e2e/screenshot.mjs`).
//!
//! Whatever is missing is installed first: the wasm32 target, trunk and the exact
//! wasm-bindgen-cli (cargo install), wasm-opt from npm `binaryen@132` (behind a cache of its
//! results, `wasm_opt_cache.rs`), playwright-core and axe-core (npm ci in tests/e2e), Chromium
//! (apt). trunk itself never downloads: it runs with `--offline` and the versions pinned in
//! Trunk.toml.
//!
//! Build artefacts go to `$CARGO_TARGET_DIR` when set, else to `target/` in the checkout.

mod dist;
mod docs_check;
mod gpu_check;
#[path = "../../app/src/routes.rs"]
mod routes;
mod wasm_opt_cache;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const TRUNK: &str = "0.21.14";
/// Must equal the wasm-bindgen in Cargo.lock and Trunk.toml.
const WASM_BINDGEN: &str = "0.2.130";
const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The checkout `cargo xtask` runs in: `cargo run` sets CARGO_MANIFEST_DIR at run time. Not the
/// compile-time value alone: a target directory shared by two checkouts (`.ci/run`'s default
/// cache) can hand one checkout a binary built in the other, which would then test the other.
fn root() -> PathBuf {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into());
    Path::new(&manifest_dir).parent().expect("xtask lives in the workspace").to_path_buf()
}

fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("xtask: {:?}", cmd);
    let status = cmd.status().map_err(|e| format!("{:?}: {e}", cmd.get_program()))?;
    if status.success() { Ok(()) } else { Err(format!("{:?} failed: {status}", cmd.get_program())) }
}

/// stdout of a command, or None when it cannot run.
fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    c
}

fn target_dir() -> PathBuf {
    std::env::var("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|_| root().join("target"))
}

fn e2e_dir() -> PathBuf {
    root().join("tests").join("e2e")
}

/// PATH with npm's wasm-opt (binaryen 132) first, behind its cache (`wasm_opt_cache.rs`):
/// Debian's binaryen 108 emits a .wasm that does not load (measured with this toolchain), so it
/// must never be the one trunk finds.
fn tool_path() -> String {
    let npm_bin = e2e_dir().join("node_modules").join(".bin");
    let cargo_bin = std::env::var("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo"))
        .join("bin");
    format!("{}:{}:{}:{}", shim_dir().display(), npm_bin.display(), cargo_bin.display(), std::env::var("PATH").unwrap_or_default())
}

/// Where the wasm-opt shim lives (in the target dir: a build artefact like the rest).
fn shim_dir() -> PathBuf {
    target_dir().join("wasm-opt-shim")
}

fn ensure_cargo_tool(bin: &str, krate: &str, version: &str, locked: bool) -> Result<(), String> {
    let have = output(Command::new(bin).arg("--version").env("PATH", tool_path()));
    if have.as_deref().is_some_and(|v| v.contains(version)) {
        return Ok(());
    }
    let mut c = cargo();
    c.args(["install", krate, "--version", version]);
    if locked {
        c.arg("--locked");
    }
    // Installed tools are independent of the project's build: keep them out of its target dir.
    c.env_remove("CARGO_TARGET_DIR");
    run(&mut c)
}

fn ensure_apt(bin: &str, package: &str) -> Result<(), String> {
    if Path::new(bin).exists() {
        return Ok(());
    }
    let sudo = if output(Command::new("id").arg("-u")).is_some_and(|u| u.trim() == "0") { vec![] } else { vec!["sudo"] };
    let apt = |args: &[&str]| {
        let mut all: Vec<&str> = sudo.clone();
        all.extend_from_slice(args);
        let mut c = Command::new(all[0]);
        c.args(&all[1..]).env("DEBIAN_FRONTEND", "noninteractive");
        c
    };
    run(&mut apt(&["apt-get", "update", "-qq"]))?;
    run(&mut apt(&["apt-get", "install", "-y", "-qq", package]))
}

/// Everything the browser build and its tests need.
fn ensure_web_tools() -> Result<(), String> {
    ensure_build_tools()?;
    ensure_apt("/usr/bin/chromium", "chromium")
}

/// What trunk needs to build the app.
fn ensure_build_tools() -> Result<(), String> {
    ensure_wasm_target()?;
    ensure_cargo_tool("trunk", "trunk", TRUNK, true)?;
    // Not --locked: the registry lacks one of its locked dependency versions (measured with this toolchain).
    ensure_cargo_tool("wasm-bindgen", "wasm-bindgen-cli", WASM_BINDGEN, false)?;
    let wasm_opt = e2e_dir().join("node_modules").join(".bin").join("wasm-opt");
    let playwright = e2e_dir().join("node_modules").join("playwright-core");
    let axe = e2e_dir().join("node_modules").join("axe-core");
    if !wasm_opt.exists() || !playwright.exists() || !axe.exists() {
        run(Command::new("npm").current_dir(e2e_dir()).args(["ci", "--no-audit", "--no-fund"]))?;
    }
    wasm_opt_cache::install(&shim_dir(), &wasm_opt, &target_dir().join("wasm-opt-cache"))?;
    Ok(())
}

fn ensure_wasm_target() -> Result<(), String> {
    let targets = output(Command::new("rustup").args(["target", "list", "--installed"])).unwrap_or_default();
    if !targets.lines().any(|t| t.trim() == WASM_TARGET) {
        run(Command::new("rustup").args(["target", "add", WASM_TARGET]))?;
    }
    Ok(())
}

fn trunk(args: &[&str]) -> Command {
    let mut c = Command::new("trunk");
    c.current_dir(root()).args(args).env("PATH", tool_path());
    c
}

fn build_app() -> Result<(), String> {
    // trunk runs cargo with --offline; the wasm builds need crates a native build never
    // downloads (the WebGPU worker's cubecl/cubek stack), so fetch every target's first.
    run(cargo().arg("fetch"))?;
    run(&mut trunk(&["build", "--release", "--offline"]))
}

/// The README and docs rules (`docs_check.rs`); every problem listed, then one error.
fn docs() -> Result<(), String> {
    let checked = docs_check::check(&root())?;
    for p in &checked.problems {
        eprintln!("docs: {p}");
    }
    if !checked.problems.is_empty() {
        return Err(format!("the docs check found {} problem(s)", checked.problems.len()));
    }
    eprintln!("docs: in order (README.md {} lines; links, anchors, routes, subcommands and words checked)", checked.readme_lines);
    Ok(())
}

fn test() -> Result<(), String> {
    // The house style (rustfmt.toml), checked before anything is built.
    run(cargo().args(["fmt", "--all", "--", "--check"]))?;
    docs()?;
    clippy()?;
    // The architecture's rules (docs/ARCHITECTURE.md): file sizes and no import circles.
    run(Command::new("python3").current_dir(root()).arg("tests/layout_check.py"))?;
    // One optimised profile for everything (see Cargo.toml): the same artefacts serve the
    // binaries and the tests, and burn is never built twice.
    run(cargo().args(["build", "--release", "-p", "native-trainer"]))?;
    run(cargo().args(["test", "--release", "-p", "engine", "-p", "native-trainer"]))?;
    // The app's plain-Rust parts (URL settings), natively, and xtask's own (dist).
    run(cargo().args(["test", "--release", "-p", "app", "--lib"]))?;
    run(cargo().args(["test", "--release", "-p", "xtask"]))?;
    // Cross-language check: the split rule and the shipped model's answers, re-derived in Python
    // without the engine's code.
    let bin = target_dir().join("release").join("native-trainer");
    run(Command::new("python3").current_dir(root()).arg("tests/independent_check.py").arg(&bin))?;
    // The GPU code path on Mesa's software Vulkan: the adapter named, refusals, the CPU's losses.
    gpu_check::correctness_on_software_vulkan()?;
    // The browser: build with trunk, then drive the real page in Chromium.
    ensure_web_tools()?;
    build_app()?;
    // The same build as a site under a sub-path, which the e2e run serves with a plain file server.
    let latent = target_dir().join("e2e-site-latent");
    dist::write_site(&root().join("dist"), &dist::DistArgs { base_path: "/latent/".into(), out: latent.clone(), build: false })?;
    run(Command::new("node").current_dir(e2e_dir()).arg("run.mjs").env("DIST", root().join("dist")).env("DIST_LATENT", &latent))
}

/// clippy with every warning an error (the allowed lints are in Cargo.toml, each with its
/// reason): the native crates with their tests, benches and examples, the app's native
/// library and tests, and the app as the browser builds it (wasm32: the page and both workers).
fn clippy() -> Result<(), String> {
    let deny = ["--", "-D", "warnings"];
    run(cargo().args(["clippy", "--release", "-p", "engine", "-p", "native-trainer", "-p", "xtask", "--all-targets"]).args(deny))?;
    run(cargo().args(["clippy", "--release", "-p", "app", "--lib", "--tests"]).args(deny))?;
    ensure_wasm_target()?;
    run(cargo().args(["clippy", "--release", "-p", "app", "--features", "webgpu", "--target", WASM_TARGET]).args(deny))
}

fn dist_site(args: &[String]) -> Result<(), String> {
    let args = dist::parse_args(args)?;
    if args.build {
        ensure_build_tools()?;
        build_app()?;
    }
    dist::write_site(&root().join("dist"), &args)
}

fn serve() -> Result<(), String> {
    ensure_web_tools()?;
    let port = std::env::var("PORT").unwrap_or_else(|_| "8080".into());
    eprintln!(
        "xtask: the playground will be at http://127.0.0.1:{port}/ (/nqueens, /sudoku, /coloring, /tree, /generate, /grammar, /jepa, /learn) once trunk has built it"
    );
    run(&mut trunk(&["serve", "--release", "--offline", "--address", "127.0.0.1", "--port", &port]))
}

/// The README's picture of /nqueens mid-run, re-made from a fresh build (tests/e2e/screenshot.mjs).
fn screenshot() -> Result<(), String> {
    ensure_web_tools()?;
    build_app()?;
    run(Command::new("node").current_dir(e2e_dir()).arg("screenshot.mjs").env("DIST", root().join("dist")))
}

fn demo() -> Result<(), String> {
    run(cargo().args(["build", "--release", "-p", "native-trainer"]))?;
    let bin = target_dir().join("release").join("native-trainer");
    run(Command::new(&bin).current_dir(root()).arg("demo"))
}

fn main() -> ExitCode {
    let task = std::env::args().nth(1).unwrap_or_default();
    let result = match task.as_str() {
        "test" => test(),
        "serve" => serve(),
        "demo" => demo(),
        "docs" => docs(),
        "screenshot" => screenshot(),
        "gpu-check" => gpu_check::gpu_check(),
        "dist" => dist_site(&std::env::args().skip(2).collect::<Vec<_>>()),
        _ => Err("usage: cargo xtask <test|serve|dist|demo|docs|screenshot|gpu-check>".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
