//! The small decoder-only language model both JEPA objectives train (the T-decoder-JEPA and LLM-JEPA papers): token
//! embedding, pre-norm transformer layers (RoPE, plain scaled dot-product attention, SwiGLU),
//! a final RMSNorm and an untied LM head. The attention mask is an argument, so the same
//! weights run causally (the LM and LLM-JEPA's views), with LLM-JEPA's block mask, or
//! bidirectionally (T-decoder-JEPA's target encoder).

use burn::config::Config;
use burn::module::Module;
use burn::nn::{Embedding, EmbeddingConfig, Linear, LinearConfig, RmsNorm, RmsNormConfig};
use burn::tensor::{Device, Int, Tensor};

use crate::nn::{Rope, RopeConfig};
use crate::reasoner::layers::{Layer, LayerConfig};

#[derive(Config, Debug, PartialEq)]
pub struct LmConfig {
    pub vocab: usize,
    /// Longest sequence the position table covers.
    pub max_len: usize,
    #[config(default = 64)]
    pub d_model: usize,
    #[config(default = 128)]
    pub d_ffn: usize,
    #[config(default = 4)]
    pub n_heads: usize,
    #[config(default = 2)]
    pub n_layers: usize,
}

#[derive(Module, Debug)]
pub struct Lm {
    embed: Embedding,
    layers: Vec<Layer>,
    norm: RmsNorm,
    head: Linear,
    rope: Rope,
}

impl LmConfig {
    pub fn init(&self, device: &Device) -> Lm {
        let layer = LayerConfig::new(self.d_model, self.d_model, self.d_ffn, self.n_heads).with_qk_norm(false);
        Lm {
            embed: EmbeddingConfig::new(self.vocab, self.d_model).init(device),
            layers: (0..self.n_layers).map(|_| layer.init(device)).collect(),
            norm: RmsNormConfig::new(self.d_model).init(device),
            head: LinearConfig::new(self.d_model, self.vocab).with_bias(false).init(device),
            rope: RopeConfig::new(self.max_len, self.d_model / self.n_heads).init(device),
        }
    }
}

impl Lm {
    /// Token embeddings. `[B, L]` -> `[B, L, D]`
    pub fn embed(&self, tokens: Tensor<2, Int>) -> Tensor<3> {
        self.embed.forward(tokens)
    }

    /// Hidden states after the final norm under an additive `mask` (`[B or 1, 1, L, L]`, 0 where
    /// a query may attend a key). `[B, L]` -> `[B, L, D]`
    pub fn hidden(&self, tokens: Tensor<2, Int>, mask: Tensor<4>) -> Tensor<3> {
        let mut x = self.embed(tokens);
        for layer in &self.layers {
            x = layer.forward(x, &self.rope, Some(mask.clone()), None);
        }
        self.norm.forward(x)
    }

    /// Next-token logits. `[B, L, D]` -> `[B, L, V]`
    pub fn logits(&self, hidden: Tensor<3>) -> Tensor<3> {
        self.head.forward(hidden)
    }

    pub fn d_model(&self) -> usize {
        self.embed.weight.dims()[1]
    }

    pub fn vocab(&self) -> usize {
        self.embed.weight.dims()[0]
    }

    pub fn max_len(&self) -> usize {
        self.rope.positions()
    }
}
