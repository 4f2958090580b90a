//! T-decoder-JEPA (the T-decoder-JEPA paper): the causal backbone's states H_c feed a **predictor** (causal
//! self-attention over the masked input, cross-attention to H_c restricted to the context,
//! SwiGLU) that predicts the **non-causal EMA target encoder**'s states H_nc on masked future
//! spans; `L = L_JEPA + lambda * L_LM` (section 3.5), L_JEPA the mean over spans of each span's
//! mean squared error (per dimension), H_nc detached. The target encoder is the backbone's EMA
//! (`theta' <- alpha theta' + (1 - alpha) theta` after every optimiser step, `nn::ema_update`)
//! run bidirectionally; it lives off the autodiff graph, so its states enter the loss as
//! constants.
//!
//! Spans (section 3.3): the context is a prefix of each sequence, its end drawn uniformly
//! between a task-given minimum (for paired views: the prompt, so the targets are the answer's
//! future) and the last position; then up to `max_spans` non-overlapping spans of 1 to
//! `max_span_len` positions after it. The predictor's input keeps the token embeddings of the
//! context and a learned [MASK] vector everywhere else.

use burn::config::Config;
use burn::module::{Module, Param};
use burn::nn::{Linear, LinearConfig, RmsNorm, RmsNormConfig};
use burn::tensor::{Device, Distribution, Tensor, TensorData};

use super::masks::{bidirectional, causal};
use super::model::Lm;
use super::sft::SftBatch;
use crate::gram::noise::NoiseSource;
use crate::nn::{Rope, RopeConfig, SwiGluMlp, SwiGluMlpConfig};
use crate::reasoner::layers::{Attn, AttnConfig};

/// T-decoder-JEPA's knobs.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TJepa {
    /// Weight of the LM loss in `L_JEPA + lambda * L_LM`.
    pub lambda: f64,
    /// EMA decay alpha of the target encoder.
    pub ema: f64,
    pub max_spans: usize,
    pub max_span_len: usize,
}

#[derive(Config, Debug, PartialEq)]
pub struct PredictorConfig {
    pub d_model: usize,
    pub d_ffn: usize,
    pub n_heads: usize,
    pub max_len: usize,
    #[config(default = 1)]
    pub n_layers: usize,
}

#[derive(Module, Debug)]
struct PredictorLayer {
    norm_self: RmsNorm,
    attn_self: Attn,
    norm_cross: RmsNorm,
    attn_cross: Attn,
    norm_mlp: RmsNorm,
    mlp: SwiGluMlp,
}

#[derive(Module, Debug)]
pub struct Predictor {
    mask_token: Param<Tensor<1>>,
    layers: Vec<PredictorLayer>,
    norm: RmsNorm,
    out: Linear,
    rope: Rope,
}

impl PredictorConfig {
    pub fn init(&self, device: &Device) -> Predictor {
        let attn = AttnConfig::new(self.d_model, self.d_model, self.n_heads).with_qk_norm(false);
        let norm = || RmsNormConfig::new(self.d_model).init(device);
        let layer = || PredictorLayer {
            norm_self: norm(),
            attn_self: attn.init(device),
            norm_cross: norm(),
            attn_cross: attn.init(device),
            norm_mlp: norm(),
            mlp: SwiGluMlpConfig::new(self.d_model, self.d_ffn, self.d_model).init(device),
        };
        Predictor {
            mask_token: Param::from_tensor(Tensor::random([self.d_model], Distribution::Normal(0.0, 0.02), device)),
            layers: (0..self.n_layers).map(|_| layer()).collect(),
            norm: norm(),
            out: LinearConfig::new(self.d_model, self.d_model).init(device),
            rope: RopeConfig::new(self.max_len, self.d_model / self.n_heads).init(device),
        }
    }
}

impl Predictor {
    /// P = g(X_masked, H_c). `embedded` `[B, L, D]` (the backbone's token embeddings), `h_c`
    /// `[B, L, D]`, `context[r]`: row r's context length. -> `[B, L, D]`
    pub fn forward(&self, embedded: Tensor<3>, h_c: Tensor<3>, context: &[usize]) -> Tensor<3> {
        let [b, l, d] = embedded.dims();
        let device = embedded.device();
        let keep: Vec<f32> = context.iter().flat_map(|&c| (0..l).map(move |i| (i < c) as u8 as f32)).collect();
        let keep = Tensor::<3>::from_data(TensorData::new(keep, [b, l, 1]), &device);
        let mask_token = self.mask_token.val().reshape([1, 1, d]);
        let mut x = embedded * keep.clone() + mask_token * (keep.neg() + 1.0);
        let self_mask = causal(l, &device);
        let cross_mask = bidirectional(context, l, &device);
        for layer in &self.layers {
            let n = layer.norm_self.forward(x.clone());
            x = x + layer.attn_self.forward(n.clone(), n, Some(&self.rope), Some(self_mask.clone()));
            let n = layer.norm_cross.forward(x.clone());
            x = x + layer.attn_cross.forward(n, h_c.clone(), None, Some(cross_mask.clone()));
            x = x.clone() + layer.mlp.forward(layer.norm_mlp.forward(x));
        }
        self.out.forward(self.norm.forward(x))
    }
}

/// One row's context length and target spans (half-open, after the context).
#[derive(Clone, Debug, PartialEq)]
pub struct Spans {
    pub context: usize,
    pub targets: Vec<(usize, usize)>,
}

/// Draws a row's spans: `len` real positions, the context at least `min_context` long.
pub fn sample_spans(len: usize, min_context: usize, cfg: &TJepa, rng: &mut NoiseSource) -> Spans {
    let lo = min_context.clamp(1, len - 1);
    let context = lo + rng.index(len - lo);
    let mut targets: Vec<(usize, usize)> = Vec::new();
    for _ in 0..1 + rng.index(cfg.max_spans) {
        let start = context + rng.index(len - context);
        let end = (start + 1 + rng.index(cfg.max_span_len)).min(len);
        if targets.iter().all(|&(a, b)| end <= a || start >= b) {
            targets.push((start, end));
        }
    }
    targets.sort_unstable();
    Spans { context, targets }
}

/// `[B, L]` weights: `1 / (span length * spans in the batch)` on each target position, so the
/// weighted sum of per-position errors is the mean over spans of each span's mean.
pub fn span_weights(spans: &[Spans], l: usize, device: &Device) -> Tensor<2> {
    let n: usize = spans.iter().map(|s| s.targets.len()).sum();
    let mut w = vec![0f32; spans.len() * l];
    for (r, s) in spans.iter().enumerate() {
        for &(a, b) in &s.targets {
            for i in a..b {
                w[r * l + i] = 1.0 / ((b - a) * n) as f32;
            }
        }
    }
    Tensor::from_data(TensorData::new(w, [spans.len(), l]), device)
}

/// L_JEPA: the predictor's guess at the target encoder's states on the spans. `h_c` is the
/// backbone's causal pass over `batch.inputs` (the SFT pass's); `target` runs on the inner
/// backend, bidirectionally.
pub fn t_jepa_loss(lm: &Lm, predictor: &Predictor, target: &Lm, batch: &SftBatch, h_c: Tensor<3>, spans: &[Spans]) -> Tensor<1> {
    let [_, l] = batch.inputs.dims();
    let plain = batch.inputs.clone().inner();
    let h_nc = target.hidden(plain.clone(), bidirectional(&batch.lens, l, &plain.device())).detach();
    let context: Vec<usize> = spans.iter().map(|s| s.context).collect();
    let p = predictor.forward(lm.embed(batch.inputs.clone()), h_c, &context);
    let [b, _, _] = p.dims();
    let mse = (p - h_nc).powf_scalar(2.0).mean_dim(2).reshape([b, l]);
    (mse * span_weights(spans, l, &batch.inputs.device())).sum()
}
