//! The recursive core's network: `n_layers` x [Attention + SwiGLU], post-norm with RMSNorm as in
//! HRM/TRM (post-norm keeps the recurrent state's scale fixed however often it is applied).
//! The same block serves as f_L and f_H (the GRAM paper, section 2.1 and appendix D.1).

use burn::config::Config;
use burn::module::Module;
use burn::nn::{RmsNorm, RmsNormConfig};
use burn::tensor::{Device, Tensor};

use super::{Attention, AttentionConfig, Rope, RopeConfig, SwiGluMlp, SwiGluMlpConfig};

#[derive(Config, Debug)]
pub struct BlockConfig {
    /// Model width D.
    pub d_model: usize,
    /// Attention heads.
    pub n_heads: usize,
    /// Hidden width of each SwiGLU MLP.
    pub d_hidden: usize,
    /// Layers per block (the paper: 2).
    pub n_layers: usize,
    /// Sequence length, for the RoPE table.
    pub seq_len: usize,
    /// Grid width for 2-D RoPE over (row, column); 0 for 1-D positions.
    #[config(default = 0)]
    pub grid_cols: usize,
    /// Vertices n for RoPE over the upper triangle of an n x n matrix (`RopeConfig::triangle`).
    pub triangle: Option<usize>,
}

#[derive(Module, Debug)]
pub struct Layer {
    attn: Attention,
    norm_attn: RmsNorm,
    mlp: SwiGluMlp,
    norm_mlp: RmsNorm,
}

#[derive(Module, Debug)]
pub struct Block {
    layers: Vec<Layer>,
    rope: Rope,
}

impl BlockConfig {
    pub fn init(&self, device: &Device) -> Block {
        let layers = (0..self.n_layers)
            .map(|_| Layer {
                attn: AttentionConfig::new(self.d_model, self.n_heads).init(device),
                norm_attn: RmsNormConfig::new(self.d_model).init(device),
                mlp: SwiGluMlpConfig::new(self.d_model, self.d_hidden, self.d_model).init(device),
                norm_mlp: RmsNormConfig::new(self.d_model).init(device),
            })
            .collect();
        let rope = RopeConfig::new(self.seq_len, self.d_model / self.n_heads)
            .with_grid_cols(self.grid_cols)
            .with_triangle(self.triangle)
            .init(device);
        Block { layers, rope }
    }
}

impl Block {
    /// Applies the block to `state + injection` (the caller sums what it injects).
    ///
    /// # Shapes
    /// - x: `[B, L, D]` -> `[B, L, D]`
    pub fn forward(&self, mut x: Tensor<3>) -> Tensor<3> {
        for layer in &self.layers {
            x = layer.norm_attn.forward(x.clone() + layer.attn.forward(x, &self.rope));
            x = layer.norm_mlp.forward(x.clone() + layer.mlp.forward(x));
        }
        x
    }

    /// The same function with `d_hidden` MLP units in every layer ([`SwiGluMlp::widened`]).
    pub fn widened(self, d_hidden: usize, device: &Device) -> Result<Self, String> {
        let layers = self
            .layers
            .into_iter()
            .map(|l| Ok(Layer { attn: l.attn, norm_attn: l.norm_attn, mlp: l.mlp.widened(d_hidden, device)?, norm_mlp: l.norm_mlp }))
            .collect::<Result<_, String>>()?;
        Ok(Block { layers, rope: self.rope })
    }
}
