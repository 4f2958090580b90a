//! Supervised fine-tuning on paired views (the LLM-JEPA paper's L_LLM): the sequence is
//! `text [PRED]*k SEP code EOS` and the cross-entropy reads only the code and its EOS (the
//! "assistant" tokens), as SFT does. Also greedy decoding of the code from a prompt.

use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Int, Tensor, TensorData};

use super::masks::causal;
use super::model::Lm;
use crate::transfer::ReadBack;

/// The special tokens a task gives the objectives.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub pad: u32,
    pub sep: u32,
    pub eos: u32,
    /// LLM-JEPA's predictor token.
    pub pred: u32,
}

/// Two views of one thing: `text` (starting with BOS) and `code`.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub text: Vec<u32>,
    pub code: Vec<u32>,
}

impl Layout {
    /// What the model reads before writing the code: `text [PRED]*k SEP`.
    pub fn prompt(&self, text: &[u32], k: usize) -> Vec<u32> {
        let mut p = text.to_vec();
        p.extend(std::iter::repeat_n(self.pred, k));
        p.push(self.sep);
        p
    }

    /// The whole training sequence: the prompt, the code, EOS.
    pub fn sequence(&self, ex: &Example, k: usize) -> Vec<u32> {
        let mut s = self.prompt(&ex.text, k);
        s.extend_from_slice(&ex.code);
        s.push(self.eos);
        s
    }
}

/// `[B, L]` int tensor of rows padded with `pad`.
pub fn padded(rows: &[Vec<u32>], l: usize, pad: u32, device: &Device) -> Tensor<2, Int> {
    let mut v = Vec::with_capacity(rows.len() * l);
    for r in rows {
        v.extend(r.iter().map(|&t| t as i64));
        v.extend(std::iter::repeat_n(pad as i64, l - r.len()));
    }
    Tensor::from_data(TensorData::new(v, [rows.len(), l]), device)
}

/// A teacher-forced SFT batch.
pub struct SftBatch {
    /// `[B, L]`: each sequence without its last token.
    pub inputs: Tensor<2, Int>,
    /// `[B, L]`: each sequence without its first token.
    pub targets: Tensor<2, Int>,
    /// `[B, L]`: 1 where the target is a code token or the final EOS.
    pub answer: Tensor<2>,
    /// Real input positions per row.
    pub lens: Vec<usize>,
    /// Per row, the input position of SEP (the first position whose target is code).
    pub sep_at: Vec<usize>,
}

pub fn sft_batch(examples: &[Example], layout: &Layout, k: usize, device: &Device) -> SftBatch {
    let seqs: Vec<Vec<u32>> = examples.iter().map(|e| layout.sequence(e, k)).collect();
    let l = seqs.iter().map(Vec::len).max().expect("a batch has examples") - 1;
    let inputs: Vec<Vec<u32>> = seqs.iter().map(|s| s[..s.len() - 1].to_vec()).collect();
    let targets: Vec<Vec<u32>> = seqs.iter().map(|s| s[1..].to_vec()).collect();
    let sep_at: Vec<usize> = examples.iter().map(|e| e.text.len() + k).collect();
    let mut answer = Vec::with_capacity(seqs.len() * l);
    for (s, &sep) in seqs.iter().zip(&sep_at) {
        answer.extend((0..l).map(|i| (i >= sep && i < s.len() - 1) as u8 as f32));
    }
    SftBatch {
        inputs: padded(&inputs, l, layout.pad, device),
        targets: padded(&targets, l, layout.pad, device),
        answer: Tensor::from_data(TensorData::new(answer, [seqs.len(), l]), device),
        lens: inputs.iter().map(Vec::len).collect(),
        sep_at,
    }
}

/// The SFT loss and what it reports.
pub struct LmOut {
    pub loss: Tensor<1>,
    /// Mean cross-entropy per answer token.
    pub ce: f32,
    /// Share of answer tokens the argmax gets right (teacher-forced).
    pub acc: f32,
    /// The causal hidden states H_c `[B, L, D]` (T-decoder-JEPA's context).
    pub hidden: Tensor<3>,
}

pub fn sft_loss(lm: &Lm, batch: &SftBatch) -> LmOut {
    let [b, l] = batch.inputs.dims();
    let hidden = lm.hidden(batch.inputs.clone(), causal(l, &batch.inputs.device()));
    let logits = lm.logits(hidden.clone());
    let logp = log_softmax(logits.clone(), 2);
    let ce = -logp.gather(2, batch.targets.clone().reshape([b, l, 1])).reshape([b, l]);
    let n = batch.answer.clone().sum().clamp_min(1.0);
    let loss = (ce * batch.answer.clone()).sum() / n.clone();
    let hit = logits.argmax(2).reshape([b, l]).equal(batch.targets.clone()).float();
    let acc = ((hit * batch.answer.clone()).sum() / n).into_scalar();
    LmOut { ce: loss.clone().into_scalar(), loss, acc, hidden }
}

/// Greedy decoding: each prompt extended one argmax token at a time until `eos` or `max_new`
/// tokens; returns the written tokens (without EOS).
pub fn greedy(lm: &Lm, prompts: &[Vec<u32>], layout: &Layout, max_new: usize, device: &Device) -> Vec<Vec<u32>> {
    let mut rows: Vec<Vec<u32>> = prompts.to_vec();
    let mut out: Vec<Vec<u32>> = vec![Vec::new(); prompts.len()];
    let mut open: Vec<usize> = (0..prompts.len()).collect();
    for _ in 0..max_new {
        if open.is_empty() {
            break;
        }
        let batch: Vec<Vec<u32>> = open.iter().map(|&r| rows[r].clone()).collect();
        let l = batch.iter().map(Vec::len).max().unwrap().min(lm.max_len());
        let batch: Vec<Vec<u32>> = batch.into_iter().map(|r| r[r.len().saturating_sub(l)..].to_vec()).collect();
        let hidden = lm.hidden(padded(&batch, l, layout.pad, device), causal(l, device));
        let next: Vec<i64> = lm.logits(hidden).argmax(2).ints().unwrap();
        let mut still = Vec::new();
        for (i, &r) in open.iter().enumerate() {
            let t = next[i * l + batch[i].len() - 1] as u32;
            rows[r].push(t);
            if t != layout.eos {
                out[r].push(t);
                still.push(r);
            }
        }
        open = still;
    }
    out
}
