//! Multi-head self-attention with rotary position embeddings (RoPE, Su et al. 2024), bidirectional
//! (puzzles see the whole board).

use burn::config::Config;
use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::{Device, Tensor, activation::softmax};

use super::Rope;

#[derive(Config, Debug)]
pub struct AttentionConfig {
    /// Model width D.
    pub d_model: usize,
    /// Number of heads; D must be divisible by it.
    pub n_heads: usize,
}

#[derive(Module, Debug)]
pub struct Attention {
    qkv: Linear,
    out: Linear,
    n_heads: usize,
}

impl AttentionConfig {
    pub fn init(&self, device: &Device) -> Attention {
        assert_eq!(self.d_model % self.n_heads, 0, "d_model must be divisible by n_heads");
        let lin = |i, o| LinearConfig::new(i, o).with_bias(false).init(device);
        Attention { qkv: lin(self.d_model, 3 * self.d_model), out: lin(self.d_model, self.d_model), n_heads: self.n_heads }
    }
}

impl Attention {
    /// # Shapes
    /// - x: `[B, L, D]` -> `[B, L, D]`; `rope` has `d_head = D / n_heads`.
    pub fn forward(&self, x: Tensor<3>, rope: &Rope) -> Tensor<3> {
        let [b, l, d] = x.dims();
        let h = self.n_heads;
        let dh = d / h;
        let qkv = self.qkv.forward(x).reshape([b, l, 3, h, dh]); // [B, L, 3, H, Dh]
        let head = |i: usize| {
            qkv.clone()
                .slice([0..b, 0..l, i..i + 1, 0..h, 0..dh])
                .reshape([b, l, h, dh]) // [B, L, H, Dh]
                .swap_dims(1, 2) // [B, H, L, Dh]
        };
        let q = rope.forward(head(0));
        let k = rope.forward(head(1));
        let v = head(2);
        let scores = q.matmul(k.swap_dims(2, 3)) / (dh as f64).sqrt(); // [B, H, L, L]
        let mixed = softmax(scores, 3).matmul(v); // [B, H, L, Dh]
        self.out.forward(mixed.swap_dims(1, 2).reshape([b, l, d])) // [B, L, D]
    }
}
