//! Gaussian noise drawn on the CPU from a seeded generator and uploaded: the same seed gives the
//! same trajectories on every backend (flex, WebGPU), at any `--threads`, and whatever else runs
//! on the device (the e2e tests hold a URL's WebGPU samples against its CPU samples).
//! Training's sources ([`NoiseSource::on_device`]) draw their tensors on the device instead, from
//! a counter (`counter_noise.rs`); their scalar draws still come from the generator here.
//! Sampling's sources ([`NoiseSource::per_sample`]) give each trajectory row its own counter
//! stream: row i's values of draw d depend on (seed, i's sample number, d) alone, so a run's
//! samples can be split among workers (each drawing only its rows) and give the same answers.

use burn::tensor::{Device, Tensor, TensorData};
use rand::{RngExt, SeedableRng, rngs::StdRng};

/// A seeded standard-normal source.
pub struct NoiseSource {
    rng: StdRng,
    /// `Some((seed, draws so far))`: tensors come from the counter-based generator on the device.
    counter: Option<(u64, u64)>,
    /// `Some(..)`: tensors (and uniforms) come row by row from each sample's own counter stream.
    samples: Option<SampleStreams>,
}

/// The per-sample streams of [`NoiseSource::per_sample`].
struct SampleStreams {
    seed: u64,
    /// Sample number of each tensor row (row `r` of every draw is sample `ids[r]`).
    ids: Vec<u64>,
    /// Draws so far (tensors and uniform rows alike).
    draws: u64,
}

/// Keeps per-sample streams apart from a training source of the same seed.
const SAMPLE_SALT: u64 = 0x5a3b_1e00_0000_0001;

/// The key of draw `d` of sample `id` in a run seeded with `seed`: a counter-based draw key
/// (`counter_noise::draw_key`) whose seed is itself the sample's key.
pub fn sample_key(seed: u64, id: u64, d: u64) -> u64 {
    use super::counter_noise::draw_key;
    draw_key(draw_key(seed ^ SAMPLE_SALT, id), d)
}

impl NoiseSource {
    pub fn new(seed: u64) -> Self {
        Self { rng: StdRng::seed_from_u64(seed), counter: None, samples: None }
    }

    /// A sampling source with a stream per sample: every tensor drawn has one row per entry of
    /// `ids` (its first dimension), and row `r`'s values of the source's d-th draw are the
    /// counter-based normals of [`sample_key`]`(seed, ids[r], d)`, whatever the other rows are.
    /// So sample i's noise is the same whether a run draws all N rows or a worker draws only
    /// its share of them. Its uniforms come row by row the same way ([`Self::row_uniforms`]).
    pub fn per_sample(seed: u64, ids: Vec<u64>) -> Self {
        Self { samples: Some(SampleStreams { seed, ids, draws: 0 }), ..Self::new(seed) }
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
        if let Some(streams) = self.samples.as_mut() {
            assert_eq!(shape[0], streams.ids.len(), "a per-sample draw has one row per sample");
            let per_row: usize = shape[1..].iter().product();
            let d = streams.draws;
            streams.draws += 1;
            let values: Vec<f32> =
                streams.ids.iter().flat_map(|&id| super::counter_noise::normals_host(sample_key(streams.seed, id, d), per_row)).collect();
            return Tensor::from_data(TensorData::new(values, shape), device);
        }
        if let Some((seed, draws)) = self.counter.as_mut() {
            *draws += 1;
            return super::counter_noise::normals(super::counter_noise::draw_key(*seed, *draws - 1), shape, device);
        }
        let n = shape.iter().product();
        Tensor::from_data(TensorData::new(self.normals(n), shape), device)
    }

    /// `per_row` uniforms in [0, 1) for each of `rows` rows, row-major. A per-sample source
    /// draws row `r`'s from sample `ids[r]`'s stream (24-bit uniforms of the counter words); any
    /// other source takes `rows * per_row` of [`Self::uniform`] in order.
    pub fn row_uniforms(&mut self, rows: usize, per_row: usize) -> Vec<f64> {
        let Some(streams) = self.samples.as_mut() else {
            return (0..rows * per_row).map(|_| self.rng.random::<f64>()).collect();
        };
        assert_eq!(rows, streams.ids.len(), "a per-sample draw has one row per sample");
        let d = streams.draws;
        streams.draws += 1;
        let words = |id: u64| {
            let key = sample_key(streams.seed, id, d);
            (0..per_row as u32).map(move |i| (super::counter_noise::word(key, i) >> 8) as f64 / (1u32 << 24) as f64)
        };
        streams.ids.iter().flat_map(|&id| words(id)).collect()
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
    use crate::transfer::ReadBack;

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

    /// A per-sample source: each row's values depend on its sample number alone, so the rows of
    /// a split run are the rows of the whole one; every draw is new; uniforms likewise.
    #[test]
    fn per_sample_rows_do_not_depend_on_the_other_rows() {
        let device = Device::flex();
        let draw = |ids: Vec<u64>| {
            let mut s = NoiseSource::per_sample(5, ids.clone());
            let a: Tensor<3> = s.tensor([ids.len(), 3, 4], &device);
            let b: Tensor<3> = s.tensor([ids.len(), 3, 4], &device);
            let u = s.row_uniforms(ids.len(), 6);
            (a.floats().unwrap(), b.floats().unwrap(), u)
        };
        let (all_a, all_b, all_u) = draw((0..5).collect());
        let (part_a, part_b, part_u) = draw(vec![3, 4]);
        assert_eq!(part_a, all_a[3 * 12..]);
        assert_eq!(part_b, all_b[3 * 12..]);
        assert_eq!(part_u, all_u[3 * 6..]);
        assert_ne!(all_a[..12], all_a[12..24], "samples differ");
        assert_ne!(all_a, all_b, "draws differ");
        assert!(all_u.iter().all(|&u| (0.0..1.0).contains(&u)));
        assert_ne!(draw((0..5).collect()).0, {
            let mut s = NoiseSource::per_sample(6, (0..5).collect());
            s.tensor::<3>([5, 3, 4], &device).floats().unwrap()
        });
        // Standard normals over many values.
        let v = NoiseSource::per_sample(1, (0..40).collect()).tensor::<2>([40, 1000], &device).floats().unwrap();
        let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / v.len() as f64;
        assert!(mean.abs() < 0.03 && (var - 1.0).abs() < 0.05, "mean {mean} var {var}");
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
