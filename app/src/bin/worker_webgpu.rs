//! Entry point of the model's Web Worker with WebGPU (wasm-bindgen's `no-modules` target,
//! feature `webgpu`): started by pages whose model will run on a hardware WebGPU adapter (or when the
//! URL forces `backend=webgpu`).
fn main() {
    app::worker_main();
}
