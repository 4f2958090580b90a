//! Project set-up and orchestration, so a fresh machine needs only cargo (and, for the browser
//! parts, the machine's Node.js and apt):
//!
//! - `cargo xtask test`: every test — rustfmt's check, the docs check, clippy (`-D warnings`), the layout rules (tests/layout_check.py), how far each task reaches beyond its folders (tests/task_reach.py), engine unit tests, native-trainer CLI contract tests,
//!   shipped-weights tests, the independent Python checker, the GPU trainer's check on Mesa's
//!   software Vulkan, then the browser app built (`web.rs`) and driven end to end in Chromium
//!   (WebGPU on SwiftShader and the CPU fallback). Each step's time is printed at the end.
//! - `cargo xtask serve`: the playground on http://127.0.0.1:8080 (`PORT` overrides) with the
//!   shipped weights, served once the page and the CPU worker are built; the WebGPU worker
//!   follows (`serve.rs`).
//! - `cargo xtask dist [--base-path /latent/] [--out DIR] [--no-build]`: the playground as a
//!   static site for any host, at its root or under a sub-path (`dist.rs`).
//! - `cargo xtask demo`: the trainer's terminal demo (GRAM and TRM side by side, no browser).
//! - `cargo xtask docs`: the docs check alone (`docs_check.rs`), which `test` runs first.
//! - `cargo xtask gpu-check`: builds the GPU trainer and checks it on this machine's GPU: the
//!   adapter, its losses against the CPU's, full-size step times beside the CPU's (`gpu_check.rs`).
//! - `cargo xtask screenshot`: the README's picture of `/nqueens` mid-run, re-made from the real
//!   page (`tests/e2e/screenshot.mjs`).
//!
//! Whatever is missing is installed first: the wasm32 target, wasm-opt from npm `binaryen@132`
//! (behind a cache of its results, `wasm_opt_cache.rs`), playwright-core and axe-core (npm ci in
//! tests/e2e), Chromium (apt, for the tests only). wasm-bindgen is a library of xtask's
//! (`web.rs`), built with it.
//!
//! Build artefacts go to `$CARGO_TARGET_DIR` when set, else to `target/` in the checkout.

mod dist;
mod docs_check;
mod gpu_check;
// The app's page table: xtask reads its paths only (the rest is the app's).
#[allow(dead_code)]
#[path = "../../app/src/pages.rs"]
mod pages;
mod serve;
mod step_clock;
mod test_lane;
mod trunk;
mod wasm_features;
mod wasm_opt_cache;
mod web;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use step_clock::timed;

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

/// Where the wasm-opt shim lives (in the target dir: a build artefact like the rest).
pub(crate) fn shim_dir() -> PathBuf {
    target_dir().join("wasm-opt-shim")
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

/// What the app's build needs (`web.rs`).
fn ensure_build_tools() -> Result<(), String> {
    ensure_wasm_target()?;
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

fn build_app() -> Result<(), String> {
    web::build_site(&web::site_dir(), &web::ALL, web::Build { optimise: true, lint: false })
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
    let started = std::time::Instant::now();
    let stolen_before = step_clock::machine_seconds().map(|(_, stolen)| stolen);
    let mut steps = Vec::new();
    let result = test_steps(&mut steps);
    let stolen = stolen_before.zip(step_clock::machine_seconds()).map(|(a, (_, b))| (b - a).round() as u64);
    eprintln!("xtask: {}", step_clock::summary(&steps, started.elapsed().as_secs(), stolen));
    result
}

/// The trainer's features in every native build of `test`: one build of burn (with the GPU
/// backend) serves the CPU tests, the independent check and the software-Vulkan check; the CPU
/// is still the default backend.
const NATIVE_FEATURES: &str = "native-trainer/wgpu";

fn test_steps(times: &mut Vec<step_clock::Step>) -> Result<(), String> {
    // The house style (rustfmt.toml), checked before anything is built.
    timed(times, "fmt", || run(cargo().args(["fmt", "--all", "--", "--check"])))?;
    timed(times, "docs", docs)?;
    // The architecture's rules (docs/ARCHITECTURE.md): file sizes and no import circles.
    timed(times, "layout", || run(Command::new("python3").current_dir(root()).arg("tests/layout_check.py")))?;
    timed(times, "task reach", || run(Command::new("python3").current_dir(root()).arg("tests/task_reach.py")))?;
    install_clippy_wrapper()?;
    // One optimised profile for everything (see Cargo.toml) and one feature set: the test build
    // makes the trainer's binary too, and burn is built once. clippy compiles the workspace's
    // crates as it lints them (`linted_cargo`); the build takes every target (benches and
    // examples too) and lists the test binaries, which run beside the app's build below.
    // The app's plain-Rust parts (URL settings, lessons) are tested natively in the same build: one
    // feature resolution, so burn is not built a second time for the app's features.
    let native = ["--release", "-p", "engine", "-p", "native-trainer", "-p", "app", "--features", NATIVE_FEATURES];
    let native_tests = timed(times, "native build (linted)", || {
        test_lane::build(linted_cargo().args(["test", "--no-run", "--all-targets"]).args(native))
    })?;
    // xtask's tests in xtask's own feature resolution, the one `cargo xtask` was built with: its
    // dependencies (wasm-bindgen's walrus, wasmparser, gimli) are then not compiled a second time
    // with the features the trainer's build would unify them to.
    let xtask_tests =
        timed(times, "xtask tests' build", || test_lane::build(linted_cargo().args(["test", "--no-run", "--release", "-p", "xtask"])))?;
    // Installed before the lane starts, so two apt-gets never meet.
    timed(times, "web tools", ensure_web_tools)?;
    let bin = target_dir().join("release").join("native-trainer");
    let lavapipe = gpu_check::correctness_on_software_vulkan(&bin)?;
    // Cross-language check: the split rule and the shipped model's answers, re-derived in Python
    // without the engine's code.
    let mut independent = Command::new("python3");
    independent.current_dir(root()).arg("tests/independent_check.py").arg(&bin);
    // Each step's limit guards against a hang: at least 3x the slowest time it took on a 2-core
    // host beside the app's build and more load (docs/testing.md, "Time limits").
    let minutes = |m: u64| std::time::Duration::from_secs(60 * m);
    let lane = vec![
        test_lane::LaneStep { name: "xtask tests", commands: test_lane::commands_for(&xtask_tests), limit: minutes(10) },
        test_lane::LaneStep { name: "native tests", commands: test_lane::commands_for(&native_tests), limit: minutes(50) },
        test_lane::LaneStep { name: "independent check", commands: vec![independent], limit: minutes(15) },
        // The GPU code path on Mesa's software Vulkan: the adapter named, refusals, the CPU's losses.
        // Each of its parts has its own guard by CPU work (tools/hang-guard.sh); this is the
        // wall-time backstop for the script as a whole.
        test_lane::LaneStep { name: "GPU check (lavapipe)", commands: vec![lavapipe], limit: minutes(60) },
    ];
    // The browser's build (linted: the page and both workers as wasm32 compiles them), with the
    // tests above beside it (`test_lane.rs`); the block's CPU time is theirs together.
    let logs = target_dir().join("test-logs");
    let mut app_s = 0;
    let (built, report) = timed(times, "app build and the tests beside it", || {
        let tests = std::thread::spawn(move || test_lane::run(lane, &logs));
        let started = std::time::Instant::now();
        let built = web::build_site(&web::site_dir(), &web::ALL, web::Build { optimise: true, lint: true });
        app_s = started.elapsed().as_secs();
        let report = tests.join().map_err(|_| "the test lane panicked".to_string())?;
        test_lane::print_logs(&report);
        Ok((built, report))
    })?;
    times.push(step_clock::Step { name: "app build (linted)", wall_s: app_s, cpu_s: None });
    times.extend(report.steps);
    // A failed build and failed tests beside it are reported together, neither hiding the other.
    let failures: Vec<String> = built.err().map(|e| format!("app build: {e}")).into_iter().chain(report.failures).collect();
    if !failures.is_empty() {
        return Err(format!("failed: {}", failures.join("; ")));
    }
    // The same build as a site under a sub-path, which the e2e run serves with a plain file server.
    let latent = target_dir().join("e2e-site-latent");
    dist::write_site(&web::site_dir(), &dist::DistArgs { base_path: "/latent/".into(), out: latent.clone(), build: false })?;
    timed(times, "e2e", || {
        run(Command::new("node").current_dir(e2e_dir()).arg("run.mjs").env("DIST", web::site_dir()).env("DIST_LATENT", &latent))
    })
}

/// Where `install_clippy_wrapper` writes the compiler wrapper.
fn clippy_wrapper() -> PathBuf {
    target_dir().join("clippy-wrapper").join("rustc-with-clippy")
}

/// The wrapper `linted_cargo` compiles the workspace's crates with: clippy's driver (rustc with
/// clippy's lints) and every warning an error. The lints the project allows are in Cargo.toml,
/// each with its reason; cargo passes them on.
fn install_clippy_wrapper() -> Result<(), String> {
    let path = clippy_wrapper();
    std::fs::create_dir_all(path.parent().expect("a folder")).map_err(|e| e.to_string())?;
    std::fs::write(
        &path,
        "#!/usr/bin/env bash\n# Written by `cargo xtask test` (xtask/src/main.rs). Do not edit.\nexec clippy-driver \"$@\" -D warnings\n",
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// cargo whose builds lint as they compile: the workspace's own crates go through clippy's driver
/// (`RUSTC_WORKSPACE_WRAPPER`; dependencies through plain rustc), so `test` gets clippy's
/// verdict, `-D warnings`, without the separate check builds of every dependency `cargo clippy`
/// would make (native, and again for wasm32). What it lints: the native crates with every target
/// (tests, benches, examples; the trainer with its GPU code), the app's library natively, and the
/// page and both workers as wasm32 compiles them.
pub(crate) fn linted_cargo() -> Command {
    let mut c = cargo();
    c.env("RUSTC_WORKSPACE_WRAPPER", clippy_wrapper());
    c
}

fn dist_site(args: &[String]) -> Result<(), String> {
    let args = dist::parse_args(args)?;
    if args.build {
        ensure_build_tools()?;
        build_app()?;
    }
    dist::write_site(&web::site_dir(), &args)
}

/// The README's picture of /nqueens mid-run, re-made from a fresh build (tests/e2e/screenshot.mjs).
fn screenshot() -> Result<(), String> {
    ensure_web_tools()?;
    build_app()?;
    run(Command::new("node").current_dir(e2e_dir()).arg("screenshot.mjs").env("DIST", web::site_dir()))
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
        "serve" => serve::serve(),
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
