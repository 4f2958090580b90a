//! PTRM, the Probabilistic Tiny Recursive Model (Sghaier, Parviz, Jolicoeur-Martineau 2026,
//! arXiv 2605.19943): test-time noise for a trained deterministic TRM, no retraining.
//!
//! ```text
//! for k in 1..=K in parallel:                (K trajectories per puzzle: SampleOptions::samples)
//!     z_0 = fixed init
//!     for t in 1..=D:                         (D supervision steps: SampleOptions::max_steps)
//!         z_{t-1} <- z_{t-1} + eps,  eps ~ N(0, sigma^2 I)     <- this module
//!         (z_t, y_t) = one supervision step (T high-level cycles of n latent updates + 1 answer update)
//!     y_hat_k = argmax f_O(y_D),  q_k = f_Q(y_D)
//! answer = y_hat_{k*},  k* = argmax_k q_k    (Selection::Q: the Q (halting) head at the last step)
//! ```
//! The noise goes into the reasoning latent z (TRM's z_L; our `l`), once per supervision ("deep
//! recursion") step, before it, the first step included; the answer latent y (TRM's z_H; our
//! `h`), which the output and Q heads read, gets none. sigma is absolute, as the paper's N(0,
//! sigma^2 I): TRM's latents are RMS-normalised (post-norm), so sigma is a fraction of the
//! latent's RMS; ours are post-norm too (RMSNorm with a learned gain, `nn::mixer`), and the
//! docs/results/ptrm.md gives the RMS of `l` measured on the shipped models.
//!
//! Where we differ (docs/results/ptrm.md): the noise comes from the run's seeded [`NoiseSource`] (the
//! stream GRAM's guidance also reads), so a run is reproducible on every backend; a GRAM model
//! takes it too (both noises then apply); the paper's own text was not reachable from here: the
//! recipe above is from two secondary write-ups and a reimplementation that agree on it (a
//! second reimplementation perturbs TRM's z_H instead).

use burn::tensor::Tensor;

use super::core::Latent;
use super::noise::NoiseSource;

/// `z` with N(0, sigma^2 I) added to its reasoning latent `l`, one draw per trajectory,
/// position and channel from `source`. `sigma = 0` returns `z` untouched and draws nothing, so a
/// run without PTRM noise reads the noise stream exactly as before.
pub fn perturb(z: Latent, sigma: f64, source: &mut NoiseSource) -> Latent {
    if sigma == 0.0 {
        return z;
    }
    let device = z.l.device();
    let eps: Tensor<3> = source.tensor(z.l.dims(), &device); // [B, L, D]
    Latent { h: z.h, l: z.l + eps * sigma }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::ReadBack;
    use burn::tensor::{Device, TensorData};

    fn latent(device: &Device) -> Latent {
        let t = |v: f32| Tensor::<3>::from_data(TensorData::new(vec![v; 2 * 3 * 4], [2, 3, 4]), device);
        Latent { h: t(1.0), l: t(-1.0) }
    }

    fn values(t: Tensor<3>) -> Vec<f32> {
        t.floats().unwrap()
    }

    #[test]
    fn zero_sigma_draws_nothing_and_changes_nothing() {
        let device = Device::flex();
        let mut source = NoiseSource::new(3);
        let z = perturb(latent(&device), 0.0, &mut source);
        assert_eq!(values(z.h), vec![1.0; 24]);
        assert_eq!(values(z.l), vec![-1.0; 24]);
        assert_eq!(source.normals(5), NoiseSource::new(3).normals(5), "the stream is untouched");
    }

    /// Only `l` moves, by sigma times the source's next normals, in order.
    #[test]
    fn noise_is_sigma_times_the_next_normals_on_l_only() {
        let device = Device::flex();
        let mut source = NoiseSource::new(9);
        let z = perturb(latent(&device), 0.5, &mut source);
        assert_eq!(values(z.h), vec![1.0; 24]);
        let expected: Vec<f32> = NoiseSource::new(9).normals(24).iter().map(|e| -1.0 + 0.5 * e).collect();
        for (a, b) in values(z.l).iter().zip(&expected) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
    }
}
