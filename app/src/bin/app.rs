//! Entry point of the page (wasm-bindgen's `web` target, loaded by app/index.html).
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
