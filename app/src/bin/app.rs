//! Entry point of the page (wasm-bindgen's `web` target, loaded by app/index.html).
//!
//! The page never links the model: it names the worker only through the type that carries the
//! messages (`ui/model_worker/mod.rs`), and the engine's model code sits behind the app's
//! `worker` feature, which the build turns on for the two worker binaries only
//! (`xtask/src/web.rs`).
#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    app::base_path::tidy_address();
    leptos::mount::mount_to_body(app::site::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the page is a wasm32 binary: run `cargo xtask serve`");
}
