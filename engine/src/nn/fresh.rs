//! A fresh model drawn from its seed on the CPU and then moved to the run's device. burn draws a
//! parameter's initial values with the generator of the device it lives on, so drawn on a GPU
//! the same seed gave another model on every backend (step-1 loss 2.069 on the CPU, 1.369 on
//! lavapipe, same seed); drawn here, one seed is one model everywhere (a test in the trainer's
//! `tests/page_training.rs` holds it: in a binary of its own, since every test drawing a model
//! beside it would take from the same generator).

use burn::module::Module;
use burn::tensor::Device;

/// `init`'s model with every parameter drawn on the CPU from `seed`, on `device`.
pub fn fresh<M: Module>(seed: u64, device: &Device, init: impl Fn(&Device) -> M) -> M {
    let cpu = Device::flex();
    cpu.seed(seed);
    // Taking the record draws every lazily initialised parameter, in the module's order.
    let drawn = init(&cpu).into_record();
    init(device).load_record(drawn)
}
