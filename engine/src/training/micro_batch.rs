//! One micro-batch of an optimiser step's batch (`accumulate.rs` runs them in turn,
//! the trainer's `data_parallel.rs` over devices): rows m * size .. (m + 1) * size, a supervision step on the
//! model or its copy on another device, the loss scaled by 1 / (number of micro-batches) before
//! the backward pass, and everything brought back to the model's device.

use crate::gram::loss::supervision_step;
use crate::gram::noise::NoiseSource;
use crate::gram::{Gram, GramConfig, Latent, SupervisionBatch};
use burn::module::Module;
use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor};

/// The gradients of a supervision step (one micro-batch's, or a whole optimiser step's once
/// `accumulate.rs` has summed them) and what the loop logs and carries.
pub struct Accumulated {
    pub grads: GradientsParams,
    /// The loss, detached and left on the device (read only when a row is logged); CE and KL
    /// on the host (for a whole step: means over the micro-batches).
    pub loss: Tensor<1>,
    pub ce: f32,
    pub kl: f32,
    pub rewards: Vec<f32>,
    pub halt_logits: Vec<f32>,
    /// The carried state of every row, detached.
    pub z: Latent,
}

/// One supervision step on `model` and its gradients, the loss scaled by `weight` before the
/// backward pass. A non-finite CE, KL or halting logit (what the step's one read brings back:
/// the loss is finite when they are) is returned as `Err(value)` before any gradient is taken.
pub fn step_gradients(
    model: &Gram,
    config: &GramConfig,
    batch: SupervisionBatch,
    reward: &dyn Fn(usize, &[u32]) -> f32,
    source: &mut NoiseSource,
    weight: f32,
) -> Result<Accumulated, f32> {
    let out = supervision_step(model, config, batch, reward, source);
    if let Some(bad) = [out.ce, out.kl].iter().chain(&out.halt_logits).find(|v| !v.is_finite()) {
        return Err(*bad);
    }
    let grads = GradientsParams::from_grads((out.loss.clone() * weight).backward(), model);
    let loss = out.loss.detach();
    Ok(Accumulated { grads, loss, ce: out.ce, kl: out.kl, rewards: out.rewards, halt_logits: out.halt_logits, z: out.z })
}

/// One optimiser step's batch, cut into micro-batches of `size` rows.
pub struct Job<'a> {
    pub model: &'a Gram,
    pub config: &'a GramConfig,
    pub batch: &'a SupervisionBatch,
    pub reward: &'a (dyn Fn(usize, &[u32]) -> f32 + Sync),
    /// Micro-batch m's noise seed.
    pub seeds: &'a [u64],
    /// Rows per micro-batch.
    pub size: usize,
    /// 1 / the number of micro-batches.
    pub weight: f32,
    /// The model's device, where every result is gathered.
    pub home: Device,
}

impl Job<'_> {
    /// Micro-batch `m` on `replica` (the model, or its copy on another device); gradients,
    /// carried state and all come back on the model's device.
    pub fn micro_step(&self, replica: &Gram, m: usize) -> Result<Accumulated, f32> {
        let (start, size) = (m * self.size, self.size);
        let device = replica.devices()[0].clone();
        let cut = |t: Tensor<3>| t.narrow(0, start, size).to_device(&device);
        let part = SupervisionBatch {
            x: self.batch.x.clone().narrow(0, start, size).to_device(&device),
            y: self.batch.y.clone().narrow(0, start, size).to_device(&device),
            z: Latent { h: cut(self.batch.z.h.clone()), l: cut(self.batch.z.l.clone()) },
        };
        let shifted = |row: usize, pred: &[u32]| (self.reward)(start + row, pred);
        let out = step_gradients(replica, self.config, part, &shifted, &mut NoiseSource::on_device(self.seeds[m]), self.weight)?;
        let home = &self.home;
        let z = Latent { h: out.z.h.to_device(home), l: out.z.l.to_device(home) };
        let loss = out.loss.to_device(home);
        Ok(Accumulated { grads: out.grads.to_device(home, replica), z, loss, ..out })
    }
}
