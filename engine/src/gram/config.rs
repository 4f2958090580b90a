//! GRAM / TRM hyper-parameters. The paper's values (the GRAM paper, appendix D) are the reference; where
//! a default differs it is sized for training on a 2-core CPU, and the field says so.

use burn::config::Config;

use super::ablation::Ablation;

#[derive(Config, Debug, PartialEq)]
pub struct GramConfig {
    /// Tokens per puzzle (64 for 8x8 N-Queens).
    pub seq_len: usize,
    /// Vocabulary size (3 for N-Queens: pad, empty, queen).
    pub vocab: usize,
    /// Board width for 2-D (row, column) RoPE; 0 = RoPE over the flattened index. Deviation:
    /// the paper's RoPE is 1-D. On a flattened board a 1-D offset conflates a row neighbour with
    /// a wrapped-around cell, and with z0 shared by all positions nothing else tells cells apart.
    #[config(default = 0)]
    pub grid_cols: usize,
    /// Vertices n when the tokens are the upper triangle of an n x n matrix, diagonal included
    /// (graph colouring): the attention core's RoPE is then 2-D over each token's (row, column)
    /// in the matrix, so "same row" and "same column" (the pairs that share a vertex) are
    /// offsets it can see. `None`: `grid_cols` decides (manifests written before the field).
    pub triangle: Option<usize>,
    /// Side S of a square binary image when the tokens are its S*S pixels (the GRAM paper's MNIST
    /// path, `nn::patches`); `None` = the token path (an embedding table per token). With an
    /// image, `seq_len` is S*S and the latent states have one position per patch. (Options, so
    /// manifests written before the image path read as token models.)
    pub image_side: Option<usize>,
    /// Patch side P of the image path. Paper: 2 (14 x 14 patches on MNIST); the shipped digits
    /// model uses 4 (7 x 7 patches, 4x fewer positions, for a CPU and a browser).
    pub patch: Option<usize>,
    /// Model width D. Paper: 512; 64 here so the 8x8 task trains on a CPU in under an hour.
    #[config(default = 64)]
    pub d_model: usize,
    /// Attention heads. Paper: 8 (at D=512, head width 64); 4 here keeps heads 16 wide.
    #[config(default = 4)]
    pub n_heads: usize,
    /// SwiGLU hidden width. Paper: 512 at D=512 (1x); 2x here because D is small.
    #[config(default = 128)]
    pub d_hidden: usize,
    /// Recursive core: self-attention blocks (false) or the MLP-mixer of the GRAM paper appendix D.1
    /// (true; the paper's choice for Sudoku, following TRM: a token-mixing SwiGLU over the L
    /// positions instead of attention).
    #[config(default = false)]
    pub mixer: bool,
    /// Hidden width of the mixer's token-mixing SwiGLU (used only when `mixer`; 2 x 81 for Sudoku).
    #[config(default = 162)]
    pub d_token_hidden: usize,
    /// Layers in the shared block used as f_L and f_H. Paper: 2.
    #[config(default = 2)]
    pub n_layers: usize,
    /// Low-level (inner) steps K per transition. Paper: 4 (6 for Sudoku). 2 here: a supervision
    /// step costs T(K+1) block passes, and the CPU budget is ~10^4 times smaller than the paper's.
    #[config(default = 2)]
    pub k_inner: usize,
    /// High-level (outer) steps T per supervision step. Paper: 3; 2 here for the same reason.
    #[config(default = 2)]
    pub t_outer: usize,
    /// Deep-supervision steps N_sup, the step budget at training. Paper: 16; 8 here so a batch
    /// slot moves to a new puzzle twice as often (inference may run longer: the model is a
    /// fixed-point refiner and the Q-head halts it).
    #[config(default = 8)]
    pub n_sup: usize,
    /// Stochastic guidance on (GRAM) or off (TRM: h_t = u_t, no prior, posterior or KL).
    #[config(default = true)]
    pub guidance: bool,
    /// KL coefficient beta of the truncated ELBO, on the ELBO's own scale (CE per token against
    /// KL per position, i.e. both summed over the board). Paper, table 8: 0.07 for 8x8 N-Queens,
    /// but the paper does not say how its KL is normalised, and at 0.07 on this scale we measured
    /// label leakage (training answers 100% valid under the posterior, 0% under the prior). 0.3
    /// still pays for the few nats that pick one of several solutions (beta < 1) and makes
    /// copying the whole answer through eps cost more than it saves.
    #[config(default = 0.3)]
    pub beta: f64,
    /// KL balance alpha (Hafner et al.): alpha * KL(sg(q) || p) + (1 - alpha) * KL(q || sg(p)).
    /// Paper: 0.8.
    #[config(default = 0.8)]
    pub kl_balance: f64,
    /// Free bits (Kingma et al. 2016, "Improving Variational Inference with Inverse
    /// Autoregressive Flow"; not in the GRAM paper): the batch's KL per position, summed over
    /// the T transitions, costs nothing below this many nats (`beta * max(KL, free_bits)`), so
    /// beta cannot push the posterior to carry less than that. `None` or 0: the plain ELBO
    /// (every shipped model; manifests written before the field).
    pub free_bits: Option<f64>,
    /// Prior rows (not in the GRAM paper): at each supervision step of training, each row of
    /// the batch draws eps from the prior instead of the posterior with this probability, for
    /// all T transitions, and its cross-entropy is taken on what the core makes of the prior's
    /// draw, as at inference. The draw is detached, so the prior head still learns only from
    /// the KL; the core learns to finish what the prior proposes rather than only what the
    /// posterior hands it. `None` or 0: the plain ELBO (every shipped model; manifests written
    /// before the field).
    pub prior_rows: Option<f64>,
    /// Hidden width of the SwiGLU heads of the prior and the posterior.
    #[config(default = 128)]
    pub d_guidance: usize,
    /// log-variance bounds of the guidance Gaussians, for numerical safety (not in the paper).
    #[config(default = -8.0)]
    pub logvar_min: f64,
    #[config(default = 4.0)]
    pub logvar_max: f64,
    /// Seed of z0 = (h0, l0), drawn once from N(0, I) and saved with the weights (appendix D.1).
    #[config(default = 0)]
    pub z0_seed: u64,
    /// Puzzle-embedding positions P prepended to the L board positions (TRM's `puzzle_emb_len`,
    /// the GRAM paper's ARC runs: 16): h, l and the RoPE table cover P + L positions, the decoder reads
    /// the last L, the Q-head and LPRM head position 0. `None` = no such positions (every
    /// browser-sized model; manifests written before the field existed).
    pub puzzle_emb_len: Option<usize>,
    /// Width of each puzzle's learned embedding (TRM's `puzzle_emb_ndim`; default D), zero-padded
    /// to P * D and laid over the P positions, as TRM does (so with the default only position 0
    /// carries it). Zero-initialised (TRM's `init_std=0`).
    pub puzzle_emb_ndim: Option<usize>,
    /// Puzzle identifiers the embedding table holds (TRM's `num_puzzle_identifiers`; an `arc`
    /// import's largest id + 1). An input row may start with its puzzle id (`seq_len + 1` tokens);
    /// a row of `seq_len` tokens reads puzzle 0 (TRM's single-identifier Sudoku and maze sets).
    pub n_puzzles: Option<usize>,
    /// One of the GRAM paper's Table 10 ablations (`ablation.rs`); `None` for GRAM and TRM themselves
    /// (manifests written before the field existed read as `None`).
    pub ablation: Option<Ablation>,
}

impl GramConfig {
    /// (side S, patch P) on the image path, `None` on the token path.
    pub fn image(&self) -> Option<(usize, usize)> {
        self.image_side.map(|side| (side, self.patch.unwrap_or(1)))
    }

    /// Positions of the latent states: the puzzle-embedding positions and `seq_len`, or one per
    /// patch on the image path.
    pub fn latent_len(&self) -> usize {
        self.image().map_or(self.puzzle_prefix().saturating_add(self.seq_len), |(side, patch)| (side / patch).saturating_pow(2))
    }

    /// Puzzle-embedding positions P (0 without them).
    pub fn puzzle_prefix(&self) -> usize {
        self.puzzle_emb_len.unwrap_or(0)
    }

    /// Why this configuration cannot be built, if it cannot.
    pub fn problem(&self) -> Option<String> {
        let p = self.puzzle_prefix();
        if self.triangle.is_some() && self.grid_cols != 0 {
            return Some("RoPE over a triangle and over a grid at once: set one of triangle, grid_cols".into());
        }
        if p == 0 {
            return None;
        }
        let ndim = self.puzzle_emb_ndim.unwrap_or(self.d_model);
        // A manifest's numbers are untrusted: P x D saturates rather than overflowing.
        let prefix_values = p.saturating_mul(self.d_model);
        if self.image_side.is_some() {
            Some("puzzle-embedding positions are for the token path, not the image path".into())
        } else if self.grid_cols != 0 || self.triangle.is_some() {
            Some("puzzle-embedding positions need 1-D RoPE (grid_cols 0): a prefix would shift the board's 2-D positions".into())
        } else if ndim == 0 || ndim > prefix_values {
            Some(format!("puzzle_emb_ndim {ndim} must be in 1..={prefix_values} (P x D)"))
        } else if self.n_puzzles.unwrap_or(0) == 0 {
            Some("puzzle-embedding positions need n_puzzles >= 1".into())
        } else {
            None
        }
    }
}
