//! Transformer layers of the JEPA-Reasoner and its Talkers (the JEPA-Reasoner paper, section 3): pre-norm
//! layers with a causal (decoder) or bidirectional (encoder) self-attention, an optional
//! cross-attention (Dual-Talker's decoder) and a SwiGLU MLP. The attention width may differ from
//! the latent width (the paper: latent 384, attention 768).
//!
//! QK-norm (Dehghani et al. 2023) without learnable gains, as the paper's modified block: each
//! head's query and key are RMS-normalised before the dot product, so a score is
//! `sqrt(d_head) * cos(q, k)` — bounded, and blind to the scale of q and k.
//!
//! These layers are the Reasoner's own rather than an extension of `nn`'s attention: their
//! attention width differs from the latent width, QK-norm is the paper's non-learnable RMS
//! normalisation, and the Dual-Talker needs cross-attention. The language models of `lm` reuse
//! them.

use burn::config::Config;
use burn::module::Module;
use burn::nn::{Linear, LinearConfig, RmsNorm, RmsNormConfig};
use burn::tensor::{Device, Tensor, TensorData, activation::softmax};

use crate::nn::{Rope, SwiGluMlp, SwiGluMlpConfig};

/// Non-learnable RMS normalisation over the last axis.
pub fn rms_normalize<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    let ms = x.clone().powf_scalar(2.0).mean_dim(D - 1); // [..., 1]
    x / (ms + 1e-6).sqrt()
}

/// L2 normalisation over the last axis: onto the unit hypersphere.
pub fn l2_normalize<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    let n = x.clone().powf_scalar(2.0).sum_dim(D - 1); // [..., 1]
    x / (n + 1e-12).sqrt()
}

/// Additive causal mask `[1, 1, L, L]`: 0 on and below the diagonal, -1e9 above.
pub fn causal_mask(l: usize, device: &Device) -> Tensor<4> {
    let v: Vec<f32> = (0..l * l).map(|i| if i % l > i / l { -1e9 } else { 0.0 }).collect();
    Tensor::from_data(TensorData::new(v, [1, 1, l, l]), device)
}

#[derive(Config, Debug)]
pub struct AttnConfig {
    pub d_model: usize,
    pub d_attn: usize,
    pub n_heads: usize,
    /// Non-learnable QK-norm.
    #[config(default = true)]
    pub qk_norm: bool,
}

#[derive(Module, Debug)]
pub struct Attn {
    q: Linear,
    k: Linear,
    v: Linear,
    out: Linear,
    n_heads: usize,
    qk_norm: bool,
}

impl AttnConfig {
    pub fn init(&self, device: &Device) -> Attn {
        assert_eq!(self.d_attn % self.n_heads, 0, "d_attn must be divisible by n_heads");
        let lin = |i, o| LinearConfig::new(i, o).with_bias(false).init(device);
        Attn {
            q: lin(self.d_model, self.d_attn),
            k: lin(self.d_model, self.d_attn),
            v: lin(self.d_model, self.d_attn),
            out: lin(self.d_attn, self.d_model),
            n_heads: self.n_heads,
            qk_norm: self.qk_norm,
        }
    }
}

impl Attn {
    fn heads(&self, x: Tensor<3>) -> Tensor<4> {
        let [b, l, a] = x.dims();
        x.reshape([b, l, self.n_heads, a / self.n_heads]).swap_dims(1, 2) // [B, H, L, Dh]
    }

    /// Attention weights `[B, H, Lq, Lk]`.
    pub fn weights(&self, xq: Tensor<3>, xkv: Tensor<3>, rope: Option<&Rope>, mask: Option<Tensor<4>>) -> Tensor<4> {
        let mut q = self.heads(self.q.forward(xq));
        let mut k = self.heads(self.k.forward(xkv));
        if self.qk_norm {
            q = rms_normalize(q);
            k = rms_normalize(k);
        }
        if let Some(r) = rope {
            q = r.forward(q);
            k = r.forward(k);
        }
        let dh = q.dims()[3];
        let mut scores = q.matmul(k.swap_dims(2, 3)) / (dh as f64).sqrt(); // [B, H, Lq, Lk]
        if let Some(m) = mask {
            scores = scores + m;
        }
        softmax(scores, 3)
    }

    /// # Shapes
    /// - xq `[B, Lq, D]`, xkv `[B, Lk, D]` -> `[B, Lq, D]`. `rope` for self-attention only (its
    ///   table must cover both lengths); `mask` additive, broadcast to `[B, H, Lq, Lk]`.
    pub fn forward(&self, xq: Tensor<3>, xkv: Tensor<3>, rope: Option<&Rope>, mask: Option<Tensor<4>>) -> Tensor<3> {
        let [b, lq, _] = xq.dims();
        let v = self.heads(self.v.forward(xkv.clone()));
        let mixed = self.weights(xq, xkv, rope, mask).matmul(v); // [B, H, Lq, Dh]
        let a = mixed.dims()[1] * mixed.dims()[3];
        self.out.forward(mixed.swap_dims(1, 2).reshape([b, lq, a]))
    }
}

#[derive(Config, Debug)]
pub struct LayerConfig {
    pub d_model: usize,
    pub d_attn: usize,
    pub d_ffn: usize,
    pub n_heads: usize,
    #[config(default = true)]
    pub qk_norm: bool,
    /// Adds a cross-attention sub-layer (Dual-Talker's decoder).
    #[config(default = false)]
    pub cross: bool,
}

/// A pre-norm layer: `x + attn(norm(x))`, [`x + cross(norm(x), memory)`], `x + mlp(norm(x))`.
#[derive(Module, Debug)]
pub struct Layer {
    norm_attn: RmsNorm,
    attn: Attn,
    norm_cross: Option<RmsNorm>,
    cross: Option<Attn>,
    norm_mlp: RmsNorm,
    mlp: SwiGluMlp,
}

impl LayerConfig {
    pub fn init(&self, device: &Device) -> Layer {
        let attn = AttnConfig::new(self.d_model, self.d_attn, self.n_heads).with_qk_norm(self.qk_norm);
        Layer {
            norm_attn: RmsNormConfig::new(self.d_model).init(device),
            attn: attn.init(device),
            norm_cross: self.cross.then(|| RmsNormConfig::new(self.d_model).init(device)),
            cross: self.cross.then(|| attn.init(device)),
            norm_mlp: RmsNormConfig::new(self.d_model).init(device),
            mlp: SwiGluMlpConfig::new(self.d_model, self.d_ffn, self.d_model).init(device),
        }
    }
}

impl Layer {
    /// # Shapes
    /// - x `[B, L, D]`, memory `[B, M, D]` (cross layers only) -> `[B, L, D]`
    pub fn forward(&self, x: Tensor<3>, rope: &Rope, mask: Option<Tensor<4>>, memory: Option<Tensor<3>>) -> Tensor<3> {
        let n = self.norm_attn.forward(x.clone());
        let mut x = x + self.attn.forward(n.clone(), n, Some(rope), mask);
        if let (Some(norm), Some(cross), Some(mem)) = (&self.norm_cross, &self.cross, memory) {
            x = x.clone() + cross.forward(norm.forward(x), mem, None, None);
        }
        x.clone() + self.mlp.forward(self.norm_mlp.forward(x))
    }

    /// The self-attention weights of this layer for input `x` (for tests and inspection).
    pub fn attention(&self, x: Tensor<3>, rope: &Rope, mask: Option<Tensor<4>>) -> Tensor<4> {
        let n = self.norm_attn.forward(x);
        self.attn.weights(n.clone(), n, Some(rope), mask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::RopeConfig;
    use burn::tensor::Distribution;

    /// With QK-norm the attention pattern does not change when queries and keys are scaled;
    /// without it, it does.
    #[test]
    fn qk_norm_makes_attention_scale_free() {
        let device = Device::flex();
        device.seed(11);
        let rope = RopeConfig::new(6, 8).init(&device);
        let x = Tensor::<3>::random([2, 6, 16], Distribution::Normal(0.0, 1.0), &device);
        for qk_norm in [true, false] {
            let a = AttnConfig::new(16, 16, 2).with_qk_norm(qk_norm).init(&device);
            let mut scaled = a.clone();
            scaled.q.weight = scaled.q.weight.clone().map(|w| w * 7.0);
            scaled.k.weight = scaled.k.weight.clone().map(|w| w * 0.3);
            let w1 = a.weights(x.clone(), x.clone(), Some(&rope), None);
            let w2 = scaled.weights(x.clone(), x.clone(), Some(&rope), None);
            let diff: f32 = (w1 - w2).abs().max().into_scalar();
            if qk_norm {
                assert!(diff < 1e-4, "QK-norm attention changed by {diff}");
            } else {
                assert!(diff > 1e-2, "plain attention should change, changed by {diff}");
            }
        }
    }

    /// The causal mask hides every later position: changing the future leaves the past's
    /// outputs unchanged.
    #[test]
    fn causal_mask_hides_the_future() {
        let device = Device::flex();
        device.seed(12);
        let rope = RopeConfig::new(5, 8).init(&device);
        let layer = LayerConfig::new(16, 16, 32, 2).init(&device);
        let x = Tensor::<3>::random([1, 5, 16], Distribution::Normal(0.0, 1.0), &device);
        let mut y = x.clone();
        y = y.slice_assign([0..1, 3..5, 0..16], Tensor::random([1, 2, 16], Distribution::Normal(0.0, 1.0), &device));
        let mask = || Some(causal_mask(5, &device));
        let a = layer.forward(x.clone(), &rope, mask(), None).slice([0..1, 0..3, 0..16]);
        let b = layer.forward(y.clone(), &rope, mask(), None).slice([0..1, 0..3, 0..16]);
        assert!((a - b).abs().max().into_scalar::<f32>() < 1e-5);
        let w = layer.attention(x, &rope, mask());
        let above: f32 = w.slice([0..1, 0..2, 0..1, 1..5]).abs().max().into_scalar();
        assert!(above < 1e-12, "position 0 attends to the future: {above}");
    }
}
