//! SwiGLU MLP (Shazeer, 2020): `down(silu(gate(x)) * up(x))`, no biases.

use burn::config::Config;
use burn::module::Module;
use burn::nn::{Initializer, Linear, LinearConfig};
use burn::tensor::{Device, Tensor};

use super::swiglu_op::swiglu;

#[derive(Config, Debug)]
pub struct SwiGluMlpConfig {
    /// Input width.
    pub d_input: usize,
    /// Hidden width of the gated layer.
    pub d_hidden: usize,
    /// Output width.
    pub d_output: usize,
    /// Start the output projection at zero, so the MLP outputs 0 until training moves it (used
    /// by GRAM's guidance heads: see `gram::guidance`).
    #[config(default = false)]
    pub zero_output: bool,
}

#[derive(Module, Debug)]
pub struct SwiGluMlp {
    gate: Linear,
    up: Linear,
    down: Linear,
}

impl SwiGluMlpConfig {
    pub fn init(&self, device: &Device) -> SwiGluMlp {
        let lin = |i, o| LinearConfig::new(i, o).with_bias(false);
        let down = lin(self.d_hidden, self.d_output);
        let down = if self.zero_output { down.with_initializer(Initializer::Zeros) } else { down };
        SwiGluMlp {
            gate: lin(self.d_input, self.d_hidden).init(device),
            up: lin(self.d_input, self.d_hidden).init(device),
            down: down.init(device),
        }
    }
}

impl SwiGluMlp {
    /// # Shapes
    /// - x: `[..., d_input]` -> `[..., d_output]`
    pub fn forward<const D: usize>(&self, x: Tensor<D>) -> Tensor<D> {
        let gated = swiglu(self.gate.forward(x.clone()), self.up.forward(x)); // silu(gate) * up, [..., d_hidden]
        self.down.forward(gated)
    }
}
