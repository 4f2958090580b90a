//! What the engine's integration tests share: a tiny model on the 4x4 board, and where the
//! shipped weights are. Each test binary uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;

use engine::gram::GramConfig;

/// `public/weights` of the checkout the tests run in: cargo's run-time `CARGO_MANIFEST_DIR`, so a
/// test binary built in another checkout of a shared target directory still reads this one's
/// files (the compile-time value otherwise).
pub fn shipped_dir() -> PathBuf {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into());
    PathBuf::from(manifest_dir).join("../public/weights")
}

/// A GRAM (`guidance`) or TRM small enough to run in milliseconds.
pub fn tiny(guidance: bool) -> GramConfig {
    GramConfig::new(16, 3).with_d_model(16).with_d_hidden(32).with_d_guidance(32).with_n_heads(2).with_grid_cols(4).with_guidance(guidance)
}
