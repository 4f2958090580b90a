//! Completing a prefix with each model of the study (the JEPA-Reasoner paper, section 5.2.3):
//!
//! - **T** writes tokens greedily with its LM head;
//! - **C** thinks [`THOUGHTS`] continuous latents, then writes tokens greedily; its tokens stand
//!   for the continuation's positions after the thoughts;
//! - **R** runs [`WINDOW`] latents of latent autoregression and its Talker (Dual, or Mono)
//!   reconstructs one token per latent; the first `n` are its completion.
//!
//! Latent noise (sigma = fraction x max|h| of each latent) applies to C's thoughts and R's
//! latents; T has none. Prefixes are batched by length; each instance's noise stream is a
//! function of (seed, its index) alone.

use burn::tensor::Device;

use super::data::{BOS, WINDOW, prompt};
use super::grammar::Symbol;
use super::models::{GrammarModel, GrammarModels};
use crate::gram::noise::NoiseSource;
use crate::reasoner::coconut::{THOUGHTS, coconut_complete, greedy};
use crate::reasoner::latent_loop::{latent_loop, token_tensor};
use crate::transfer::ReadBack;

/// Instance `i`'s noise stream in a run seeded `seed`.
pub fn instance_noise(seed: u64, i: usize) -> NoiseSource {
    NoiseSource::new(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Where a model's tokens start in the continuation: after C's thoughts, else at once.
pub fn offset(model: GrammarModel) -> usize {
    if model == GrammarModel::C { THOUGHTS } else { 0 }
}

/// Tokens written after each prefix: `n` for T and C (at most `WINDOW - THOUGHTS` for C),
/// `min(n, WINDOW)` for R. Noise only on C and R.
pub fn complete(
    models: &GrammarModels,
    which: GrammarModel,
    prefixes: &[Vec<Symbol>],
    n: usize,
    latent_noise: f64,
    seed: u64,
    device: &Device,
) -> Vec<Vec<u32>> {
    let mut out = vec![Vec::new(); prefixes.len()];
    let mut lengths: Vec<usize> = prefixes.iter().map(Vec::len).collect();
    lengths.sort_unstable();
    lengths.dedup();
    for len in lengths {
        let idx: Vec<usize> = (0..prefixes.len()).filter(|&i| prefixes[i].len() == len).collect();
        for chunk in idx.chunks(128) {
            let rows: Vec<Vec<u32>> = chunk.iter().map(|&i| prompt(&prefixes[i])).collect();
            let mut noise: Vec<NoiseSource> = chunk.iter().map(|&i| instance_noise(seed, i)).collect();
            let ids = token_tensor(&rows, device);
            let written = match which {
                GrammarModel::T => greedy(&models.t, models.t.embed_tokens(ids), n),
                GrammarModel::C => coconut_complete(&models.c, models.c.embed_tokens(ids), n, latent_noise, &mut noise),
                GrammarModel::R | GrammarModel::RMono => {
                    let x = models.r.embed_tokens(ids);
                    let (_, latents) = latent_loop(&models.r, x, WINDOW, latent_noise, &mut noise);
                    let talker = if which == GrammarModel::R { &models.dual } else { &models.mono };
                    talker
                        .decode(latents, BOS)
                        .into_iter()
                        .map(|mut w| {
                            w.truncate(n);
                            w
                        })
                        .collect()
                }
            };
            for (k, &i) in chunk.iter().enumerate() {
                out[i] = written[k].clone();
            }
        }
    }
    out
}

/// R's latents read without a Talker: each of `n` free-running latents as its nearest vocabulary
/// latent (the target encoder's rows), what the Reasoner alone means (SST's quick evaluation).
pub fn nearest_tokens(models: &GrammarModels, prefixes: &[Vec<Symbol>], n: usize, device: &Device) -> Vec<Vec<u32>> {
    let r = &models.r;
    let vocab = r.vocab_latents(); // [V, D]
    prefixes
        .iter()
        .map(|p| {
            let (_, lat) = latent_loop(r, r.embed_tokens(token_tensor(&[prompt(p)], device)), n, 0.0, &mut []);
            let d = lat.dims()[2];
            let sims = lat.reshape([n, d]).matmul(vocab.clone().transpose()); // [n, V]
            let ids: Vec<i64> = sims.argmax(1).reshape([n]).ints().unwrap();
            ids.into_iter().map(|t| t as u32).collect()
        })
        .collect()
}
