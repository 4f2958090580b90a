//! The GRAM/TRM model config sized for Sudoku.

use super::{CELLS, VOCAB};
use crate::gram::GramConfig;

/// The Sudoku model (the GRAM paper, appendix D.1): the [SwiGLU + SwiGLU] mixer core and K = 6, as
/// the paper. Width, T, N_sup and beta are sized for this machine's CPU (see each field):
/// D = 128 (paper 512), T = 2 (paper 3), N_sup = 8 (paper 16). beta: Sudoku has one answer
/// per puzzle, so eps has nothing to choose between solutions. Measured: at beta 0.1 the
/// posterior carried the answer (step 500: 59% of training answers right under q, 0% of
/// held-out puzzles under the prior, KL rising to 5.8); 2.0 makes copying y through eps cost
/// more than it saves, as the N-Queens runs needed in the end (beta 2.0 from step 4,750).
pub fn gram_config(guidance: bool) -> GramConfig {
    GramConfig::new(CELLS, VOCAB)
        .with_guidance(guidance)
        .with_mixer(true)
        .with_d_token_hidden(2 * CELLS)
        .with_d_model(128)
        .with_d_hidden(256)
        .with_d_guidance(128)
        .with_k_inner(6)
        .with_t_outer(2)
        .with_beta(2.0)
}
