//! Latent autoregression (the JEPA-Reasoner paper, section 3): the model's latent for the last position — its
//! output after the hybrid normalisation, a point on the unit sphere — is appended to its input
//! and the layers run again; no token is chosen on the way. The JEPA-Reasoner reasons this way,
//! and so does the COCONUT baseline's "continuous thought" (section 5.2.2), which shares the
//! Reasoner's architecture here. Optional Gaussian latent noise (section 5.2.3).

use burn::tensor::{Int, Tensor, TensorData};

use super::model::Reasoner;
use crate::gram::noise::NoiseSource;

/// Token ids `[B][L]` (one length) as a tensor on `device`.
pub fn token_tensor(rows: &[Vec<u32>], device: &burn::tensor::Device) -> Tensor<2, Int> {
    let (b, l) = (rows.len(), rows[0].len());
    assert!(rows.iter().all(|r| r.len() == l), "rows of one batch share a length");
    let flat: Vec<i64> = rows.iter().flat_map(|r| r.iter().map(|&t| t as i64)).collect();
    Tensor::from_data(TensorData::new(flat, [b, l]), device)
}

/// `n` latents after the embedded input `x` `[B, L, D]`, each appended to the input before the
/// next. With `noise_frac` > 0, Gaussian noise of sigma = `noise_frac` x max|h| (per latent) is
/// added to each latent before it is looped back and kept; `noise` holds one source per row.
/// Returns (the input with the latents appended `[B, L + n, D]`, the latents `[B, n, D]`).
pub fn latent_loop(model: &Reasoner, x: Tensor<3>, n: usize, noise_frac: f64, noise: &mut [NoiseSource]) -> (Tensor<3>, Tensor<3>) {
    let [b, _, d] = x.dims();
    let device = x.device();
    let mut x = x;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let l = x.dims()[1];
        let mut h = model.latents(x.clone()).slice([0..b, l - 1..l, 0..d]); // [B, 1, D]
        if noise_frac > 0.0 {
            let max_abs = h.clone().abs().max_dim(2); // [B, 1, 1]
            let z: Vec<f32> = noise.iter_mut().flat_map(|s| s.normals(d)).collect();
            let z = Tensor::<3>::from_data(TensorData::new(z, [b, 1, d]), &device);
            h = h + z * max_abs * noise_frac;
        }
        out.push(h.clone());
        x = Tensor::cat(vec![x, h], 1);
    }
    let latents = if out.is_empty() { x.clone().slice([0..b, 0..0, 0..d]) } else { Tensor::cat(out, 1) };
    (x, latents)
}
