//! Gaussian noise drawn on the CPU from a seeded generator and uploaded: the same seed gives the
//! same trajectories on every backend (flex, WebGPU) and whatever else runs on the device.

use burn::tensor::{Device, Tensor, TensorData};
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// A seeded standard-normal source.
pub struct NoiseSource {
    rng: StdRng,
}

impl NoiseSource {
    pub fn new(seed: u64) -> Self {
        Self { rng: StdRng::seed_from_u64(seed) }
    }

    /// `n` independent N(0, 1) draws (Box-Muller).
    pub fn normals(&mut self, n: usize) -> Vec<f32> {
        let mut out = Vec::with_capacity(n + 1);
        while out.len() < n {
            let u1: f64 = self.rng.random::<f64>().max(f64::MIN_POSITIVE);
            let u2: f64 = self.rng.random::<f64>();
            let r = (-2.0f64 * u1.ln()).sqrt();
            let a = std::f64::consts::TAU * u2;
            out.push((r * a.cos()) as f32);
            out.push((r * a.sin()) as f32);
        }
        out.truncate(n);
        out
    }

    /// A tensor of N(0, 1) draws.
    pub fn tensor<const D: usize>(&mut self, shape: [usize; D], device: &Device) -> Tensor<D> {
        let n = shape.iter().product();
        Tensor::from_data(TensorData::new(self.normals(n), shape), device)
    }

    /// A uniform draw in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        self.rng.random::<f64>()
    }

    /// A uniform index below `n`.
    pub fn index(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normals_are_seeded_and_standard() {
        let a = NoiseSource::new(7).normals(20_000);
        assert_eq!(a, NoiseSource::new(7).normals(20_000));
        assert_ne!(a, NoiseSource::new(8).normals(20_000));
        let mean = a.iter().map(|&x| x as f64).sum::<f64>() / a.len() as f64;
        let var = a.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / a.len() as f64;
        assert!(mean.abs() < 0.03, "mean {mean}");
        assert!((var - 1.0).abs() < 0.05, "var {var}");
    }
}
