//! JEPA-Reasoner (the JEPA-Reasoner paper, sections 3-4) and the pair a weights file holds (Reasoner + Talker;
//! the Talkers are in `talker.rs`).
//!
//! - **Reasoner**: a token embedding as encoder, causal transformer layers with non-learnable
//!   QK-norm, and the hybrid output normalisation (RMSNorm, then L2 onto the unit sphere). At run
//!   time there is no LM head: the predicted latent is appended to the input and the layers run
//!   again (latent autoregression).
//! - **Target encoder**: an EMA copy of the input embedding (momentum 0.98), the source of SST
//!   targets; never trained by gradients.
//!
//! Deviation, on purpose: the Reasoner's input for a token is its embedding row L2-normalised
//! (the paper feeds the raw row). Tokens and looped-back latents then live on the same sphere,
//! so the first layer sees inputs of one scale in training (tokens) and at run time (latents).
//! The temporary pretraining LM head is tied to the same normalised rows.

use burn::config::Config;
use burn::module::{Module, Param};
use burn::nn::{Embedding, EmbeddingConfig, RmsNorm, RmsNormConfig};
use burn::tensor::{Device, Int, Tensor};

use super::layers::{Layer, LayerConfig, causal_mask, l2_normalize};
pub use super::talker::{Talker, TalkerConfig, TalkerKind};
use crate::nn::{Rope, RopeConfig};

#[derive(Config, Debug, PartialEq)]
pub struct ReasonerConfig {
    pub vocab: usize,
    /// Sequence length the position table covers.
    pub max_len: usize,
    /// Latent width (the paper's tree model: 384).
    #[config(default = 128)]
    pub d_model: usize,
    /// Attention width (the paper: 768).
    #[config(default = 128)]
    pub d_attn: usize,
    /// SwiGLU hidden width (the paper: 1536).
    #[config(default = 256)]
    pub d_ffn: usize,
    #[config(default = 4)]
    pub n_heads: usize,
    /// Transformer layers (the paper: 18).
    #[config(default = 6)]
    pub n_layers: usize,
}

#[derive(Config, Debug, PartialEq)]
pub struct ReasonerModelConfig {
    pub reasoner: ReasonerConfig,
    pub talker: TalkerConfig,
}

#[derive(Module, Debug)]
pub struct Reasoner {
    pub(crate) embed: Embedding,
    /// EMA of `embed`'s rows: the target encoder.
    pub(crate) target_embed: Param<Tensor<2>>,
    layers: Vec<Layer>,
    norm: RmsNorm,
    rope: Rope,
}

impl ReasonerConfig {
    pub fn init(&self, device: &Device) -> Reasoner {
        let embed = EmbeddingConfig::new(self.vocab, self.d_model).init(device);
        let target = Param::from_tensor(embed.weight.val().detach()).set_require_grad(false);
        let layer = LayerConfig::new(self.d_model, self.d_attn, self.d_ffn, self.n_heads);
        Reasoner {
            embed,
            target_embed: target,
            layers: (0..self.n_layers).map(|_| layer.init(device)).collect(),
            norm: RmsNormConfig::new(self.d_model).init(device),
            rope: RopeConfig::new(self.max_len, self.d_attn / self.n_heads).init(device),
        }
    }
}

impl Reasoner {
    /// The token encoder: embedding rows on the unit sphere. `[B, L]` -> `[B, L, D]`
    pub fn embed_tokens(&self, tokens: Tensor<2, Int>) -> Tensor<3> {
        l2_normalize(self.embed.forward(tokens))
    }

    /// The layers and the RMS half of the hybrid normalisation (pretraining's output).
    /// `[B, L, D]` -> `[B, L, D]`
    pub fn hidden(&self, x: Tensor<3>) -> Tensor<3> {
        let l = x.dims()[1];
        let mask = causal_mask(l, &x.device());
        let mut x = x;
        for layer in &self.layers {
            x = layer.forward(x, &self.rope, Some(mask.clone()), None);
        }
        self.norm.forward(x)
    }

    /// Predicted latents: the full hybrid normalisation (RMS, then L2). `[B, L, D]` -> `[B, L, D]`
    pub fn latents(&self, x: Tensor<3>) -> Tensor<3> {
        l2_normalize(self.hidden(x))
    }

    /// Pretraining's temporary LM head, tied to the (normalised) embedding. `[B, L, D]` -> `[B, L, V]`
    pub fn lm_logits(&self, hidden: Tensor<3>) -> Tensor<3> {
        let e = l2_normalize(self.embed.weight.val()); // [V, D]
        let [b, l, d] = hidden.dims();
        hidden.reshape([b * l, d]).matmul(e.transpose()).reshape([b, l, self.vocab()])
    }

    /// SST targets: the EMA encoder's rows for `tokens`, on the sphere, no gradient. `[B, L]` -> `[B, L, D]`
    pub fn target_latents(&self, tokens: Tensor<2, Int>) -> Tensor<3> {
        let [b, l] = tokens.dims();
        let e = self.vocab_latents(); // [V, D]
        let d = e.dims()[1];
        e.select(0, tokens.reshape([b * l])).reshape([b, l, d])
    }

    /// The vocabulary latents: target-encoder rows on the sphere. `[V, D]`
    pub fn vocab_latents(&self) -> Tensor<2> {
        l2_normalize(self.target_embed.val().detach())
    }

    pub fn vocab(&self) -> usize {
        self.embed.weight.dims()[0]
    }

    /// One EMA step of the target encoder: `target <- m * target + (1 - m) * embed`.
    pub fn ema_update(self, momentum: f64) -> Reasoner {
        let e = self.embed.weight.val().detach();
        let target_embed = self.target_embed.map(|t| (t.detach() * momentum + e * (1.0 - momentum)).detach());
        Reasoner { target_embed, ..self }
    }

    /// Copies the input embedding into the target encoder (start of SST).
    pub fn reset_target(self) -> Reasoner {
        let e = self.embed.weight.val().detach();
        let target_embed = self.target_embed.map(|_| e);
        Reasoner { target_embed, ..self }
    }

    /// The model with only its first `n` layers (the JEPA-Reasoner paper, Table 3's footnote: a Reasoner starts
    /// from the first N blocks of the pretrained Transformer); the final norm is kept.
    pub fn first_layers(self, n: usize) -> Reasoner {
        assert!(n >= 1 && n <= self.layers.len(), "keeps 1 to {} layers, not {n}", self.layers.len());
        let mut layers = self.layers;
        layers.truncate(n);
        Reasoner { layers, ..self }
    }

    pub fn n_layers(&self) -> usize {
        self.layers.len()
    }

    /// Raw rows of the input and target embeddings (tests).
    pub fn embeddings(&self) -> (Tensor<2>, Tensor<2>) {
        (self.embed.weight.val(), self.target_embed.val())
    }
}

/// The Reasoner and its Talker: what a weights file holds.
#[derive(Module, Debug)]
pub struct ReasonerModel {
    pub reasoner: Reasoner,
    pub talker: Talker,
}

impl ReasonerModel {
    pub fn init(config: &ReasonerModelConfig, device: &Device) -> ReasonerModel {
        ReasonerModel { reasoner: config.reasoner.init(device), talker: config.talker.init(device) }
    }
}
