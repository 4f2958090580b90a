//! The GRAM network (the GRAM paper, section 2.1 and appendix D.1), read top to bottom like the paper:
//!
//! ```text
//! e_x = sqrt(D) * embed(x)                        encoder (eq. 1)
//! z_0 = (h_0, l_0)  fixed, drawn once from N(0, I)
//! for k in 1..=K:  l <- f(l + h + e_x)             f_L, input injected each step (eq. 4)
//! u = f(h + l)                                     f_H (eq. 5)
//! h = u + eps,  eps ~ p(eps | u) or q(eps | u, y)  stochastic guidance (eqs. 6-7); TRM: h = u
//! y_hat = argmax lm_head(h)                        decoder (eq. 3)
//! ```
//! On the image path (`config.image_side` set, the GRAM paper's MNIST) the encoder is the convolutional
//! patch encoder and the decoder unpatchifies (`nn::patches`); the latents have one position per patch.
//! f_L and f_H are the same 2-layer block (as in TRM): attention, or the MLP-mixer of appendix D.1
//! (`nn::mixer`), chosen by the config's `mixer` flag. Sudoku uses the mixer, as the paper does;
//! N-Queens moved to it because on that task (mostly recall of whole solutions) it reached far
//! higher held-out accuracy in fewer steps (docs/results/nqueens.md), and the shipped colouring
//! models use it too. The attention presets stay, so earlier numbers can be reproduced; nothing
//! in the app depends on the core, since the manifest's config says which to build.
//! The halting Q-head and the LPRM value head
//! read the first position of h (appendix D.1, "auxiliary head ... from the first token of h").

use burn::module::{Module, Param};
use burn::nn::{Embedding, EmbeddingConfig, Initializer, Linear, LinearConfig};
use burn::tensor::{Device, Int, Tensor, TensorData, activation::sigmoid};

use super::GramConfig;
use super::ablation::{self, Ablation};
use super::guidance::{Gaussian, Guidance};
use super::noise::NoiseSource;
use super::puzzle_embedding::PuzzleEmbedding;
use crate::nn::patches::unpatchify;
use crate::nn::{Block, BlockConfig, MixerBlock, MixerBlockConfig, PatchEncoder};

/// The recurrent latent state z = (h, l), each `[B, L, D]`.
#[derive(Clone, Debug)]
pub struct Latent {
    pub h: Tensor<3>,
    pub l: Tensor<3>,
}

impl Latent {
    /// Stops gradients (the state carried between supervision steps, and into step T).
    pub fn detach(self) -> Latent {
        Latent { h: self.h.detach(), l: self.l.detach() }
    }
}

/// How eps is drawn in a transition.
pub enum Noise<'a> {
    /// No eps at all: h = u (TRM, or GRAM with guidance switched off).
    Off,
    /// Inference: eps ~ p(eps | u) with the guidance scale (0 = mean path, 1 = prior, >1 amplified).
    Prior { scale: f64, source: &'a mut NoiseSource },
    /// Training: eps ~ q(eps | u, y); `y` is `[B, L]`. With `stop_u`, the guidance heads read a
    /// detached u, so a loss on the returned Gaussians trains only the heads. `prior_rows`
    /// `[B, 1, 1]` (1 or 0 per row): those rows take the prior's draw instead, detached
    /// (`GramConfig::prior_rows`); the KL is returned for every row.
    Posterior { y: Tensor<2, Int>, source: &'a mut NoiseSource, stop_u: bool, prior_rows: Option<Tensor<3>> },
    /// The prior's draw (`y = None`) or the posterior's (`y = Some([B, L])`) with the standard
    /// normal xi `[B, L, D]` given rather than drawn: a run another implementation can repeat
    /// exactly (the PyTorch parity test, `tests/pytorch`). Same maths as `Prior` / `Posterior`.
    Given { xi: Tensor<3>, scale: f64, y: Option<Tensor<2, Int>> },
}

/// What one transition z_{t-1} -> z_t produced besides the new state.
pub struct Transition {
    pub z: Latent,
    /// (posterior, prior) of eps_t when sampled from the posterior: what the KL term needs.
    pub guidance: Option<(Gaussian, Gaussian)>,
}

#[derive(Module, Debug)]
pub struct Gram {
    embed: Embedding,
    /// The attention core (the `-attn` presets, digits, ARC); exactly one of `block` and `mixer` exists. Two options
    /// rather than an enum keep the tensor names of the attention weights as they were shipped.
    block: Option<Block>,
    /// The MLP-mixer core (the shipped Sudoku, N-Queens and colouring models).
    mixer: Option<MixerBlock>,
    /// h_0, `[D]`, fixed: saved with the weights, never trained.
    h_init: Param<Tensor<1>>,
    /// l_0, `[D]`, fixed likewise.
    l_init: Param<Tensor<1>>,
    lm_head: Linear,
    q_head: Linear,
    v_head: Linear,
    guidance: Option<Guidance>,
    /// The image path's encoder (`None` on the token path, whose `embed` is used instead).
    patches: Option<PatchEncoder>,
    /// Puzzle-embedding positions before the board (`None` for every browser-sized model).
    puzzle: Option<PuzzleEmbedding>,
    /// (side S, patch P) on the image path; `None` on the token path.
    image: Option<(usize, usize)>,
    d_model: usize,
    k_inner: usize,
    t_outer: usize,
    /// Table 10's ablation this model is, if any (from the config; no weights).
    #[module(skip)]
    ablation: Option<Ablation>,
}

impl Gram {
    pub fn init(config: &GramConfig, device: &Device) -> Self {
        if let Some(problem) = config.problem() {
            panic!("GramConfig: {problem}");
        }
        let d = config.d_model;
        let mut z0 = NoiseSource::new(config.z0_seed);
        let fixed =
            |values: Vec<f32>| Param::from_tensor(Tensor::<1>::from_data(TensorData::new(values, [d]), device)).set_require_grad(false);
        Gram {
            // std 1/sqrt(D), so sqrt(D) * embed(x) has RMS 1 like the states it is added to (as in
            // TRM); burn's default N(0, 1) would make the injected input 8x louder than h and l.
            embed: EmbeddingConfig::new(config.vocab, d)
                .with_initializer(Initializer::Normal { mean: 0.0, std: 1.0 / (d as f64).sqrt() })
                .init(device),
            block: (!config.mixer).then(|| {
                BlockConfig::new(d, config.n_heads, config.d_hidden, config.n_layers, config.latent_len())
                    .with_grid_cols(config.grid_cols)
                    .with_triangle(config.triangle)
                    .init(device)
            }),
            mixer: config.mixer.then(|| {
                MixerBlockConfig::new(d, config.d_hidden, config.latent_len(), config.d_token_hidden, config.n_layers).init(device)
            }),
            h_init: fixed(z0.normals(d)),
            l_init: fixed(z0.normals(d)),
            // On the image path each position decodes its patch: P*P pixels of V logits.
            lm_head: LinearConfig::new(d, config.vocab * config.image().map_or(1, |(_, p)| p * p)).init(device),
            q_head: LinearConfig::new(d, 1).init(device),
            v_head: LinearConfig::new(d, 1).init(device),
            guidance: config.guidance.then(|| Guidance::init(config, device)),
            patches: config.image().map(|(side, patch)| PatchEncoder::init(side, patch, d, device)),
            puzzle: PuzzleEmbedding::init(config, device),
            image: config.image(),
            d_model: d,
            k_inner: config.k_inner,
            t_outer: config.t_outer,
            ablation: config.ablation,
        }
    }

    /// Whether stochastic guidance exists (GRAM) or not (TRM).
    pub fn has_guidance(&self) -> bool {
        self.guidance.is_some()
    }

    /// The same model with wider MLPs in its core: `d_hidden` units (and, on the mixer core,
    /// `d_token_hidden` token units), each at least what the model has. The function is exactly
    /// what it was and the new units learn from there ([`crate::nn::SwiGluMlp::widened`]).
    pub fn widened(self, d_hidden: usize, d_token_hidden: usize, device: &Device) -> Result<Self, String> {
        Ok(Gram {
            block: self.block.map(|b| b.widened(d_hidden, device)).transpose()?,
            mixer: self.mixer.map(|m| m.widened(d_hidden, d_token_hidden, device)).transpose()?,
            ..self
        })
    }

    /// High-level steps T per supervision step.
    pub fn t_outer(&self) -> usize {
        self.t_outer
    }

    /// The guidance heads (GRAM only).
    pub fn guidance(&self) -> Option<&Guidance> {
        self.guidance.as_ref()
    }

    /// e_x = sqrt(D) * embed(x), or the patch encoder's output on the image path. With
    /// puzzle-embedding positions, sqrt(D) * [puzzle vectors; embed(board)] (TRM's order).
    /// # Shapes: x `[B, L]` (or `[B, 1 + L]`, led by puzzle ids) -> `[B, L', D]` (L' = P + L,
    /// or the number of patches).
    pub fn encode(&self, x: Tensor<2, Int>) -> Tensor<3> {
        let scale = (self.d_model as f64).sqrt();
        match (&self.patches, &self.puzzle) {
            (Some(encoder), _) => encoder.forward(x),
            (None, None) => self.embed.forward(x) * scale,
            (None, Some(puzzle)) => {
                let (prefix, board) = puzzle.split(x);
                Tensor::cat(vec![prefix, self.embed.forward(board)], 1) * scale
            }
        }
    }

    /// Latent positions for rows of `seq_len` input tokens (one per patch on the image path;
    /// P + L with puzzle-embedding positions).
    pub fn latent_len(&self, seq_len: usize) -> usize {
        match (self.image, &self.puzzle) {
            (Some((side, patch)), _) => (side / patch).pow(2),
            (None, Some(puzzle)) => puzzle.latent_len(seq_len),
            (None, None) => seq_len,
        }
    }

    /// Tokens the decoder writes for rows of `width` input tokens (the rows' width, less a
    /// leading puzzle id).
    pub fn output_len(&self, width: usize) -> usize {
        self.puzzle.as_ref().map_or(width, |p| p.board_len(width))
    }

    /// Puzzle-embedding positions P before the board (0 without them).
    pub fn puzzle_prefix(&self) -> usize {
        self.puzzle.as_ref().map_or(0, |p| p.prefix())
    }

    /// z_0 for a batch of `seq_len`-token inputs. # Shapes: -> h, l `[B, L', D]`.
    pub fn initial_state(&self, batch: usize, seq_len: usize) -> Latent {
        let seq_len = self.latent_len(seq_len);
        let d = self.d_model;
        let expand = |p: &Param<Tensor<1>>| {
            p.val().reshape([1, 1, d]).expand([batch, seq_len, d]) // [B, L, D]
        };
        Latent { h: expand(&self.h_init), l: expand(&self.l_init) }
    }

    /// z_0 as a run starts it: the fixed z0, or for the random-initialisation ablation a fresh
    /// N(0, I) draw per trajectory, position and channel from `source` (nothing is drawn
    /// otherwise, so the noise stream of every other model is unchanged).
    pub fn start_state(&self, batch: usize, seq_len: usize, source: &mut NoiseSource) -> Latent {
        if self.ablation != Some(Ablation::RandomInit) {
            return self.initial_state(batch, seq_len);
        }
        let device = self.h_init.val().device();
        let shape = [batch, self.latent_len(seq_len), self.d_model];
        Latent { h: source.tensor(shape, &device), l: source.tensor(shape, &device) }
    }

    /// Table 10's ablation, if any.
    pub fn ablation(&self) -> Option<Ablation> {
        self.ablation
    }

    /// The same weights run as `ablation` (the ablation is no weight, so weights loaded with
    /// the model they ablate can start a variant's training).
    pub fn with_ablation(mut self, ablation: Option<Ablation>) -> Self {
        self.ablation = ablation;
        self
    }

    /// The shared network f (used as f_L and f_H). # Shapes: `[B, L, D]` -> `[B, L, D]`.
    fn f(&self, x: Tensor<3>) -> Tensor<3> {
        match (&self.block, &self.mixer) {
            (Some(block), _) => block.forward(x),
            (None, Some(mixer)) => mixer.forward(x),
            (None, None) => unreachable!("init builds one core"),
        }
    }

    /// One latent transition z_{t-1} -> z_t (eqs. 4-7).
    pub fn transition(&self, z: Latent, e_x: &Tensor<3>, noise: Noise<'_>) -> Transition {
        let Latent { h, mut l } = z;
        for _ in 0..self.k_inner {
            l = self.f(l + h.clone() + e_x.clone()); // f_L, [B, L, D]
        }
        let u = self.f(h + l.clone()); // f_H, [B, L, D]
        let device = u.device();
        let (h, guidance) = match (&self.guidance, noise) {
            (None, _) | (Some(_), Noise::Off) => (u, None),
            (Some(g), Noise::Prior { scale, source }) => {
                let xi = source.tensor(u.dims(), &device);
                self.guide(g, u, xi, scale, None, false, None)
            }
            (Some(g), Noise::Posterior { y, source, stop_u, prior_rows }) => {
                let xi = source.tensor(u.dims(), &device);
                self.guide(g, u, xi, 1.0, Some(y), stop_u, prior_rows)
            }
            (Some(g), Noise::Given { xi, scale, y }) => self.guide(g, u, xi, scale, y, false, None),
        };
        Transition { z: Latent { h, l }, guidance }
    }

    /// h = u + eps (eq. 7), eps drawn with `xi` from the prior, or from the posterior when the
    /// target `y` is given (then with (posterior, prior) returned for the KL term). With
    /// `stop_u`, the guidance heads read a detached u; `prior_rows` `[B, 1, 1]` marks the rows
    /// that take the prior's draw, detached, even though `y` is given.
    // The guidance step's inputs as the GRAM paper's equations name them; each call site passes its own mix of them.
    #[allow(clippy::too_many_arguments)]
    fn guide(
        &self,
        g: &Guidance,
        u: Tensor<3>,
        xi: Tensor<3>,
        scale: f64,
        y: Option<Tensor<2, Int>>,
        stop_u: bool,
        prior_rows: Option<Tensor<3>>,
    ) -> (Tensor<3>, Option<(Gaussian, Gaussian)>) {
        let u_in = if stop_u { u.clone().detach() } else { u.clone() };
        let scale = ablation::scale(self.ablation, scale);
        match y {
            None => {
                let prior = ablation::shape(self.ablation, g.prior(u_in));
                (ablation::combine(self.ablation, u, prior.sample(xi, scale)), None)
            }
            Some(y) => {
                let posterior = ablation::shape(self.ablation, g.posterior(u_in.clone(), y));
                let prior = ablation::shape(self.ablation, g.prior(u_in));
                let eps = match prior_rows {
                    None => posterior.sample(xi, scale),
                    Some(m) => {
                        let from_prior = prior.sample(xi.clone(), scale).detach() * m.clone();
                        posterior.sample(xi, scale) * (-m + 1.0) + from_prior
                    }
                };
                (ablation::combine(self.ablation, u, eps), Some((posterior, prior)))
            }
        }
    }

    /// Token logits. # Shapes: h `[B, L', D]` -> `[B, L, V]` (pixels unpatchified on the image
    /// path; the puzzle-embedding positions dropped, as TRM's `[:, puzzle_emb_len:]`).
    pub fn decode(&self, h: Tensor<3>) -> Tensor<3> {
        match self.image {
            None => self.lm_head.forward(match &self.puzzle {
                Some(puzzle) => puzzle.board(h),
                None => h,
            }),
            Some((side, patch)) => unpatchify(self.lm_head.forward(h), side, patch),
        }
    }

    fn first_position(h: Tensor<3>) -> Tensor<2> {
        let [b, _, d] = h.dims();
        h.slice([0..b, 0..1, 0..d]).reshape([b, d]) // [B, D]
    }

    /// Halting logit (Q-head): > 0 means "the current answer is right, stop". # Shapes: -> `[B]`.
    pub fn halt_logit(&self, h: Tensor<3>) -> Tensor<1> {
        let b = h.dims()[0];
        self.q_head.forward(Self::first_position(h)).reshape([b])
    }

    /// LPRM value v(h) in (0, 1): predicted correctness of the output (appendix B.1).
    /// # Shapes: -> `[B]`.
    pub fn value(&self, h: Tensor<3>) -> Tensor<1> {
        let b = h.dims()[0];
        sigmoid(self.v_head.forward(Self::first_position(h)).reshape([b]))
    }
}
