//! Gradient accumulation for the GRAM/TRM loop (`train --grad-accum M`, the GRAM paper's batch 768 on
//! a GPU that cannot hold it): one optimiser step's batch runs as M equal micro-batches, each a
//! supervision step with its own backward pass, their gradients summed with weight 1/M. Every
//! term of the supervision loss is a mean over rows (engine::gram::loss), so the summed
//! gradient is the full batch's, up to floating-point order; the noise draws differ (each
//! micro-batch draws its own), which is why M = 1 keeps the unsplit path exactly. The carried
//! state, halting logits and rewards are put back together in row order for the batch's slots.

use burn::module::{Module, ModuleVisitor, Param};
use burn::optim::{GradientsAccumulator, GradientsParams};
use burn::tensor::{Device, Tensor};

pub use super::micro_batch::Accumulated;
use super::micro_batch::{Job, step_gradients};
use crate::gram::noise::NoiseSource;
use crate::gram::{Gram, GramConfig, Latent, SupervisionBatch};

/// Runs a step's micro-batches over several devices (`micro` per device, in `devices` order) and
/// gives their results in micro-batch order: the trainer's `data_parallel::spread`, a thread per
/// device. `None` runs them in turn on the model's device (the page's worker has no threads).
pub type Spread = fn(&Job<'_>, &[Device], usize) -> Vec<Result<Accumulated, f32>>;

/// How a step's batch is cut: `micro` micro-batches per device, over `devices` (the model's
/// own device first; none or one: the model's alone), spread over them by `spread`.
#[derive(Clone, Copy)]
pub struct Cut<'a> {
    pub micro: usize,
    pub devices: &'a [Device],
    pub spread: Option<Spread>,
}

/// The supervision step of `batch` cut as `cut` says (`--grad-accum`, `--devices`): device d runs micro-batches
/// d * micro .. (d + 1) * micro of the batch in its own thread on its own copy of the model, and
/// every gradient is summed on the model's device. Micro-batch m draws its noise from its own
/// source, seeded from `source` in order, so the result does not depend on how the micro-batches
/// are spread over devices. A non-finite loss is returned as `Err(loss)` before any gradient is
/// taken from it. One micro-batch on one device is the plain step, drawing from `source` itself.
pub fn supervise(
    model: &Gram,
    config: &GramConfig,
    batch: SupervisionBatch,
    reward: &(dyn Fn(usize, &[u32]) -> f32 + Sync),
    source: &mut NoiseSource,
    cut: Cut<'_>,
) -> Result<Accumulated, f32> {
    let Cut { micro, devices, spread } = cut;
    let total = micro.max(1) * devices.len().max(1);
    if total == 1 {
        return step_gradients(model, config, batch, reward, source, 1.0);
    }
    let rows = batch.x.dims()[0];
    assert!(rows.is_multiple_of(total), "{total} micro-batches do not divide {rows} rows");
    let seeds: Vec<u64> = (0..total).map(|_| source.index(usize::MAX) as u64).collect();
    let home = model.devices()[0].clone();
    let job = Job { model, config, batch: &batch, reward, seeds: &seeds, size: rows / total, weight: 1.0 / total as f32, home };
    let outs: Vec<Result<Accumulated, f32>> = match (devices, spread) {
        ([_, _, ..], Some(spread)) => spread(&job, devices, micro.max(1)),
        ([_, _, ..], None) => panic!("{} devices and nothing to spread a step over them", devices.len()),
        _ => (0..total).map(|m| job.micro_step(model, m)).collect(),
    };
    let mut accumulator = GradientsAccumulator::<Gram>::new();
    let (mut losses, mut ce, mut kl) = (Vec::with_capacity(total), 0.0f32, 0.0f32);
    let (mut rewards, mut halt_logits) = (Vec::with_capacity(rows), Vec::with_capacity(rows));
    let (mut hs, mut ls) = (Vec::with_capacity(total), Vec::with_capacity(total));
    for out in outs {
        let out = out?;
        accumulator.accumulate(model, out.grads);
        losses.push(out.loss * job.weight);
        ce += job.weight * out.ce;
        kl += job.weight * out.kl;
        rewards.extend(out.rewards);
        halt_logits.extend(out.halt_logits);
        hs.push(out.z.h);
        ls.push(out.z.l);
    }
    let z = Latent { h: Tensor::cat(hs, 0), l: Tensor::cat(ls, 0) };
    let loss = Tensor::cat(losses, 0).sum();
    Ok(Accumulated { grads: accumulator.grads(), loss, ce, kl, rewards, halt_logits, z })
}

/// The largest difference between two gradients of the same parameter of `model`, over every
/// parameter, and how many parameters were compared (to check that two ways of taking one
/// step's gradient agree). Panics when a parameter has a gradient on one side only.
pub fn largest_difference(model: &Gram, a: &GradientsParams, b: &GradientsParams) -> (f32, usize) {
    struct MaxDiff<'a> {
        a: &'a GradientsParams,
        b: &'a GradientsParams,
        max: f32,
        compared: usize,
    }
    impl ModuleVisitor for MaxDiff<'_> {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            match (self.a.get::<D>(param.id), self.b.get::<D>(param.id)) {
                (Some(x), Some(y)) => {
                    self.max = self.max.max((x - y).abs().max().into_scalar());
                    self.compared += 1;
                }
                (None, None) => {}
                _ => panic!("a parameter has a gradient on one side only"),
            }
        }
    }
    let mut diff = MaxDiff { a, b, max: 0.0, compared: 0 };
    model.visit(&mut diff);
    (diff.max, diff.compared)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::nqueens;
    use burn::tensor::{Distribution, Int};

    /// TRM (no noise) on 8 rows: 2 and 4 micro-batches give the unsplit step's gradients, carried
    /// state, halting logits and rewards (row order kept: the reward depends on the row).
    #[test]
    fn micro_batches_sum_to_the_full_batch_gradient() {
        let device = Device::flex().autodiff();
        device.seed(5);
        let config = nqueens::gram_config(8, false).with_d_model(32).with_n_heads(4).with_d_hidden(64);
        let model = Gram::init(&config, &device);
        let (rows, len) = (8, 64);
        let x = Tensor::<2, Int>::random([rows, len], Distribution::Uniform(1.0, 3.0), &device);
        let y = Tensor::<2, Int>::random([rows, len], Distribution::Uniform(1.0, 3.0), &device);
        let reward = |row: usize, _: &[u32]| row.is_multiple_of(3) as u8 as f32;
        let run = |micro| {
            let batch = SupervisionBatch { x: x.clone(), y: y.clone(), z: model.initial_state(rows, len) };
            supervise(&model, &config, batch, &reward, &mut NoiseSource::new(0), Cut { micro, devices: &[], spread: None }).unwrap()
        };
        let full = run(1);
        for micro in [2, 4] {
            let split = run(micro);
            let (max, compared) = largest_difference(&model, &full.grads, &split.grads);
            assert!(compared > 10, "{compared} parameters compared");
            assert!(max < 1e-5, "{micro} micro-batches: gradients differ by {max}");
            let (full_loss, split_loss): (f32, f32) = (full.loss.clone().into_scalar(), split.loss.clone().into_scalar());
            assert!((full_loss - split_loss).abs() < 1e-5 && (full.ce - split.ce).abs() < 1e-5, "{full_loss} vs {split_loss}");
            assert_eq!(full.rewards, split.rewards);
            let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(p, q)| (p - q).abs() < 1e-5);
            assert!(close(&full.halt_logits, &split.halt_logits), "{:?} vs {:?}", full.halt_logits, split.halt_logits);
            let dz: f32 = (full.z.h.clone() - split.z.h).abs().max().into_scalar();
            assert!(dz < 1e-5, "carried h differs by {dz}");
        }
    }
}
