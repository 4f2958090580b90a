//! The browser app's build: three wasm binaries of the `app` crate (the page, and the model's
//! worker in a CPU-only and a WebGPU build), each compiled by cargo for wasm32, given its
//! JavaScript glue by wasm-bindgen and shrunk by wasm-opt (behind its cache,
//! `wasm_opt_cache.rs`), then put beside `app/index.html`, `app/style.css` and the shipped
//! weights and recorded runs (`public/`) in a site folder any static server can serve.
//!
//! xtask does this itself rather than through trunk: a fresh machine would otherwise compile
//! trunk from source first (about 11 minutes of 2 cores), for the four steps below. The output
//! keeps trunk's names: `app.js`/`app_bg.wasm` (wasm-bindgen's `web` target, loaded by the module
//! script in index.html) and `worker_cpu.js`, `worker_webgpu.js` with their `_bg.wasm`
//! (`no-modules`, which gloo-worker's loader starts; the page picks one, `app/src/gpu_probe.rs`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{WASM_TARGET, cargo, dist, root, run, shim_dir, target_dir};

/// One wasm binary of the app crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wasm {
    /// The cargo binary (`app/Cargo.toml`), which also names its files in the site.
    pub bin: &'static str,
    /// The app features it is built with.
    pub features: &'static str,
    /// The JavaScript glue wasm-bindgen writes for it.
    pub glue: Glue,
}

/// wasm-bindgen's output kinds that the app uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glue {
    /// An ES module (wasm-bindgen's `web` target), which the page's module script imports.
    Web,
    /// A classic script (`no-modules`), which gloo-worker's loader starts in a worker.
    NoModules,
}

/// The page: Leptos on the main thread; it never links the model's worker code.
pub const PAGE: Wasm = Wasm { bin: "app", features: "", glue: Glue::Web };
/// The model's worker on burn-flex alone (a quarter of the WebGPU build's size).
pub const CPU_WORKER: Wasm = Wasm { bin: "worker_cpu", features: "worker", glue: Glue::NoModules };
/// The model's worker with burn's WebGPU backend (cubecl): the longest of the three to build.
pub const WEBGPU_WORKER: Wasm = Wasm { bin: "worker_webgpu", features: "webgpu", glue: Glue::NoModules };

/// All three, in the order `cargo xtask test` and `dist` build them: the WebGPU worker first, so
/// its wasm-opt (the longest) runs while the other two compile, and the page last (its wasm-opt,
/// the shortest, is the one nothing runs beside).
pub const ALL: [Wasm; 3] = [WEBGPU_WORKER, CPU_WORKER, PAGE];

/// How a build is made.
#[derive(Clone, Copy, Debug)]
pub struct Build {
    /// wasm-opt `-Oz` on each binary (minutes of a core; `serve` goes without).
    pub optimise: bool,
    /// The app and the engine compiled by clippy's driver, every warning an error
    /// (`crate::linted_cargo`; `test` only).
    pub lint: bool,
}

/// Compiles `wasm` and gives it its glue; returns the folder wasm-bindgen wrote to.
fn compile(wasm: Wasm, lint: bool) -> Result<PathBuf, String> {
    let mut build = if lint { crate::linted_cargo() } else { cargo() };
    build.args(["build", "--release", "--target", WASM_TARGET, "-p", "app", "--bin", wasm.bin]);
    if !wasm.features.is_empty() {
        build.args(["--features", wasm.features]);
    }
    run(&mut build)?;
    let compiled = target_dir().join(WASM_TARGET).join("release").join(format!("{}.wasm", wasm.bin));
    let glue = target_dir().join("wasm-bindgen").join("release");
    fs::create_dir_all(&glue).map_err(|e| format!("{}: {e}", glue.display()))?;
    bindgen(wasm, &compiled, &glue)?;
    Ok(glue)
}

/// wasm-bindgen's JavaScript glue for `compiled`, written to `glue`, by the wasm-bindgen
/// library itself (`wasm-bindgen-cli-support`, the version Cargo.lock pins for the app's
/// wasm-bindgen, so the two always match). The settings are the CLI's defaults, as
/// `wasm-bindgen --target=<web|no-modules> --out-name=<bin> --no-typescript` would run it: the
/// library in xtask spares a fresh machine the CLI's `cargo install`, which compiles the CLI's
/// test runner too (an HTTP server, a client, compression).
fn bindgen(wasm: Wasm, compiled: &Path, glue: &Path) -> Result<(), String> {
    let why = |e| format!("wasm-bindgen on {}: {e:#}", compiled.display());
    let mut b = wasm_bindgen_cli_support::Bindgen::new();
    match wasm.glue {
        Glue::Web => b.web(true).map_err(why)?,
        Glue::NoModules => b.no_modules(true).map_err(why)?,
    };
    b.input_path(compiled).out_name(wasm.bin).typescript(false).demangle(true).omit_default_module_path(false);
    b.generate(glue).map_err(why)
}

/// Puts `wasm`'s two files from `glue` in `site`, shrunk by wasm-opt `-Oz` first when
/// `optimise`: the wasm first, then the script that loads it, each written beside and renamed
/// into place, so a server that is already serving `site` never hands out half a file, and a
/// page that finds the script finds its wasm.
fn finish(wasm: Wasm, glue: &Path, site: &Path, optimise: bool) -> Result<(), String> {
    let wasm_file = format!("{}_bg.wasm", wasm.bin);
    let mut ready = glue.join(&wasm_file);
    if optimise {
        let optimised = target_dir().join("wasm-opt").join("release");
        fs::create_dir_all(&optimised).map_err(|e| format!("{}: {e}", optimised.display()))?;
        ready = optimised.join(&wasm_file);
        run(Command::new(shim_dir().join("wasm-opt"))
            .current_dir(root())
            .arg(format!("--output={}", ready.display()))
            .arg("-Oz")
            .arg(glue.join(&wasm_file)))?;
    }
    fs::create_dir_all(site).map_err(|e| format!("{}: {e}", site.display()))?;
    put(&ready, &site.join(&wasm_file))?;
    let snippets = glue.join("snippets");
    if snippets.is_dir() {
        dist::copy_dir(&snippets, &site.join("snippets"))?;
    }
    put(&glue.join(format!("{}.js", wasm.bin)), &site.join(format!("{}.js", wasm.bin)))
}

/// Builds `wasm` into `site`.
pub fn build_wasm(wasm: Wasm, site: &Path, how: Build) -> Result<(), String> {
    let glue = compile(wasm, how.lint)?;
    finish(wasm, &glue, site, how.optimise)
}

/// Copies `from` to `to` through a temporary name beside it.
fn put(from: &Path, to: &Path) -> Result<(), String> {
    let tmp = to.with_extension("partial");
    fs::copy(from, &tmp).map_err(|e| format!("{} -> {}: {e}", from.display(), tmp.display()))?;
    fs::rename(&tmp, to).map_err(|e| format!("{} -> {}: {e}", tmp.display(), to.display()))
}

/// A new site in `site` (what was there is replaced): index.html, the style sheet, the shipped
/// weights and recorded runs, then each of `wasms`. cargo builds them one after another; each
/// one's wasm-opt (one core, minutes for the WebGPU worker) runs beside the next one's build.
pub fn build_site(site: &Path, wasms: &[Wasm], how: Build) -> Result<(), String> {
    if site.exists() {
        fs::remove_dir_all(site).map_err(|e| format!("{}: {e}", site.display()))?;
    }
    fs::create_dir_all(site).map_err(|e| format!("{}: {e}", site.display()))?;
    let app = root().join("app");
    let index = fs::read_to_string(app.join("index.html")).map_err(|e| format!("app/index.html: {e}"))?;
    fs::write(site.join("index.html"), crate::trunk::page_html(&index, PAGE.bin)?).map_err(|e| format!("{}: {e}", site.display()))?;
    fs::copy(app.join("style.css"), site.join("style.css")).map_err(|e| format!("app/style.css: {e}"))?;
    for dir in ["weights", "runs"] {
        dist::copy_dir(&root().join("public").join(dir), &site.join(dir))?;
    }
    let mut finishing = Vec::new();
    let mut result = Ok(());
    for &wasm in wasms {
        match compile(wasm, how.lint) {
            Ok(glue) => {
                let site = site.to_path_buf();
                finishing.push(std::thread::spawn(move || finish(wasm, &glue, &site, how.optimise)));
            }
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    for handle in finishing {
        let finished = handle.join().unwrap_or_else(|_| Err("a wasm-opt thread panicked".into()));
        result = result.and(finished);
    }
    result
}

/// Where the app is built: `dist/` in the checkout.
pub fn site_dir() -> PathBuf {
    root().join("dist")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_builds_are_the_ones_app_cargo_toml_declares() {
        let manifest = fs::read_to_string(root().join("app").join("Cargo.toml")).unwrap();
        for wasm in ALL {
            assert!(manifest.contains(&format!("name = \"{}\"", wasm.bin)), "{}", wasm.bin);
            for feature in wasm.features.split(',').filter(|f| !f.is_empty()) {
                assert!(manifest.contains(&format!("\n{feature} = ")), "feature {feature}");
            }
        }
        // The page's script names the page's files; gpu_probe.rs names the workers'.
        let probe = fs::read_to_string(root().join("app").join("src").join("gpu_probe.rs")).unwrap();
        for worker in [CPU_WORKER, WEBGPU_WORKER] {
            assert!(probe.contains(&format!("\"{}.js\"", worker.bin)), "{}", worker.bin);
        }
    }

    #[test]
    fn put_replaces_a_file_whole() {
        let tmp = std::env::temp_dir().join(format!("xtask-web-put-{}", std::process::id()));
        fs::create_dir_all(&tmp).unwrap();
        fs::write(tmp.join("new"), "new").unwrap();
        fs::write(tmp.join("site.js"), "old").unwrap();
        put(&tmp.join("new"), &tmp.join("site.js")).unwrap();
        assert_eq!(fs::read_to_string(tmp.join("site.js")).unwrap(), "new");
        assert!(!tmp.join("site.partial").exists());
        fs::remove_dir_all(&tmp).unwrap();
    }
}
