//! Data parallelism over the devices of one machine (`train --devices N`): each optimiser step's
//! batch is cut into N x M micro-batches (M = `--grad-accum`), device d runs its M in a thread of
//! its own on a copy of the model forked to it, and the gradients are summed on the first device,
//! which alone holds the optimiser and takes the step; the next step forks the updated weights
//! again. This is the all-reduce of data-parallel training done as a gather to one device: simple
//! and exact (the gradient is the full batch's, as with `--grad-accum`, which a test checks), at
//! the cost of copying the weights out and the gradients back each step (6.3M parameters, ~25 MB
//! each way, next to a full-size step's seconds of compute).
//!
//! burn 0.22's own machinery, gradients marked distributed and all-reduced during the backward
//! pass (`burn::tensor::distributed`), reaches a collective only through NCCL on CUDA: burn-flex
//! leaves `all_reduce` unimplemented (a test below holds that) and cubecl's wgpu server has no
//! device transport. So `--devices` keeps this gather on every backend; docs/training.md says
//! what burn offers and what it does not.

use burn::module::Module;
use burn::tensor::Device;

use engine::training::micro_batch::{Accumulated, Job};

/// Runs `job`'s micro-batches, `micro` per device in `devices` order, each device in its own
/// thread; the results come back in micro-batch order.
pub fn spread(job: &Job<'_>, devices: &[Device], micro: usize) -> Vec<Result<Accumulated, f32>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = devices
            .iter()
            .enumerate()
            .map(|(d, device)| {
                scope.spawn(move || {
                    let replica = if d == 0 { job.model.clone() } else { job.model.clone().fork(device) };
                    (d * micro..(d + 1) * micro).map(|m| job.micro_step(&replica, m)).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("a device's thread panicked")).collect()
    })
}

/// How a step's `rows` are cut over `devices` x `micro` micro-batches, for the run's first line
/// ("", " (M micro-batches of R)", " over D devices (...)"), or why they cannot be.
pub(crate) fn describe_cut(micro: usize, devices: usize, rows: usize) -> Result<String, String> {
    if !rows.is_multiple_of(micro * devices) {
        return Err(format!("{devices} devices x {micro} micro-batches do not divide the batch {rows}"));
    }
    Ok(match (micro, devices) {
        (1, 1) => String::new(),
        (m, 1) => format!(" ({m} micro-batches of {})", rows / m),
        (m, d) => format!(" over {d} devices ({m} micro-batch{} of {} each)", if m > 1 { "es" } else { "" }, rows / (m * d)),
    })
}

#[cfg(test)]
mod tests {
    use burn::tensor::distributed::{ReduceOperation, all_reduce};
    use burn::tensor::{Device, Distribution, Int, Tensor};
    use engine::gram::noise::NoiseSource;
    use engine::gram::{Gram, SupervisionBatch};
    use engine::tasks::nqueens;
    use engine::training::accumulate::{Cut, largest_difference, supervise};

    /// Why `--devices` keeps its own gather: burn 0.22's all-reduce (`burn::tensor::distributed`,
    /// which its distributed backward uses) reaches a collective only through NCCL on CUDA.
    /// burn-flex leaves `DistributedOps` at its defaults, whose `all_reduce` is
    /// `unimplemented!()`, so on the CPU the call panics (and cubecl's wgpu server answers
    /// `NoDeviceTransport`). When this test fails, burn has gained a CPU all-reduce: move
    /// `spread` onto it (docs/training.md).
    #[test]
    fn burn_has_no_all_reduce_on_the_cpu() {
        let device = Device::flex();
        let t = Tensor::<1>::ones([4], &device);
        let reduced = std::panic::catch_unwind(|| all_reduce(t, ReduceOperation::Sum, vec![device.clone(), device.clone()]).resolve());
        assert!(reduced.is_err(), "burn-flex now all-reduces: data_parallel.rs can use burn's distributed backward");
    }

    /// GRAM (noise drawn per micro-batch): 2 micro-batches on one device and one micro-batch on
    /// each of 2 devices (threads, a forked copy of the model) give the same gradients, loss and
    /// carried state: the data-parallel path is the accumulation path spread out.
    #[test]
    fn two_devices_give_the_accumulated_gradient() {
        let device = Device::flex().autodiff();
        device.seed(6);
        let config = nqueens::gram_config(8, true).with_d_model(32).with_n_heads(4).with_d_hidden(64).with_d_guidance(32);
        let model = Gram::init(&config, &device);
        let (rows, len) = (8, 64);
        let x = Tensor::<2, Int>::random([rows, len], Distribution::Uniform(1.0, 3.0), &device);
        let y = Tensor::<2, Int>::random([rows, len], Distribution::Uniform(1.0, 3.0), &device);
        let reward = |row: usize, _: &[u32]| row.is_multiple_of(3) as u8 as f32;
        let run = |micro, devices: &[Device]| {
            let batch = SupervisionBatch { x: x.clone(), y: y.clone(), z: model.initial_state(rows, len) };
            supervise(&model, &config, batch, &reward, &mut NoiseSource::new(4), Cut { micro, devices, spread: Some(super::spread) })
                .unwrap()
        };
        let one = run(2, &[]);
        for (micro, devices) in [(1, 2), (2, 2)] {
            let spread = run(micro, &vec![device.clone(); devices]);
            let (max, compared) = largest_difference(&model, &one.grads, &spread.grads);
            if micro == 1 {
                assert!(compared > 10 && max < 1e-5, "2 devices: gradients differ by {max}");
                let (a, b): (f32, f32) = (one.loss.clone().into_scalar(), spread.loss.clone().into_scalar());
                assert!((a - b).abs() < 1e-5 && (one.kl - spread.kl).abs() < 1e-5, "{a} vs {b}");
                let dz: f32 = (one.z.h.clone() - spread.z.h.clone()).abs().max().into_scalar();
                assert!(dz < 1e-5, "carried h differs by {dz}");
            } else {
                // 4 micro-batches in all: other noise, the same rows and rewards.
                assert_eq!(spread.rewards.len(), rows);
                assert!(spread.loss.clone().into_scalar::<f32>().is_finite() && compared > 10);
            }
        }
    }
}
