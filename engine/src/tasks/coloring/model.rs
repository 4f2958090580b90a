//! The GRAM/TRM model configs sized for graph colouring: the paper's [SwiGLU + SwiGLU] mixer core
//! over the n(n+1)/2 token positions, as the shipped N-Queens and Sudoku models, and the paper's
//! attention core at the same width for comparison.

use super::graph::{VOCAB, seq_len};
use crate::gram::GramConfig;

/// GRAM (`guidance`) or TRM on `n`-vertex graphs. beta 0.5, the paper's Table 8 value for graph
/// colouring (0.5 / 0.45 for 8 / 10 vertices).
pub fn gram_config(n: usize, guidance: bool) -> GramConfig {
    let l = seq_len(n);
    GramConfig::new(l, VOCAB).with_guidance(guidance).with_mixer(true).with_d_token_hidden(4 * l).with_beta(if n >= 10 {
        0.45
    } else {
        0.5
    })
}

/// The same network with the paper's attention core (appendix D.2) instead of the mixer, 4 heads
/// of 16 at D = 64, and RoPE over each token's (row, column) in the adjacency matrix
/// (`GramConfig::triangle`): a token (i, j) and the diagonal tokens (i, i) and (j, j) that carry
/// the two vertices' colours are same-row and same-column offsets. Deviation: the paper's RoPE is
/// 1-D, on which the triangle's row boundaries are invisible.
pub fn gram_attention_config(n: usize, guidance: bool) -> GramConfig {
    gram_config(n, guidance).with_mixer(false).with_triangle(Some(n))
}
