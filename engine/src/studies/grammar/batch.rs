//! Training batches of the grammar study, from training-part sequences:
//!
//! - [`seq_batch`]: whole sequences (BOS, terminals, EOS) padded to the batch's longest, for
//!   pretraining, T's post-training and SST (every real position counts);
//! - [`cut_batch`]: the sequences cut at one shared point, for COCONUT (prefix, then the
//!   continuation's tokens after the thoughts) and the Talkers (prefix, then the window the
//!   Talker reconstructs).

use burn::tensor::{Device, Int, Tensor, TensorData};

use super::data::{BOS, PAD, WINDOW, full_tokens, prompt, tokens};
use super::grammar::Symbol;
use crate::reasoner::loss::SeqBatch;

/// Teacher-forced batch of whole sequences.
pub fn seq_batch(seqs: &[Vec<Symbol>], device: &Device) -> SeqBatch {
    denoising_batch(seqs, seqs, device)
}

/// Teacher-forced batch that reads `seen` (the sequences with some terminals corrupted, each as
/// long as its clean one) and predicts each next token of the clean `seqs`.
pub fn denoising_batch(seqs: &[Vec<Symbol>], seen: &[Vec<Symbol>], device: &Device) -> SeqBatch {
    assert!(seqs.len() == seen.len() && seqs.iter().zip(seen).all(|(s, c)| s.len() == c.len()), "one seen sequence per clean one");
    let rows: Vec<Vec<u32>> = seqs.iter().map(|s| full_tokens(s)).collect();
    let read: Vec<Vec<u32>> = seen.iter().map(|s| full_tokens(s)).collect();
    let l = rows.iter().map(Vec::len).max().expect("a batch has sequences") - 1;
    let b = rows.len();
    let (mut inputs, mut next, mut real) = (Vec::with_capacity(b * l), Vec::with_capacity(b * l), Vec::with_capacity(b * l));
    for (mut r, mut x) in rows.into_iter().zip(read) {
        r.resize(l + 1, PAD);
        x.resize(l + 1, PAD);
        for i in 0..l {
            inputs.push(x[i] as i64);
            next.push(r[i + 1] as i64);
            real.push((r[i + 1] != PAD) as u8 as f32);
        }
    }
    let real = Tensor::from_data(TensorData::new(real, [b, l]), device);
    SeqBatch {
        inputs: Tensor::from_data(TensorData::new(inputs, [b, l]), device),
        next: Tensor::from_data(TensorData::new(next, [b, l]), device),
        route: real.clone(),
        real,
    }
}

/// Sequences cut after `cut` terminals (each must have `cut + WINDOW` of them).
pub struct CutBatch {
    /// BOS and the prefix, `[B][cut + 1]`.
    pub prefix: Vec<Vec<u32>>,
    /// The next [`WINDOW`] tokens, `[B][WINDOW]`.
    pub window: Vec<Vec<u32>>,
}

pub fn cut_batch(seqs: &[Vec<Symbol>], cut: usize) -> CutBatch {
    seen_cut_batch(seqs, seqs, cut)
}

/// [`cut_batch`] whose prefixes are read from `seen` (corrupted copies of `seqs`); the windows
/// stay the clean sequences'.
pub fn seen_cut_batch(seqs: &[Vec<Symbol>], seen: &[Vec<Symbol>], cut: usize) -> CutBatch {
    assert!(seqs.iter().all(|s| s.len() >= cut + WINDOW), "every sequence reaches past the window");
    assert!(seen.len() == seqs.len() && seen.iter().all(|s| s.len() >= cut), "one seen prefix per sequence");
    CutBatch {
        prefix: seen.iter().map(|s| prompt(&s[..cut])).collect(),
        window: seqs.iter().map(|s| tokens(&s[cut..cut + WINDOW])).collect(),
    }
}

impl CutBatch {
    /// The window's tokens from `from` on, `[B, WINDOW - from]`.
    pub fn window_from(&self, from: usize, device: &Device) -> Tensor<2, Int> {
        let rows: Vec<Vec<u32>> = self.window.iter().map(|w| w[from..].to_vec()).collect();
        crate::reasoner::latent_loop::token_tensor(&rows, device)
    }

    /// The Talker's decoder input: BOS then the window shifted by one, `[B, WINDOW]`.
    pub fn talker_previous(&self, device: &Device) -> Tensor<2, Int> {
        let rows: Vec<Vec<u32>> = self
            .window
            .iter()
            .map(|w| {
                let mut r = vec![BOS];
                r.extend_from_slice(&w[..WINDOW - 1]);
                r
            })
            .collect();
        crate::reasoner::latent_loop::token_tensor(&rows, device)
    }
}
