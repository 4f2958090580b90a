//! Entry point of the model's Web Worker without WebGPU (wasm-bindgen's `no-modules` target,
//! feature `worker`): burn-flex only, started by pages whose model will run on the CPU.
fn main() {
    app::worker_main();
}
