//! The GRAM/TRM model config for digits: the image path with 4x4 patches (7 x 7 = 49 latent
//! positions; the paper's 2x2 gives 196, four times the attention positions, sized for its GPUs)
//! and the attention core with 2-D RoPE over the patch grid.

use super::{PIXELS, SIDE, VOCAB};
use crate::gram::GramConfig;

/// Patch side of the shipped digits models.
pub const PATCH: usize = 4;

/// GRAM when `guidance`, else TRM. beta 0.07 is the paper's MNIST value (Table 8); on our scale
/// (CE averaged over 784 pixels, KL over 49 patch positions) it weighs the KL at 0.07 x 16 = 1.1
/// per bit of the image's own ELBO, i.e. close to the plain ELBO of a VAE.
pub fn gram_config(guidance: bool) -> GramConfig {
    GramConfig::new(PIXELS, VOCAB)
        .with_guidance(guidance)
        .with_image_side(SIDE)
        .with_patch(PATCH)
        .with_grid_cols(SIDE / PATCH)
        .with_beta(0.07)
}
