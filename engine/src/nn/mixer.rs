//! The MLP-mixer variant of the recursive core (the GRAM paper, appendix D.1: for Sudoku GRAM follows
//! TRM and replaces self-attention by an MLP over the sequence): `n_layers` x [token-mixing
//! SwiGLU across the L positions + channel SwiGLU], post-norm with RMSNorm like [`super::Block`].
//! A fixed-length grid needs no positions: the token-mixing weights are indexed by cell, so they
//! learn which cells see each other (row, column, box) directly.

use burn::config::Config;
use burn::module::Module;
use burn::nn::{RmsNorm, RmsNormConfig};
use burn::tensor::{Device, Tensor};

use super::{SwiGluMlp, SwiGluMlpConfig};

#[derive(Config, Debug)]
pub struct MixerBlockConfig {
    /// Model width D.
    pub d_model: usize,
    /// Hidden width of the channel SwiGLU.
    pub d_hidden: usize,
    /// Sequence length L (the token-mixing MLP maps L -> L).
    pub seq_len: usize,
    /// Hidden width of the token-mixing SwiGLU.
    pub d_token_hidden: usize,
    /// Layers per block (the paper: 2).
    pub n_layers: usize,
}

#[derive(Module, Debug)]
pub struct MixerLayer {
    token: SwiGluMlp,
    norm_token: RmsNorm,
    channel: SwiGluMlp,
    norm_channel: RmsNorm,
}

#[derive(Module, Debug)]
pub struct MixerBlock {
    layers: Vec<MixerLayer>,
}

impl MixerBlockConfig {
    pub fn init(&self, device: &Device) -> MixerBlock {
        let layers = (0..self.n_layers)
            .map(|_| MixerLayer {
                token: SwiGluMlpConfig::new(self.seq_len, self.d_token_hidden, self.seq_len).init(device),
                norm_token: RmsNormConfig::new(self.d_model).init(device),
                channel: SwiGluMlpConfig::new(self.d_model, self.d_hidden, self.d_model).init(device),
                norm_channel: RmsNormConfig::new(self.d_model).init(device),
            })
            .collect();
        MixerBlock { layers }
    }
}

impl MixerBlock {
    /// Applies the block to `state + injection` (the caller sums what it injects).
    ///
    /// # Shapes
    /// - x: `[B, L, D]` -> `[B, L, D]`
    pub fn forward(&self, mut x: Tensor<3>) -> Tensor<3> {
        for layer in &self.layers {
            let mixed = layer.token.forward(x.clone().swap_dims(1, 2)).swap_dims(1, 2); // [B, D, L] -> [B, L, D]
            x = layer.norm_token.forward(x + mixed);
            x = layer.norm_channel.forward(x.clone() + layer.channel.forward(x));
        }
        x
    }

    /// The same function with wider MLPs ([`SwiGluMlp::widened`]): `d_hidden` channel units and
    /// `d_token_hidden` token units in every layer.
    pub fn widened(self, d_hidden: usize, d_token_hidden: usize, device: &Device) -> Result<Self, String> {
        let layers = self
            .layers
            .into_iter()
            .map(|l| {
                Ok(MixerLayer {
                    token: l.token.widened(d_token_hidden, device)?,
                    norm_token: l.norm_token,
                    channel: l.channel.widened(d_hidden, device)?,
                    norm_channel: l.norm_channel,
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(MixerBlock { layers })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::ReadBack;
    use burn::tensor::Distribution;

    /// Token mixing is what lets cells talk: changing one cell changes the others' outputs,
    /// and only through the token MLP (the channel MLP is per cell).
    #[test]
    fn a_cell_reaches_the_others_and_rows_stay_normalised() {
        let device = Device::flex();
        let block = MixerBlockConfig::new(8, 16, 5, 10, 2).init(&device);
        let x = Tensor::<3>::random([1, 5, 8], Distribution::Normal(0.0, 1.0), &device);
        let mut bumped = x.clone().floats().unwrap();
        bumped[0] += 1.0; // cell 0, channel 0
        let y0 = block.forward(x);
        let y1 = block.forward(Tensor::<3>::from_data(burn::tensor::TensorData::new(bumped, [1, 5, 8]), &device));
        let diff: Vec<f32> = (y1 - y0.clone()).abs().floats().unwrap();
        assert!(diff[4 * 8..5 * 8].iter().any(|&d| d > 1e-4), "cell 4 must see cell 0");
        // Post-norm: each cell's state has RMS ~1 (RmsNorm's gain starts at 1).
        let rms: Vec<f32> = y0.powf_scalar(2.0).mean_dim(2).sqrt().floats().unwrap();
        assert!(rms.iter().all(|r| (r - 1.0).abs() < 1e-2), "{rms:?}");
    }
}
