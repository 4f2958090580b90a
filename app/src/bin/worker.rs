//! Entry point of the model's Web Worker (trunk `data-type="worker"`).
#[cfg(target_arch = "wasm32")]
fn main() {
    use gloo_worker::Registrable;
    app::worker::ReasonerWorker::registrar().register();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the worker is a wasm32 binary: run `cargo xtask serve`");
}
