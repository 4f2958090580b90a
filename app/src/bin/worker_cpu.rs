//! Entry point of the model's Web Worker without WebGPU (trunk `data-type="worker"`, feature
//! `worker`): burn-flex only, started by pages whose model will run on the CPU.
fn main() {
    app::worker_main();
}
