//! The SwiGLU activation `silu(gate) * up` as one fused operation on the flex (CPU) backend,
//! through burn's backend-extension mechanism, with a hand-written backward pass.
//!
//! Composed from burn's ops it is a sigmoid, two multiplies and, under autodiff, five saved
//! intermediates and a chain of backward ops over the widest activations of the network (the
//! SwiGLU hidden layer); fused it is one pass forward and one backward (third_party
//! burn-flex `ops::gated`). The forward gives the same bits as the composition, so shipped
//! weights' outputs do not change; the backward is the exact derivative, rounded differently.
//! Other backends (wgpu, WebGPU) keep the composition: the extension is only routed to flex.

use burn::backend::autodiff::Autodiff;
use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::ops::{ActivationOps, FloatTensorOps};
use burn::backend::tensor::FloatTensor;
use burn::backend::{Dispatch, DispatchDevice, Flex, backend_extension};
use burn::tensor::{Tensor, activation::silu};

/// The fused SwiGLU activation of a backend.
#[backend_extension(Flex, Autodiff)]
pub trait SwiGluOps: burn::backend::Backend {
    /// `silu(gate) * up`, elementwise; both operands of one shape.
    fn swiglu(gate: FloatTensor<Self>, up: FloatTensor<Self>) -> FloatTensor<Self>;
}

/// `silu(g) * u` from flex's own ops: for operands the fused kernel declines (strided, f64).
fn composed(gate: FloatTensor<Flex>, up: FloatTensor<Flex>) -> FloatTensor<Flex> {
    let silu = Flex::float_mul(gate.clone(), Flex::sigmoid(gate));
    Flex::float_mul(silu, up)
}

impl SwiGluOps for Flex {
    fn swiglu(gate: FloatTensor<Self>, up: FloatTensor<Self>) -> FloatTensor<Self> {
        burn_flex::ops::gated::swiglu_f32(&gate, &up).unwrap_or_else(|| composed(gate, up))
    }
}

/// Saves the two inputs; the backward pass reads them and the output's gradient once.
#[derive(Debug)]
struct SwiGluBackward;

impl Backward<Flex, 2> for SwiGluBackward {
    type State = (FloatTensor<Flex>, FloatTensor<Flex>);

    fn backward(self, ops: Ops<Self::State, 2>, grads: &mut Gradients, _checkpointer: &mut Checkpointer) {
        let [node_gate, node_up] = ops.parents;
        let grad = grads.consume::<Flex>(&ops.node);
        let (gate, up) = ops.state;
        let (d_gate, d_up) =
            burn_flex::ops::gated::swiglu_backward_f32(&gate, &up, &grad).unwrap_or_else(|| composed_backward(gate, up, grad));
        if let Some(node) = node_gate {
            grads.register::<Flex>(node.id, d_gate);
        }
        if let Some(node) = node_up {
            grads.register::<Flex>(node.id, d_up);
        }
    }
}

/// `d_gate = grad * u * s (1 + g (1 - s))`, `d_up = grad * g s`, `s = sigmoid(g)`, from flex's ops.
fn composed_backward(gate: FloatTensor<Flex>, up: FloatTensor<Flex>, grad: FloatTensor<Flex>) -> (FloatTensor<Flex>, FloatTensor<Flex>) {
    let s = Flex::sigmoid(gate.clone());
    let silu = Flex::float_mul(gate.clone(), s.clone());
    let d_up = Flex::float_mul(grad.clone(), silu);
    let one_minus_s = Flex::float_add_scalar(Flex::float_neg(s.clone()), 1.0.into());
    let inner = Flex::float_add_scalar(Flex::float_mul(gate, one_minus_s), 1.0.into());
    let d_gate = Flex::float_mul(Flex::float_mul(grad, up), Flex::float_mul(s, inner));
    (d_gate, d_up)
}

impl<C: CheckpointStrategy> SwiGluOps for Autodiff<Flex, C> {
    fn swiglu(gate: FloatTensor<Self>, up: FloatTensor<Self>) -> FloatTensor<Self> {
        match SwiGluBackward.prepare::<C>([gate.node(), up.node()]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => {
                let (g, u) = (gate.primitive().clone(), up.primitive().clone());
                let output = Flex::swiglu(g.clone(), u.clone());
                prep.finish((g, u), output)
            }
            OpsKind::UnTracked(prep) => prep.finish(Flex::swiglu(gate.into_primitive(), up.into_primitive())),
        }
    }
}

/// `silu(gate) * up`: the fused operation on flex (with or without autodiff), burn's
/// composition on any other backend.
pub fn swiglu<const D: usize>(gate: Tensor<D>, up: Tensor<D>) -> Tensor<D> {
    if matches!(gate.device().inner().as_dispatch(), DispatchDevice::Flex(_)) {
        Tensor::from_dispatch(<Dispatch as SwiGluOps>::swiglu(gate.into_dispatch(), up.into_dispatch()))
    } else {
        silu(gate) * up
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::{Device, Distribution, Tolerance};

    /// On flex with autodiff: the fused forward has the composition's bits, and the gradients
    /// reaching both operands match the ones burn derives for the composition. 40,000
    /// elements, so the kernel's chunk-parallel path runs too.
    #[test]
    fn fused_forward_and_gradients_match_burns_composition() {
        let device = Device::flex().autodiff();
        let normal = |scale: f64| Tensor::<2>::random([2, 20_000], Distribution::Normal(0.0, scale), &device);
        let (g, u, w) = (normal(3.0), normal(1.0), normal(1.0));

        let run = |fused: bool| {
            let (g, u) = (g.clone().detach().require_grad(), u.clone().detach().require_grad());
            let y = if fused { swiglu(g.clone(), u.clone()) } else { silu(g.clone()) * u.clone() };
            let grads = (y.clone() * w.clone()).sum().backward();
            (y.inner().into_data(), g.grad(&grads).unwrap().into_data(), u.grad(&grads).unwrap().into_data())
        };
        let (y_fused, dg_fused, du_fused) = run(true);
        let (y_composed, dg_composed, du_composed) = run(false);
        y_fused.assert_eq(&y_composed, true);
        dg_fused.assert_approx_eq::<f32>(&dg_composed, Tolerance::rel_abs(1e-5, 1e-6));
        du_fused.assert_approx_eq::<f32>(&du_composed, Tolerance::rel_abs(1e-5, 1e-6));
    }

    /// Without autodiff (sampling), and on a strided view the kernel declines: same values.
    #[test]
    fn inference_and_strided_operands_give_the_composition() {
        let device = Device::flex();
        let g = Tensor::<3>::random([4, 5, 6], Distribution::Normal(0.0, 2.0), &device);
        let u = Tensor::<3>::random([4, 6, 5], Distribution::Normal(0.0, 1.0), &device).swap_dims(1, 2);
        let fused = swiglu(g.clone(), u.clone()).into_data();
        let composed = (silu(g) * u).into_data();
        fused.assert_eq(&composed, true);
    }
}
