//! The GRAM/TRM model configs sized for graph colouring: the paper's [SwiGLU + SwiGLU] mixer core
//! over the n(n+1)/2 token positions, as the shipped N-Queens and Sudoku models.

use super::graph::{VOCAB, seq_len};
use crate::gram::GramConfig;

/// GRAM (`guidance`) or TRM on `n`-vertex graphs. beta 0.5, the paper's Table 8 value for graph
/// colouring (0.5 / 0.45 for 8 / 10 vertices).
pub fn gram_config(n: usize, guidance: bool) -> GramConfig {
    let l = seq_len(n);
    GramConfig::new(l, VOCAB)
        .with_guidance(guidance)
        .with_mixer(true)
        .with_d_token_hidden(4 * l)
        .with_beta(if n >= 10 { 0.45 } else { 0.5 })
}
