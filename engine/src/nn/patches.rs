//! The GRAM paper's image path (appendix D.1, "Encoder and Decoder for Image Patches", Table 4): a
//! square binary image of S x S pixel tokens (1 = black, 2 = white; 0, the pad, reads as black)
//! becomes (S/P)^2 latent positions, one per P x P patch, and back.
//!
//! ```text
//! encoder:  x in {0,1} -> [-1, 1] -> [Conv2d 5x5 (pad 2) -> SiLU -> GroupNorm] x 2  (D/2 channels)
//!           -> patchify (P x P x D/2 per patch) -> Linear -> D          [B, S*S] -> [B, Np, D]
//! decoder:  h [B, Np, D] -> Linear -> P*P*V logits per patch -> unpatchify -> [B, S*S, V]
//! target:   y's pixels patchified (P*P values in [-1, 1]) -> Linear -> D (the posterior's view)
//! ```
//!
//! The target view is ours: the paper says the posterior reads y, not how an image y is embedded;
//! a linear patch embedding is the image analogue of the token path's embedding table, and costs
//! no convolution per transition.

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::{GroupNorm, GroupNormConfig, Linear, LinearConfig, PaddingConfig2d};
use burn::tensor::activation::silu;
use burn::tensor::{Device, Int, Tensor};

/// Pixel tokens `[B, S*S]` as values in [-1, 1] shaped `[B, S, S]` (white 1, anything else -1).
fn pixels(x: Tensor<2, Int>, side: usize) -> Tensor<3> {
    let b = x.dims()[0];
    let white = x.equal_elem(2).float(); // [B, S*S], 1 where white
    (white * 2.0 - 1.0).reshape([b, side, side])
}

/// `[B, C, S, S]` -> `[B, Np, P*P*C]`, patches row-major, each patch's pixels row-major then channel.
fn patchify(image: Tensor<4>, patch: usize) -> Tensor<3> {
    let [b, c, s, _] = image.dims();
    let n = s / patch;
    image
        .reshape([b, c, n, patch, n, patch]) // [B, C, row, dy, col, dx]
        .permute([0, 2, 4, 3, 5, 1]) // [B, row, col, dy, dx, C]
        .reshape([b, n * n, patch * patch * c])
}

/// `[B, Np, P*P*V]` -> `[B, S*S, V]`: the inverse of [`patchify`]'s layout, pixels row-major.
pub fn unpatchify(patches: Tensor<3>, side: usize, patch: usize) -> Tensor<3> {
    let [b, _, width] = patches.dims();
    let v = width / (patch * patch);
    let n = side / patch;
    patches
        .reshape([b, n, n, patch, patch, v]) // [B, row, col, dy, dx, V]
        .permute([0, 1, 3, 2, 4, 5]) // [B, row, dy, col, dx, V]
        .reshape([b, side * side, v])
}

/// The convolutional patch encoder of Table 4.
#[derive(Module, Debug)]
pub struct PatchEncoder {
    conv1: Conv2d,
    norm1: GroupNorm,
    conv2: Conv2d,
    norm2: GroupNorm,
    project: Linear,
    side: usize,
    patch: usize,
}

impl PatchEncoder {
    /// `side` x `side` images in `patch` x `patch` patches, to width `d_model`. The paper's GN(32)
    /// takes min(32, D/2) groups so a narrow model still divides its channels evenly.
    pub fn init(side: usize, patch: usize, d_model: usize, device: &Device) -> Self {
        assert!(patch > 0 && side.is_multiple_of(patch), "a {side}x{side} image does not split into {patch}x{patch} patches");
        let c = d_model / 2;
        let conv = |i| Conv2dConfig::new([i, c], [5, 5]).with_padding(PaddingConfig2d::Explicit(2, 2, 2, 2)).init(device);
        let groups = (1..=32.min(c)).rev().find(|g| c.is_multiple_of(*g)).expect("1 divides");
        let norm = || GroupNormConfig::new(groups, c).init(device);
        PatchEncoder {
            conv1: conv(1),
            norm1: norm(),
            conv2: conv(c),
            norm2: norm(),
            project: LinearConfig::new(patch * patch * c, d_model).init(device),
            side,
            patch,
        }
    }

    /// # Shapes: x `[B, S*S]` pixel tokens -> `[B, Np, D]`.
    pub fn forward(&self, x: Tensor<2, Int>) -> Tensor<3> {
        let b = x.dims()[0];
        let image = pixels(x, self.side).reshape([b, 1, self.side, self.side]); // [B, 1, S, S]
        let a = self.norm1.forward(silu(self.conv1.forward(image))); // [B, D/2, S, S]
        let a = self.norm2.forward(silu(self.conv2.forward(a))); // [B, D/2, S, S]
        self.project.forward(patchify(a, self.patch)) // [B, Np, D]
    }
}

/// The posterior's view of a target image: each patch's pixels, linearly embedded.
#[derive(Module, Debug)]
pub struct PatchEmbed {
    project: Linear,
    side: usize,
    patch: usize,
}

impl PatchEmbed {
    pub fn init(side: usize, patch: usize, d_model: usize, device: &Device) -> Self {
        PatchEmbed { project: LinearConfig::new(patch * patch, d_model).init(device), side, patch }
    }

    /// # Shapes: y `[B, S*S]` pixel tokens -> `[B, Np, D]`.
    pub fn forward(&self, y: Tensor<2, Int>) -> Tensor<3> {
        let b = y.dims()[0];
        let image = pixels(y, self.side).reshape([b, 1, self.side, self.side]);
        self.project.forward(patchify(image, self.patch))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::ReadBack;
    use burn::tensor::TensorData;

    /// Patchify then unpatchify is the identity on pixel order: pixel (r, c) lands in patch
    /// (r/P, c/P) at offset (r%P, c%P), and comes back to r*S + c.
    #[test]
    fn unpatchify_inverts_patchify_and_patches_are_spatial() {
        let device = Device::flex();
        let (s, p) = (8, 4);
        let values: Vec<f32> = (0..s * s).map(|i| i as f32).collect();
        let image = Tensor::<4>::from_data(TensorData::new(values.clone(), [1, 1, s, s]), &device);
        let patches = patchify(image, p); // [1, 4, 16]
        let flat: Vec<f32> = patches.clone().floats().unwrap();
        // patch 1 is the top-right 4x4 block: its first row is pixels 4..8 of row 0
        assert_eq!(&flat[16..20], &[4.0, 5.0, 6.0, 7.0]);
        // patch 2 starts at row 4, column 0
        assert_eq!(flat[32], 32.0);
        let back: Vec<f32> = unpatchify(patches, s, p).floats().unwrap();
        assert_eq!(back, values);
    }

    #[test]
    fn the_encoder_maps_pixel_tokens_to_one_state_per_patch() {
        let device = Device::flex();
        let encoder = PatchEncoder::init(28, 4, 16, &device);
        let x = Tensor::<2, Int>::from_data(TensorData::new(vec![1i64; 2 * 784], [2, 784]), &device);
        assert_eq!(encoder.forward(x.clone()).dims(), [2, 49, 16]);
        let embed = PatchEmbed::init(28, 4, 16, &device);
        assert_eq!(embed.forward(x).dims(), [2, 49, 16]);
    }
}
