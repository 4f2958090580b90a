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
    let rows: Vec<Vec<u32>> = seqs.iter().map(|s| full_tokens(s)).collect();
    let l = rows.iter().map(Vec::len).max().expect("a batch has sequences") - 1;
    let b = rows.len();
    let (mut inputs, mut next, mut real) = (Vec::with_capacity(b * l), Vec::with_capacity(b * l), Vec::with_capacity(b * l));
    for mut r in rows {
        r.resize(l + 1, PAD);
        for i in 0..l {
            inputs.push(r[i] as i64);
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
    assert!(seqs.iter().all(|s| s.len() >= cut + WINDOW), "every sequence reaches past the window");
    CutBatch {
        prefix: seqs.iter().map(|s| prompt(&s[..cut])).collect(),
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
