//! The browser playground. The page (`bin/app.rs`, Leptos on the main thread) renders and sends
//! [`protocol::Request`]s; the worker (`bin/worker.rs`) runs the engine on WebGPU or the CPU and
//! answers with [`protocol::Response`]s. No maths here: boards, solvers and metrics are the engine's.
//!
//! `protocol` and `url_state` are plain Rust and tested natively (`cargo test -p app --lib`); the
//! browser-only modules build for wasm32 only.

pub mod protocol;
pub mod url_state;
#[cfg(target_arch = "wasm32")]
pub mod ui;
// The worker's code only in the worker's build (feature `worker`): the page never links it.
#[cfg(all(target_arch = "wasm32", feature = "worker"))]
pub mod worker;
