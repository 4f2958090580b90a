//! LLM-JEPA (the LLM-JEPA paper): SFT plus `lambda * (1 - cos(Enc(text), Enc(code)))`, where Enc is the
//! last-token hidden state of the last layer. The text view ends with k [PRED] tokens, so the
//! text's embedding is read at the last [PRED]: the predictor is the same network given k extra
//! positions of computation. Both views run in **one** forward pass, packed in one row
//! (`text [PRED]*k | SEP code EOS`) under [`blocks`], so they never attend to each other
//! (the paper's "clever approach"); the SFT pass is the other. JEPA-loss dropout: a step skips
//! the JEPA pass with probability `dropout` (decided by the caller's generator).
//!
//! Gradients flow into both embeddings (no stop-gradient), as the paper's loss is written.

use burn::tensor::{Device, Int, Tensor, TensorData};

use super::masks::blocks;
use super::model::Lm;
use super::sft::{Example, Layout, padded};

/// LLM-JEPA's knobs.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LlmJepa {
    /// [PRED] tokens (the paper searches 0-4).
    pub k: usize,
    /// Weight of the JEPA term.
    pub lambda: f64,
    /// Probability that a step skips the JEPA term.
    pub dropout: f64,
}

/// Both views of a batch packed one pair per row.
pub struct PackedViews {
    pub tokens: Tensor<2, Int>,
    pub mask: Tensor<4>,
    /// Flat index `row * L + position` of each text view's last token (the last [PRED]).
    pub text_last: Vec<i64>,
    /// Flat index of each code view's last token (its EOS).
    pub code_last: Vec<i64>,
}

/// The code view: `SEP code EOS` (the "assistant" message alone).
pub fn code_view(layout: &Layout, code: &[u32]) -> Vec<u32> {
    let mut v = vec![layout.sep];
    v.extend_from_slice(code);
    v.push(layout.eos);
    v
}

pub fn pack(examples: &[Example], layout: &Layout, k: usize, device: &Device) -> PackedViews {
    let mut rows = Vec::with_capacity(examples.len());
    let mut segments = Vec::with_capacity(examples.len());
    for ex in examples {
        let mut text = ex.text.clone();
        text.extend(std::iter::repeat_n(layout.pred, k));
        let code = code_view(layout, &ex.code);
        segments.push(vec![(0, text.len()), (text.len(), text.len() + code.len())]);
        text.extend(code);
        rows.push(text);
    }
    let l = rows.iter().map(Vec::len).max().expect("a batch has examples");
    let text_last = segments.iter().enumerate().map(|(r, s)| (r * l + s[0].1 - 1) as i64).collect();
    let code_last = segments.iter().enumerate().map(|(r, s)| (r * l + s[1].1 - 1) as i64).collect();
    PackedViews { tokens: padded(&rows, l, layout.pad, device), mask: blocks(&segments, l, device), text_last, code_last }
}

/// The two embeddings `[B, D]` each: text (at the last [PRED]) and code (at its EOS).
pub fn embeddings(lm: &Lm, views: &PackedViews) -> (Tensor<2>, Tensor<2>) {
    let hidden = lm.hidden(views.tokens.clone(), views.mask.clone());
    let [b, l, d] = hidden.dims();
    let flat = hidden.reshape([b * l, d]);
    let device = flat.device();
    let pick = |idx: &[i64]| {
        let i = Tensor::<1, Int>::from_data(TensorData::new(idx.to_vec(), [idx.len()]), &device);
        flat.clone().select(0, i)
    };
    (pick(&views.text_last), pick(&views.code_last))
}

/// Cosine similarity of matching rows. `[B, D]` x `[B, D]` -> `[B]`
pub fn cosine(a: Tensor<2>, b: Tensor<2>) -> Tensor<1> {
    let dot = (a.clone() * b.clone()).sum_dim(1);
    let na = a.powf_scalar(2.0).sum_dim(1).sqrt();
    let nb = b.powf_scalar(2.0).sum_dim(1).sqrt();
    let [n, _] = dot.dims();
    (dot / (na * nb).clamp_min(1e-8)).reshape([n])
}

/// `mean(1 - cos(text, code))` over the batch, and that mean cosine.
pub fn jepa_loss(lm: &Lm, views: &PackedViews) -> (Tensor<1>, f32) {
    let (t, c) = embeddings(lm, views);
    let cos = cosine(t, c).mean();
    (cos.clone().neg() + 1.0, cos.into_scalar())
}
