//! Gaussian noise drawn on the CPU from a seeded generator and uploaded: the same seed gives the
//! same trajectories on every backend (flex, WebGPU) and whatever else runs on the device.
//! Training's sources ([`NoiseSource::on_device`]) draw their tensors on the device instead, from
//! a counter (`counter_noise.rs`); their scalar draws still come from the generator here.

use burn::tensor::{Device, Tensor, TensorData};
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// A seeded standard-normal source.
pub struct NoiseSource {
    rng: StdRng,
    /// `Some((seed, draws so far))`: tensors come from the counter-based generator on the device.
    counter: Option<(u64, u64)>,
}

impl NoiseSource {
    pub fn new(seed: u64) -> Self {
        Self { rng: StdRng::seed_from_u64(seed), counter: None }
    }

    /// A source whose tensors are drawn on their device by the counter-based generator
    /// (`counter_noise.rs`): draw d is a pure function of (seed, d), computed where the tensor
    /// lives, nothing uploaded. Its scalar draws ([`Self::uniform`], [`Self::index`]) and host
    /// vectors ([`Self::normals`]) are [`Self::new`]'s.
    pub fn on_device(seed: u64) -> Self {
        Self { counter: Some((seed, 0)), ..Self::new(seed) }
    }

    /// `n` independent N(0, 1) draws (Box-Muller). The uniforms come from the generator in
    /// order; the transform of each pair depends on that pair alone, so natively it runs on
    /// every core of the current rayon pool for large draws, with the same bits as one thread.
    pub fn normals(&mut self, n: usize) -> Vec<f32> {
        let uniforms: Vec<(f64, f64)> = (0..n.div_ceil(2))
            .map(|_| {
                let u1: f64 = self.rng.random::<f64>().max(f64::MIN_POSITIVE);
                let u2: f64 = self.rng.random::<f64>();
                (u1, u2)
            })
            .collect();
        let mut out = vec![0.0f32; 2 * uniforms.len()];
        box_muller(&uniforms, &mut out);
        out.truncate(n);
        out
    }

    pub fn tensor<const D: usize>(&mut self, shape: [usize; D], device: &Device) -> Tensor<D> {
        if let Some((seed, draws)) = self.counter.as_mut() {
            *draws += 1;
            return super::counter_noise::normals(super::counter_noise::draw_key(*seed, *draws - 1), shape, device);
        }
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

/// Pairs of uniforms in (0, 1] x [0, 1) to pairs of standard normals, `out[2i..2i+2]` from
/// `uniforms[i]`.
fn box_muller(uniforms: &[(f64, f64)], out: &mut [f32]) {
    let transform = |pairs: &[(f64, f64)], out: &mut [f32]| {
        for (&(u1, u2), o) in pairs.iter().zip(out.chunks_exact_mut(2)) {
            let r = (-2.0f64 * u1.ln()).sqrt();
            let a = std::f64::consts::TAU * u2;
            o[0] = (r * a.cos()) as f32;
            o[1] = (r * a.sin()) as f32;
        }
    };
    #[cfg(not(target_arch = "wasm32"))]
    if uniforms.len() >= 2 * 4096 {
        use rayon::prelude::*;
        const PAIRS_PER_TASK: usize = 4096;
        uniforms.par_chunks(PAIRS_PER_TASK).zip(out.par_chunks_mut(2 * PAIRS_PER_TASK)).for_each(|(pairs, out)| transform(pairs, out));
        return;
    }
    transform(uniforms, out);
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

    /// The parallel transform (a draw far above one task) gives the bits of the plain
    /// sequential Box-Muller loop, odd lengths included: seeded trajectories do not move.
    #[test]
    fn parallel_draws_match_the_sequential_loop() {
        for n in [1usize, 7, 50_001] {
            let mut rng = StdRng::seed_from_u64(11);
            let mut expected = Vec::new();
            while expected.len() < n {
                let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
                let u2: f64 = rng.random::<f64>();
                let r = (-2.0f64 * u1.ln()).sqrt();
                let a = std::f64::consts::TAU * u2;
                expected.push((r * a.cos()) as f32);
                expected.push((r * a.sin()) as f32);
            }
            expected.truncate(n);
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            assert_eq!(pool.install(|| NoiseSource::new(11).normals(n)), expected, "n = {n}");
        }
    }
}
