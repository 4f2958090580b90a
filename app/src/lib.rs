//! The browser playground. The page (`bin/app.rs`, Leptos on the main thread) renders and sends
//! [`protocol::Request`]s; the worker runs the engine and answers with [`protocol::Response`]s.
//! It comes in two builds, the page starting the one it needs ([`gpu_probe::WorkerBuild`]):
//! `bin/worker_webgpu.rs` (WebGPU, burn-flex as its fallback) and `bin/worker_cpu.rs` (burn-flex
//! only, without the WebGPU stack that is 72% of the other's code). No maths here: boards,
//! solvers and metrics are the engine's.
//!
//! `base_path`, `calibration`, `gpu_fallback`, `headline`, `lessons`, `protocol`,
//! `pages`, `recorded_jepa`, `recorded_runs`, `run_record`, `share_merge`, `url_state`,
//! `weights_summary`, `gpu_probe`'s choice and each page's URL state and headline rows
//! (`ui/<page>/url.rs`, `headline.rs`) are plain Rust and tested natively
//! (`cargo test -p app --lib`); the views (the rest of `ui`, `site`) and `worker` build for
//! wasm32 only and are tested end to end in Chromium (`tests/e2e/`).

pub mod base_path;
pub mod calibration;
pub mod gpu_fallback;
pub mod gpu_probe;
pub mod headline;
pub mod lessons;
pub mod pages;
pub mod protocol;
pub mod recorded_jepa;
pub mod recorded_runs;
pub mod run_record;
pub mod share_merge;
#[cfg(target_arch = "wasm32")]
pub mod site;
pub mod ui;
pub mod url_state;
pub mod weights_summary;
// The worker's code only in the workers' builds (feature `worker`; `webgpu` adds burn's WebGPU
// backend): the page never links it.
#[cfg(all(target_arch = "wasm32", feature = "worker"))]
pub mod worker;

/// The entry point of both worker builds: register the reasoner with gloo-worker, which then
/// answers the page's messages.
pub fn worker_main() {
    #[cfg(all(target_arch = "wasm32", feature = "worker"))]
    {
        use gloo_worker::Registrable;
        worker::ReasonerWorker::registrar().register();
    }
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("the worker is a wasm32 binary: run `cargo xtask serve`");
}
