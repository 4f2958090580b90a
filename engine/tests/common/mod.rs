//! What the GRAM/TRM behaviour tests share: a tiny model on the 4x4 board.

use engine::gram::GramConfig;

/// A GRAM (`guidance`) or TRM small enough to run in milliseconds.
pub fn tiny(guidance: bool) -> GramConfig {
    GramConfig::new(16, 3)
        .with_d_model(16)
        .with_d_hidden(32)
        .with_d_guidance(32)
        .with_n_heads(2)
        .with_grid_cols(4)
        .with_guidance(guidance)
}
