//! JEPA-Reasoner (seed 000, sections 3-4) and the pair a weights file holds (Reasoner + Talker;
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
pub struct JepaConfig {
    pub reasoner: ReasonerConfig,
    pub talker: TalkerConfig,
}

impl JepaConfig {
    /// The tree route-search model shipped with the playground (sized for a CPU; see README).
    pub fn tree() -> JepaConfig {
        use crate::tasks::tree::{MAX_LEN, ROUTE_LATENTS, VOCAB};
        let reasoner = ReasonerConfig::new(VOCAB, MAX_LEN);
        let talker = TalkerConfig::new(TalkerKind::Mono, VOCAB, ROUTE_LATENTS + 1, reasoner.d_model);
        JepaConfig { reasoner, talker }
    }
}

#[derive(Module, Debug)]
pub struct Reasoner {
    embed: Embedding,
    /// EMA of `embed`'s rows: the target encoder.
    target_embed: Param<Tensor<2>>,
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

    /// Raw rows of the input and target embeddings (tests).
    pub fn embeddings(&self) -> (Tensor<2>, Tensor<2>) {
        (self.embed.weight.val(), self.target_embed.val())
    }
}

/// The Reasoner and its Talker: what a weights file holds.
#[derive(Module, Debug)]
pub struct Jepa {
    pub reasoner: Reasoner,
    pub talker: Talker,
}

impl Jepa {
    pub fn init(config: &JepaConfig, device: &Device) -> Jepa {
        Jepa { reasoner: config.reasoner.init(device), talker: config.talker.init(device) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jepa::loss::{EMA_MOMENTUM, SST_K, pretrain_loss, sst_loss};
    use crate::jepa::tree::{action_filter, seq_batch, solve_trees};
    use crate::jepa::weights::{jepa_from_bytes, jepa_to_bytes};
    use crate::tasks::tree::{self, TreeTask};
    use crate::gram::noise::NoiseSource;

    fn tiny(kind: TalkerKind) -> JepaConfig {
        let mut c = JepaConfig::tree();
        c.reasoner = c.reasoner.with_d_model(16).with_d_attn(16).with_d_ffn(32).with_n_heads(2).with_n_layers(2);
        c.talker = TalkerConfig::new(kind, c.talker.vocab, c.talker.max_len, 16)
            .with_d_attn(16)
            .with_d_ffn(32)
            .with_n_heads(2)
            .with_n_layers(1)
            .with_n_encoder(1);
        c
    }

    fn tasks(n: usize) -> Vec<TreeTask> {
        let mut rng = NoiseSource::new(4);
        (0..n).map(|_| TreeTask::random(&mut rng)).collect()
    }

    #[test]
    fn latents_lie_on_the_unit_sphere() {
        let device = Device::default();
        device.seed(1);
        let m = Jepa::init(&tiny(TalkerKind::Mono), &device);
        let b = seq_batch(&tasks(3), &device);
        let z = m.reasoner.latents(m.reasoner.embed_tokens(b.inputs.clone()));
        let norms = z.powf_scalar(2.0).sum_dim(2).sqrt();
        let err: f32 = (norms - 1.0).abs().max().into_scalar();
        assert!(err < 1e-5, "{err}");
        // Also the generated ones, with and without noise off.
        for a in solve_trees(&m, &tasks(4), 0.0, 0, &device) {
            for l in &a.latents {
                let n: f32 = l.iter().map(|v| v * v).sum::<f32>().sqrt();
                assert!((n - 1.0).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn ema_update_is_exact() {
        let device = Device::default();
        device.seed(2);
        let r = ReasonerConfig::new(8, 8).with_d_model(4).with_d_attn(4).with_d_ffn(8).with_n_heads(1).with_n_layers(1).init(&device);
        let r = r.reset_target();
        let (e, t) = r.embeddings();
        assert!((e.clone() - t).abs().max().into_scalar::<f32>() < 1e-7);
        // Move the target away, then one EMA step: m * t + (1 - m) * e, to float precision.
        let mut r = r;
        r.target_embed = r.target_embed.map(|t| t * 0.0 + 1.0);
        let r = r.ema_update(EMA_MOMENTUM);
        let (e2, t2) = r.embeddings();
        let want = e2.clone() * (1.0 - EMA_MOMENTUM) + EMA_MOMENTUM;
        assert!((t2 - want).abs().max().into_scalar::<f32>() < 1e-6);
        assert!((e2 - e).abs().max().into_scalar::<f32>() == 0.0, "EMA must not touch the input embedding");
    }

    #[test]
    fn masks_count_what_they_must() {
        let device = Device::default();
        let t = TreeTask::parse("NL, NO, LA, LB[ROOT]N[TARGET]B[ROUTE]").unwrap();
        let b = seq_batch(std::slice::from_ref(&t), &device);
        let route: Vec<f32> = b.route.into_data().convert::<f32>().try_to_vec::<f32>().unwrap();
        let real: Vec<f32> = b.real.into_data().convert::<f32>().try_to_vec::<f32>().unwrap();
        let next: Vec<i64> = b.next.into_data().convert::<i64>().try_to_vec::<i64>().unwrap();
        let toks = t.full_tokens();
        let start = action_filter(&toks).unwrap();
        assert_eq!(tree::token_name(toks[start - 1]), "[ROUTE]");
        // Route positions: exactly those predicting N, L, B, [EOS].
        let counted: Vec<String> =
            (0..route.len()).filter(|&i| route[i] == 1.0).map(|i| tree::token_name(next[i] as u32)).collect();
        assert_eq!(counted, ["N", "L", "B", "[EOS]"]);
        // Real positions: every token after the first; padding never counts.
        assert_eq!(real.iter().sum::<f32>() as usize, toks.len() - 1);
    }

    #[test]
    fn losses_are_finite_and_sst_is_zero_at_the_target() {
        let device = Device::default().autodiff();
        device.seed(3);
        let m = Jepa::init(&tiny(TalkerKind::Mono), &device);
        let b = seq_batch(&tasks(4), &device);
        let p = pretrain_loss(&m.reasoner, &b);
        assert!(p.value.is_finite() && p.value > 0.0);
        let s = sst_loss(&m.reasoner, &b, SST_K);
        assert!((-1.0..=1.0).contains(&s.value));
        let loss: f32 = s.loss.clone().into_scalar();
        assert!((loss as f64 - (SST_K - SST_K * s.value as f64)).abs() < 1e-4);
        // Gradients reach the layers and the input embedding, not the EMA target.
        let grads = s.loss.backward();
        assert!(m.reasoner.embed.weight.grad(&grads).is_some());
        assert!(m.reasoner.target_embed.grad(&grads).is_none());
    }

    #[test]
    fn both_talkers_round_trip_through_bytes_and_decode() {
        let device = Device::default();
        device.seed(5);
        for kind in [TalkerKind::Mono, TalkerKind::Dual] {
            let c = tiny(kind);
            let m = Jepa::init(&c, &device);
            let bytes = jepa_to_bytes(&m);
            let again = jepa_from_bytes(&c, &bytes, &device).unwrap();
            assert_eq!(jepa_to_bytes(&again), bytes);
            let ts = tasks(3);
            let a = solve_trees(&m, &ts, 0.0, 0, &device);
            let b = solve_trees(&again, &ts, 0.0, 0, &device);
            assert_eq!(a.iter().map(|x| x.tokens.clone()).collect::<Vec<_>>(), b.iter().map(|x| x.tokens.clone()).collect::<Vec<_>>());
            assert!(a.iter().all(|x| x.tokens.len() == tree::ROUTE_LATENTS));
            // The other Talker's weights do not load into this config.
            let other = tiny(if kind == TalkerKind::Mono { TalkerKind::Dual } else { TalkerKind::Mono });
            assert!(jepa_from_bytes(&other, &bytes, &device).is_err());
        }
    }

    /// A task's answer does not depend on its batch-mates, with noise on.
    #[test]
    fn answers_do_not_depend_on_the_batch() {
        let device = Device::default();
        device.seed(6);
        let m = Jepa::init(&tiny(TalkerKind::Mono), &device);
        let ts = tasks(6);
        let all = solve_trees(&m, &ts, 0.1, 9, &device);
        let alone = solve_trees(&m, &ts[..1], 0.1, 9, &device);
        let d: f32 = all[0].latents[2].iter().zip(&alone[0].latents[2]).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(d < 1e-4, "{d}");
    }
}
