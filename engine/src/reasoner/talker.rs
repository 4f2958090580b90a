//! The Talkers (the JEPA-Reasoner paper, section 3.2): they turn the Reasoner's latents into tokens.
//!
//! - **Mono-Talker**: decoder layers and an LM head; all tokens in one pass from the latents.
//! - **Dual-Talker**: an embedding for tokens already written, encoder layers over the latents,
//!   decoder layers with cross-attention to them, an LM head; autoregressive.

use burn::config::Config;
use burn::module::Module;
use burn::nn::{Embedding, EmbeddingConfig, Linear, LinearConfig, RmsNorm, RmsNormConfig};
use burn::tensor::{Device, Int, Tensor};
use serde::{Deserialize, Serialize};

use super::layers::{Layer, LayerConfig, causal_mask};
use crate::nn::{Rope, RopeConfig};
use crate::transfer::ReadBack;

/// Which Talker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TalkerKind {
    Mono,
    Dual,
}

#[derive(Config, Debug, PartialEq)]
pub struct TalkerConfig {
    pub kind: TalkerKind,
    pub vocab: usize,
    /// Latents (and tokens) it reads at most.
    pub max_len: usize,
    /// Equal to the Reasoner's latent width.
    pub d_model: usize,
    #[config(default = 128)]
    pub d_attn: usize,
    #[config(default = 256)]
    pub d_ffn: usize,
    #[config(default = 4)]
    pub n_heads: usize,
    /// Decoder layers (the paper's tree Mono-Talker: 6).
    #[config(default = 2)]
    pub n_layers: usize,
    /// Encoder layers (Dual-Talker only).
    #[config(default = 2)]
    pub n_encoder: usize,
}

#[derive(Module, Debug)]
pub struct MonoTalker {
    layers: Vec<Layer>,
    norm: RmsNorm,
    head: Linear,
    rope: Rope,
}

#[derive(Module, Debug)]
pub struct DualTalker {
    embed: Embedding,
    encoder: Vec<Layer>,
    enc_norm: RmsNorm,
    decoder: Vec<Layer>,
    norm: RmsNorm,
    head: Linear,
    rope: Rope,
}

/// One of the two Talkers.
#[derive(Module, Debug)]
pub struct Talker {
    mono: Option<MonoTalker>,
    dual: Option<DualTalker>,
}

impl TalkerConfig {
    pub fn init(&self, device: &Device) -> Talker {
        let layer = LayerConfig::new(self.d_model, self.d_attn, self.d_ffn, self.n_heads);
        let rope = || RopeConfig::new(self.max_len, self.d_attn / self.n_heads).init(device);
        let head = || LinearConfig::new(self.d_model, self.vocab).with_bias(false).init(device);
        match self.kind {
            TalkerKind::Mono => Talker {
                mono: Some(MonoTalker {
                    layers: (0..self.n_layers).map(|_| layer.init(device)).collect(),
                    norm: RmsNormConfig::new(self.d_model).init(device),
                    head: head(),
                    rope: rope(),
                }),
                dual: None,
            },
            TalkerKind::Dual => Talker {
                mono: None,
                dual: Some(DualTalker {
                    embed: EmbeddingConfig::new(self.vocab, self.d_model).init(device),
                    encoder: (0..self.n_encoder).map(|_| layer.init(device)).collect(),
                    enc_norm: RmsNormConfig::new(self.d_model).init(device),
                    decoder: (0..self.n_layers).map(|_| layer.clone().with_cross(true).init(device)).collect(),
                    norm: RmsNormConfig::new(self.d_model).init(device),
                    head: head(),
                    rope: rope(),
                }),
            },
        }
    }
}

impl MonoTalker {
    /// All tokens in one pass. `[B, R, D]` -> `[B, R, V]`
    pub fn forward(&self, latents: Tensor<3>) -> Tensor<3> {
        let mask = causal_mask(latents.dims()[1], &latents.device());
        let mut x = latents;
        for layer in &self.layers {
            x = layer.forward(x, &self.rope, Some(mask.clone()), None);
        }
        self.head.forward(self.norm.forward(x))
    }
}

impl DualTalker {
    /// The encoder's reading of the latents (bidirectional). `[B, R, D]` -> `[B, R, D]`
    pub fn encode(&self, latents: Tensor<3>) -> Tensor<3> {
        let mut x = latents;
        for layer in &self.encoder {
            x = layer.forward(x, &self.rope, None, None);
        }
        self.enc_norm.forward(x)
    }

    /// Teacher-forced logits: position i reads `previous[..=i]` and the latents; it predicts the
    /// token after `previous[i]`. `memory` from [`DualTalker::encode`]. `[B, T]` -> `[B, T, V]`
    pub fn decode(&self, memory: Tensor<3>, previous: Tensor<2, Int>) -> Tensor<3> {
        let mut x = self.embed.forward(previous);
        let mask = causal_mask(x.dims()[1], &x.device());
        for layer in &self.decoder {
            x = layer.forward(x, &self.rope, Some(mask.clone()), Some(memory.clone()));
        }
        self.head.forward(self.norm.forward(x))
    }
}

impl Talker {
    pub fn kind(&self) -> TalkerKind {
        if self.mono.is_some() { TalkerKind::Mono } else { TalkerKind::Dual }
    }

    /// Teacher-forced logits for training: Mono ignores `previous`; Dual reads `previous`
    /// (`[ROUTE]` then the tokens so far), one per latent. `[B, R, D]`, `[B, R]` -> `[B, R, V]`
    pub fn logits(&self, latents: Tensor<3>, previous: Tensor<2, Int>) -> Tensor<3> {
        match (&self.mono, &self.dual) {
            (Some(m), _) => m.forward(latents),
            (None, Some(d)) => d.decode(d.encode(latents), previous),
            (None, None) => unreachable!("a Talker is Mono or Dual"),
        }
    }

    /// Greedy tokens for `latents` `[B, R, D]`: Mono in one pass, Dual one token at a time
    /// starting from `start` (the `[ROUTE]` token). Returns `[B][R]` tokens.
    pub fn decode(&self, latents: Tensor<3>, start: u32) -> Vec<Vec<u32>> {
        let [b, r, _] = latents.dims();
        let device = latents.device();
        let ids = |t: Tensor<3>| -> Vec<Vec<u32>> {
            let [b, r, _] = t.dims();
            let v: Vec<i64> = t.argmax(2).reshape([b * r]).ints().unwrap();
            v.chunks(r).map(|c| c.iter().map(|&x| x as u32).collect()).collect()
        };
        match (&self.mono, &self.dual) {
            (Some(m), _) => ids(m.forward(latents)),
            (None, Some(d)) => {
                let memory = d.encode(latents);
                let mut written: Vec<Vec<u32>> = vec![vec![start]; b];
                for i in 0..r {
                    let flat: Vec<i64> = written.iter().flat_map(|w| w.iter().map(|&t| t as i64)).collect();
                    let prev = Tensor::<2, Int>::from_data(burn::tensor::TensorData::new(flat, [b, i + 1]), &device);
                    let logits = d.decode(memory.clone(), prev); // [B, i+1, V]
                    let v = logits.dims()[2];
                    let last = ids(logits.slice([0..b, i..i + 1, 0..v]));
                    for (w, l) in written.iter_mut().zip(last) {
                        w.push(l[0]);
                    }
                }
                written.into_iter().map(|w| w[1..].to_vec()).collect()
            }
            (None, None) => unreachable!("a Talker is Mono or Dual"),
        }
    }
}
