//! SwiGLU MLP (Shazeer, 2020): `down(silu(gate(x)) * up(x))`, no biases.

use burn::config::Config;
use burn::module::{Module, Param};
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

    /// Hidden units of the gated layer.
    pub fn d_hidden(&self) -> usize {
        self.gate.weight.dims()[1]
    }

    /// The same function with `d_hidden` hidden units (function-preserving widening, as
    /// Net2WiderNet: T. Chen, I. Goodfellow, J. Shlens, "Net2Net", arXiv:1511.05641): the first
    /// units are this MLP's; the new ones take a fresh initialisation's gate and up and a zero
    /// row of the down projection, so the output is exactly what it was until training moves
    /// them (their down rows get gradients at once, as `silu(gate) * up` is not zero). Fewer
    /// units than now is a sentence.
    pub fn widened(self, d_hidden: usize, device: &Device) -> Result<Self, String> {
        let [d_input, now] = self.gate.weight.dims();
        let d_output = self.down.weight.dims()[1];
        if d_hidden < now {
            return Err(format!("a SwiGLU MLP widens only: {now} hidden units, asked for {d_hidden}"));
        }
        if d_hidden == now {
            return Ok(self);
        }
        let fresh = SwiGluMlpConfig::new(d_input, d_hidden - now, d_output).init(device);
        // Detached: on an autodiff device the concatenation is not a leaf, and a parameter must be.
        let linear = |weight: Tensor<2>| Linear { weight: Param::from_tensor(weight.detach()), bias: None };
        Ok(SwiGluMlp {
            gate: linear(Tensor::cat(vec![self.gate.weight.val(), fresh.gate.weight.val()], 1)),
            up: linear(Tensor::cat(vec![self.up.weight.val(), fresh.up.weight.val()], 1)),
            down: linear(Tensor::cat(vec![self.down.weight.val(), Tensor::zeros([d_hidden - now, d_output], device)], 0)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::Distribution;

    /// Widening keeps the function exactly and adds trainable units; narrowing is refused.
    #[test]
    fn a_widened_mlp_computes_the_same_function() {
        let device = Device::flex();
        let mlp = SwiGluMlpConfig::new(6, 8, 5).init(&device);
        let x = Tensor::<2>::random([4, 6], Distribution::Normal(0.0, 1.0), &device);
        let before: Vec<f32> = mlp.forward(x.clone()).into_data().try_to_vec().unwrap();
        let wide = mlp.clone().widened(20, &device).unwrap();
        assert_eq!(wide.d_hidden(), 20);
        let after: Vec<f32> = wide.forward(x).into_data().try_to_vec().unwrap();
        assert!(before.iter().zip(&after).all(|(a, b)| (a - b).abs() < 1e-6), "{before:?} vs {after:?}");
        let new_gate: Vec<f32> = wide.gate.weight.val().slice([0..6, 8..20]).into_data().try_to_vec().unwrap();
        assert!(new_gate.iter().any(|&w| w != 0.0), "the new units start from a fresh initialisation");
        assert!(mlp.widened(4, &device).unwrap_err().contains("widens only"));
    }
}
