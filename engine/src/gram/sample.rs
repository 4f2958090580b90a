//! Inference (the GRAM paper, appendix B.1): N trajectories per puzzle sampled in one batch from the
//! learned prior, observed after every supervision step, then one answer selected by majority vote
//! or by the LPRM value head. The browser animates [`Observation`]s; `eval` and `solve` use the same
//! path without looking at the intermediate ones.
//!
//! A step packs everything an observation needs (logits, LPRM value, halting probability and
//! logit, the latent sketch when asked for) into one tensor, so a GPU pays one read-back per
//! step; argmax and softmax then run on the CPU, since sampling on the GPU (top-k) has panicked
//! in burn's WebGPU backend. A browser cannot block on the GPU, so its worker steps with
//! [`Trajectories::step_async`] (burn's asynchronous read-back); [`Trajectories::step`] is the
//! same code with a blocking read, for native use.

use burn::tensor::activation::sigmoid;
use burn::tensor::{Device, Int, Tensor, TensorData};

use super::core::{Gram, Latent, Noise};
use super::noise::NoiseSource;
use super::ptrm;
use crate::transfer::{ReadBack, ReadBackError};

/// How an answer is read from a step's logits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Decoding {
    /// The most likely token per position (GRAM and TRM as the paper runs them).
    #[default]
    Greedy,
    /// A token drawn from each position's softmax with the run's seeded noise source: the GRAM paper's
    /// "TRM w/ stochastic decoding" (Table 10). It changes the answers read, not the latents.
    Sample,
}

/// How to sample.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleOptions {
    /// Trajectories per puzzle (N).
    pub samples: usize,
    /// Scale of the prior's noise: 0 = mean path only, 1 = the learned prior, > 1 amplified.
    pub guidance_scale: f64,
    /// Supervision-step budget (each step is T latent transitions).
    pub max_steps: usize,
    /// Freeze a trajectory once its Q-head says halt (sigmoid > 0.5). Off by default: the
    /// Q-head learns from posterior-guided training trajectories and is over-confident under the
    /// prior (measured at step 3000 of gram-nqueens8: 0% accuracy with halting vs 6% without).
    pub halting: bool,
    /// Seed of the noise.
    pub seed: u64,
    /// Fraction of the step budget, at its end, run on the mean path (guidance scale 0):
    /// `floor(max_steps * settle)` steps. Deviation from appendix B.1, which samples every
    /// transition from the prior: the noisy steps choose a completion, the noise-free ones let
    /// the recursion clean it up instead of perturbing it again (measured in docs/results/nqueens.md).
    pub settle: f64,
    /// Greedy answers, or drawn from the softmax (an ablation).
    pub decoding: Decoding,
    /// PTRM's sigma (arXiv 2605.19943, [`super::ptrm`]): N(0, sigma^2 I) added to the reasoning
    /// latent `l` before every supervision step, from this run's seeded noise source. 0 (the
    /// default) draws nothing: every run without it is bit for bit what it was.
    pub latent_noise: f64,
    /// The run's row number of this batch's first row (0 unless a worker runs a share of a
    /// run's samples): row r draws the noise of sample `first_row + r`
    /// ([`NoiseSource::per_sample`]), so a share's rows are the whole run's rows.
    pub first_row: usize,
}

impl SampleOptions {
    /// Supervision steps at the end of the budget that run without noise.
    pub fn settle_steps(&self) -> usize {
        ((self.max_steps as f64 * self.settle).floor() as usize).min(self.max_steps)
    }
}

impl Default for SampleOptions {
    fn default() -> Self {
        Self {
            samples: 20,
            guidance_scale: 1.0,
            max_steps: 8,
            halting: false,
            seed: 0,
            settle: 0.0,
            decoding: Decoding::Greedy,
            latent_noise: 0.0,
            first_row: 0,
        }
    }
}

/// The state of every trajectory after a supervision step. Rows are puzzle-major:
/// row `p * N + n` is sample `n` of puzzle `p`.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// 1-based supervision step.
    pub step: usize,
    /// Greedy prediction per row, `[rows][L]`.
    pub predictions: Vec<Vec<u32>>,
    /// Token probabilities per row, row-major `[rows][L][V]`.
    pub probabilities: Vec<f32>,
    /// LPRM value per row (predicted chance the answer is right).
    pub values: Vec<f32>,
    /// Halting probability per row.
    pub halt_probs: Vec<f32>,
    /// Halting logit per row (the Q-head's output; `halt_probs` is its sigmoid, which saturates
    /// to 1.0 in f32 where the logits still differ).
    pub halt_logits: Vec<f32>,
    /// Whether each row has halted (its answer is frozen).
    pub halted: Vec<bool>,
    /// Vocabulary size V, to index `probabilities`.
    pub vocab: usize,
    /// Per row, a sketch of the high-level state h (see [`Trajectories::with_latent_sketch`]);
    /// empty rows without one.
    pub latents: Vec<Vec<f32>>,
}

impl Observation {
    /// The observation of a resampling: row `i` is row `rows[i]` of this one.
    pub fn rows(&self, rows: &[usize]) -> Observation {
        let per = |v: &[f32], w: usize| rows.iter().flat_map(|&r| v[r * w..(r + 1) * w].iter().copied()).collect::<Vec<_>>();
        let l = self.predictions.first().map_or(0, Vec::len);
        Observation {
            step: self.step,
            predictions: rows.iter().map(|&r| self.predictions[r].clone()).collect(),
            probabilities: per(&self.probabilities, l * self.vocab),
            values: per(&self.values, 1),
            halt_probs: per(&self.halt_probs, 1),
            halt_logits: per(&self.halt_logits, 1),
            halted: rows.iter().map(|&r| self.halted[r]).collect(),
            vocab: self.vocab,
            latents: rows.iter().map(|&r| self.latents.get(r).cloned().unwrap_or_default()).collect(),
        }
    }

    /// Probability of `token` at position `pos` of `row`.
    pub fn probability(&self, row: usize, pos: usize, token: usize) -> f32 {
        let l = self.predictions[row].len();
        self.probabilities[(row * l + pos) * self.vocab + token]
    }
}

/// N trajectories for each of P puzzles, advanced one supervision step at a time.
pub struct Trajectories<'m> {
    model: &'m Gram,
    options: SampleOptions,
    e_x: Tensor<3>,
    /// Input (and answer) tokens per trajectory; the latents may be shorter (image patches).
    seq_len: usize,
    z: Latent,
    source: NoiseSource,
    /// Vocabulary size V, known from the first decode.
    vocab: usize,
    last: Option<Observation>,
    /// A fixed random projection `[L' * D, k]` of the flattened h (the latent map's input).
    sketch: Option<Tensor<2>>,
}

impl<'m> Trajectories<'m> {
    /// Starts N trajectories per puzzle from z0. `model` should be on a device without autodiff.
    pub fn new(model: &'m Gram, puzzles: &[Vec<u32>], options: SampleOptions, device: &Device) -> Self {
        assert!(!puzzles.is_empty() && options.samples > 0, "need a puzzle and a sample");
        let l = puzzles[0].len();
        let rows: Vec<i64> =
            puzzles.iter().flat_map(|p| std::iter::repeat_n(p, options.samples)).flat_map(|p| p.iter().map(|&t| t as i64)).collect();
        let b = puzzles.len() * options.samples;
        let x = Tensor::<2, Int>::from_data(TensorData::new(rows, [b, l]), device); // [B, L]
        let e_x = model.encode(x);
        // Each row its own stream (puzzle-major rows: p * N + n), so a run split among workers
        // by rows draws what the whole run draws.
        let first = options.first_row as u64;
        let mut source = NoiseSource::per_sample(options.seed, (first..first + b as u64).collect());
        let z = model.start_state(b, l, &mut source);
        Self { model, options, e_x, seq_len: model.output_len(l), z, source, vocab: 0, last: None, sketch: None }
    }

    /// Also reads, every step, each trajectory's h flattened and projected on `dims` fixed random
    /// Gaussian directions (seeded by `seed`, scaled by 1/sqrt(L' D) so a sketch has the RMS of
    /// h): distances between trajectories are kept to within a few percent (Johnson-Lindenstrauss)
    /// at a small fraction of h's size, so the page can fit its PCA on the sketches (the GRAM paper,
    /// appendix F.7, projects h itself). The answers and the noise stream are unchanged.
    pub fn with_latent_sketch(mut self, dims: usize, seed: u64) -> Self {
        let [_, l, d] = self.z.h.dims();
        let device = self.z.h.device();
        let r: Tensor<2> = NoiseSource::new(seed).tensor([l * d, dims], &device);
        self.sketch = Some(r / ((l * d) as f64).sqrt());
        self
    }

    /// Supervision steps taken so far.
    pub fn steps(&self) -> usize {
        self.last.as_ref().map_or(0, |o| o.step)
    }

    /// The guidance scale from the next supervision step on (the browser's slider acting on a
    /// running trajectory). The settle steps at the budget's end still run on the mean path.
    pub fn set_guidance_scale(&mut self, scale: f64) {
        self.options.guidance_scale = scale;
    }

    /// A burst of latent noise on one trajectory (the browser's "perturb"): h += sigma * xi on
    /// `row`, xi ~ N(0, I) from its own source seeded by `seed`, so the run's noise stream (and
    /// every other row) is unchanged. h is RMS-normalised (RMS 1), so sigma is relative to it.
    pub fn perturb(&mut self, row: usize, sigma: f64, seed: u64) {
        let [b, l, d] = self.z.h.dims();
        assert!(row < b, "row {row} of {b}");
        let device = self.z.h.device();
        let xi: Tensor<3> = NoiseSource::new(seed).tensor([1, l, d], &device);
        let mut mask = vec![0.0f32; b];
        mask[row] = 1.0;
        let mask = Tensor::<3>::from_data(TensorData::new(mask, [b, 1, 1]), &device);
        self.z.h = self.z.h.clone() + xi.expand([b, l, d]) * mask * sigma;
    }

    /// Replaces the trajectories by a resampling of them: new row `i` continues old row
    /// `rows[i]` (its state, its input, its last observation), so a row may be cloned or dropped.
    /// The noise stream goes on unchanged, so clones diverge from the next transition on.
    pub fn resample(&mut self, rows: &[usize]) {
        let b = self.e_x.dims()[0];
        assert!(rows.len() == b && rows.iter().all(|&r| r < b), "a resampling keeps the {b} rows");
        let device = self.e_x.device();
        let index = Tensor::<1, Int>::from_data(TensorData::new(rows.iter().map(|&r| r as i64).collect(), [b]), &device);
        self.e_x = self.e_x.clone().select(0, index.clone());
        self.z = Latent { h: self.z.h.clone().select(0, index.clone()), l: self.z.l.clone().select(0, index) };
        if let Some(last) = &mut self.last {
            *last = last.rows(rows);
        }
    }

    /// Whether the budget is spent or every trajectory has halted.
    pub fn is_done(&self) -> bool {
        self.steps() >= self.options.max_steps || self.last.as_ref().is_some_and(|o| o.halted.iter().all(|&h| h))
    }

    /// Runs one supervision step (T transitions) and reads the trajectories back.
    /// Native only: a browser's WebGPU device must use [`Trajectories::step_async`].
    pub fn step(&mut self) -> &Observation {
        let packed = self.advance();
        let data = packed.floats().expect("float");
        self.observe(data)
    }

    /// [`Trajectories::step`] with an asynchronous read-back, for WebGPU in a browser (where a
    /// synchronous read cannot wait for the GPU). Same numbers as `step` on the same device.
    pub async fn step_async(&mut self) -> Result<&Observation, ReadBackError> {
        let packed = self.advance();
        let data = packed.into_data_async().await.map_err(|e| ReadBackError::Device(format!("{e:?}")))?;
        let data = data.try_into_vec_as::<f32>().map_err(|e| ReadBackError::Data(format!("{e:?}")))?;
        Ok(self.observe(data))
    }

    /// PTRM's noise on `l` (none at sigma 0), T transitions, then everything an observation
    /// needs packed into one `[B, L*V + 3 (+ k)]` tensor (logits, LPRM value, halting probability
    /// and logit, and the h sketch when asked for), so a GPU pays for a single read-back per step.
    fn advance(&mut self) -> Tensor<2> {
        self.z = ptrm::perturb(self.z.clone(), self.options.latent_noise, &mut self.source);
        let settling = self.steps() + self.options.settle_steps() >= self.options.max_steps;
        let scale = if settling { 0.0 } else { self.options.guidance_scale };
        for _ in 0..self.model.t_outer() {
            let noise = Noise::Prior { scale, source: &mut self.source };
            let z = self.z.clone();
            self.z = self.model.transition(z, &self.e_x, noise).z;
        }
        let h = self.z.h.clone();
        let logits = self.model.decode(h.clone()); // [B, L, V]
        let [b, l, v] = logits.dims();
        self.vocab = v;
        let value = self.model.value(h.clone()).reshape([b, 1]);
        let logit = self.model.halt_logit(h.clone()).reshape([b, 1]);
        let halt = sigmoid(logit.clone());
        let mut parts = vec![logits.reshape([b, l * v]), value, halt, logit];
        if let Some(r) = &self.sketch {
            let [_, lh, d] = h.dims();
            parts.push(h.reshape([b, lh * d]).matmul(r.clone())); // [B, k]
        }
        Tensor::cat(parts, 1)
    }

    /// Unpacks [`Trajectories::advance`]'s read-back: greedy tokens (first maximum) and a softmax
    /// per cell on the CPU, then halting bookkeeping.
    fn observe(&mut self, data: Vec<f32>) -> &Observation {
        let (b, l) = (self.e_x.dims()[0], self.seq_len);
        let v = self.vocab;
        let k = self.sketch.as_ref().map_or(0, |r| r.dims()[1]);
        let width = l * v + 3 + k;
        let mut predictions = Vec::with_capacity(b);
        let mut probabilities = Vec::with_capacity(b * l * v);
        let mut values = Vec::with_capacity(b);
        let mut halt_probs = Vec::with_capacity(b);
        let mut latents = Vec::with_capacity(b);
        let mut halt_logits = Vec::with_capacity(b);
        let uniforms = match self.options.decoding {
            Decoding::Sample => self.source.row_uniforms(b, l),
            Decoding::Greedy => Vec::new(),
        };
        for (r, row) in data.chunks_exact(width).enumerate() {
            latents.push(row[l * v + 3..].to_vec());
            let mut tokens = Vec::with_capacity(l);
            for (c, cell) in row[..l * v].chunks_exact(v).enumerate() {
                let (arg, max) =
                    cell.iter().enumerate().fold((0, f32::NEG_INFINITY), |(a, m), (i, &x)| if x > m { (i, x) } else { (a, m) });
                let exps: Vec<f32> = cell.iter().map(|&x| (x - max).exp()).collect();
                let sum: f32 = exps.iter().sum();
                let token = match self.options.decoding {
                    Decoding::Greedy => arg,
                    Decoding::Sample => draw(&exps, sum, uniforms[r * l + c]),
                };
                tokens.push(token as u32);
                probabilities.extend(exps.iter().map(|e| e / sum));
            }
            predictions.push(tokens);
            values.push(row[l * v]);
            halt_probs.push(row[l * v + 1]);
            halt_logits.push(row[l * v + 2]);
        }
        let mut obs = Observation {
            step: self.steps() + 1,
            predictions,
            probabilities,
            values,
            halt_probs,
            halt_logits,
            halted: vec![false; b],
            vocab: v,
            latents,
        };
        if let Some(prev) = &self.last {
            // Halted trajectories keep the answer they halted with.
            for row in (0..b).filter(|&r| prev.halted[r]) {
                obs.predictions[row] = prev.predictions[row].clone();
                obs.probabilities[row * l * v..(row + 1) * l * v].copy_from_slice(&prev.probabilities[row * l * v..(row + 1) * l * v]);
                obs.values[row] = prev.values[row];
                obs.halt_probs[row] = prev.halt_probs[row];
                obs.halt_logits[row] = prev.halt_logits[row];
                obs.halted[row] = true;
            }
        }
        if self.options.halting {
            for row in 0..b {
                obs.halted[row] |= obs.halt_probs[row] > 0.5;
            }
        }
        self.last = Some(obs);
        self.last.as_ref().expect("just set")
    }

    /// Whether two trajectories of one puzzle can differ: noise in the transitions (GRAM's
    /// guidance, or PTRM's latent noise), a random z0, or sampled decoding (a TRM run greedily
    /// from the fixed z0 repeats one answer N times).
    pub fn is_stochastic(model: &Gram, options: &SampleOptions) -> bool {
        options.latent_noise != 0.0
            || (model.has_guidance() && options.guidance_scale != 0.0 && model.ablation() != Some(super::Ablation::NoStochasticity))
            || model.ablation() == Some(super::Ablation::RandomInit)
            || options.decoding == Decoding::Sample
    }

    /// Steps until done, calling `observe` after each step; returns the last observation.
    pub fn run(mut self, mut observe: impl FnMut(&Observation)) -> Observation {
        while !self.is_done() {
            observe(self.step());
        }
        self.last.expect("max_steps >= 1")
    }
}

/// The index `u` in [0, 1) picks from unnormalised weights `exps` summing to `sum`.
fn draw(exps: &[f32], sum: f32, u: f64) -> usize {
    let target = u as f32 * sum;
    let mut acc = 0.0;
    for (i, &e) in exps.iter().enumerate() {
        acc += e;
        if target < acc {
            return i;
        }
    }
    exps.len() - 1
}
