//! Fused SwiGLU activation, `silu(gate) * up`, and its backward pass, for f32 (a
//! latent-reasoning-playground patch, see third_party/README.md of that project).
//!
//! Composed from burn's ops, `silu(g) * u` is a sigmoid pass, a multiply and another multiply,
//! each writing a fresh tensor; under autodiff every intermediate is kept for the backward
//! pass, which is a chain of further multiplies, a sigmoid backward and a gradient sum. In a
//! SwiGLU network these passes over the widest activations cost as much memory traffic as the
//! matmuls cost arithmetic. Here the forward is one pass (read g and u, write the output) and
//! the backward one pass (read g, u and the output gradient, write both input gradients).
//!
//! The forward computes `(g * sigmoid(g)) * u` in the order burn's composition does, with the
//! same vectorised sigmoid ([`super::fast_math::sigmoid_approx`]), so its output has the same
//! bits as `silu(g) * u` on this backend. The backward is the exact derivative,
//! `d_up = grad * g s` and `d_gate = grad * u * s (1 + g (1 - s))` with `s = sigmoid(g)`.
//!
//! Each kernel is compiled for AVX-512F, AVX2 and baseline x86-64 and the widest the CPU has
//! is picked at run time (plain multiplies and adds, so the same bits on every path); with the
//! `rayon` feature, tensors of at least two chunks run chunk-parallel on the current pool.

use alloc::vec::Vec;
use core::mem::MaybeUninit;

use super::fast_math::sigmoid_approx;
use crate::{FlexTensor, Layout};
use burn_backend::DType;

/// Elements per parallel task (the tests use it without rayon too).
#[cfg_attr(not(feature = "rayon"), allow(dead_code))]
const CHUNK: usize = 16 * 1024;

#[inline(always)]
fn forward_kernel(g: &[f32], u: &[f32], out: &mut [MaybeUninit<f32>]) {
    for ((o, &g), &u) in out.iter_mut().zip(g).zip(u) {
        o.write((g * sigmoid_approx(g)) * u);
    }
}

#[inline(always)]
fn backward_kernel(
    g: &[f32],
    u: &[f32],
    d: &[f32],
    dg: &mut [MaybeUninit<f32>],
    du: &mut [MaybeUninit<f32>],
) {
    for ((((dg, du), &g), &u), &d) in dg.iter_mut().zip(du.iter_mut()).zip(g).zip(u).zip(d) {
        let s = sigmoid_approx(g);
        du.write(d * (g * s));
        dg.write(d * u * (s * (1.0 + g * (1.0 - s))));
    }
}

/// Runs `$kernel($args)` with the widest vector instructions this CPU has.
macro_rules! widest {
    ($kernel:ident($($arg:ident: $ty:ty),*)) => {{
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        {
            #[target_feature(enable = "avx512f")]
            unsafe fn avx512($($arg: $ty),*) {
                $kernel($($arg),*)
            }
            #[target_feature(enable = "avx2")]
            unsafe fn avx2($($arg: $ty),*) {
                $kernel($($arg),*)
            }
            if std::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F (checked on the line above).
                unsafe { avx512($($arg),*) }
            } else if std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked on the line above).
                unsafe { avx2($($arg),*) }
            } else {
                $kernel($($arg),*)
            }
        }
        #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
        {
            $kernel($($arg),*)
        }
    }};
}

fn forward_slices(g: &[f32], u: &[f32], out: &mut [MaybeUninit<f32>]) {
    widest!(forward_kernel(g: &[f32], u: &[f32], out: &mut [MaybeUninit<f32>]))
}

fn backward_slices(
    g: &[f32],
    u: &[f32],
    d: &[f32],
    dg: &mut [MaybeUninit<f32>],
    du: &mut [MaybeUninit<f32>],
) {
    widest!(backward_kernel(
        g: &[f32],
        u: &[f32],
        d: &[f32],
        dg: &mut [MaybeUninit<f32>],
        du: &mut [MaybeUninit<f32>]
    ))
}

/// The f32 elements of a contiguous tensor, or None (another dtype, or a strided view).
fn contiguous_f32(t: &FlexTensor) -> Option<&[f32]> {
    if t.dtype() != DType::F32 || !t.layout().is_contiguous() {
        return None;
    }
    let start = t.layout().start_offset();
    let n = t.layout().num_elements();
    Some(&t.storage::<f32>()[start..start + n])
}

/// `n` elements written by `fill` (every element exactly once) into a fresh buffer.
fn fresh(n: usize, fill: impl FnOnce(&mut [MaybeUninit<f32>])) -> Vec<f32> {
    let mut out = Vec::<f32>::with_capacity(n);
    fill(&mut out.spare_capacity_mut()[..n]);
    // SAFETY: `fill` initialised all n elements (the kernels write every output element).
    unsafe { out.set_len(n) };
    out
}

fn tensor(data: Vec<f32>, like: &FlexTensor) -> FlexTensor {
    FlexTensor::new(
        burn_std::Bytes::from_elems(data),
        Layout::contiguous(like.layout().shape().clone()),
        DType::F32,
    )
}

/// `silu(gate) * up` in one pass, or None when the operands are not contiguous f32 tensors of
/// one shape (the caller then composes burn's ops).
pub fn swiglu_f32(gate: &FlexTensor, up: &FlexTensor) -> Option<FlexTensor> {
    if gate.layout().shape() != up.layout().shape() {
        return None;
    }
    let (g, u) = (contiguous_f32(gate)?, contiguous_f32(up)?);
    let out = fresh(g.len(), |out| {
        #[cfg(feature = "rayon")]
        if g.len() >= 2 * CHUNK {
            use rayon::prelude::*;
            out.par_chunks_mut(CHUNK)
                .zip(g.par_chunks(CHUNK).zip(u.par_chunks(CHUNK)))
                .for_each(|(o, (g, u))| forward_slices(g, u, o));
            return;
        }
        forward_slices(g, u, out)
    });
    Some(tensor(out, gate))
}

/// The gradients `(d_gate, d_up)` of `silu(gate) * up` for the output gradient `grad`, in one
/// pass, or None when the operands are not contiguous f32 tensors of one shape.
pub fn swiglu_backward_f32(
    gate: &FlexTensor,
    up: &FlexTensor,
    grad: &FlexTensor,
) -> Option<(FlexTensor, FlexTensor)> {
    let shape = gate.layout().shape();
    if up.layout().shape() != shape || grad.layout().shape() != shape {
        return None;
    }
    let (g, u, d) = (contiguous_f32(gate)?, contiguous_f32(up)?, contiguous_f32(grad)?);
    let mut du = Vec::<f32>::with_capacity(g.len());
    let dg = fresh(g.len(), |dg| {
        let du = &mut du.spare_capacity_mut()[..g.len()];
        #[cfg(feature = "rayon")]
        if g.len() >= 2 * CHUNK {
            use rayon::prelude::*;
            dg.par_chunks_mut(CHUNK)
                .zip(du.par_chunks_mut(CHUNK))
                .zip(g.par_chunks(CHUNK).zip(u.par_chunks(CHUNK)).zip(d.par_chunks(CHUNK)))
                .for_each(|((dg, du), ((g, u), d))| backward_slices(g, u, d, dg, du));
            return;
        }
        backward_slices(g, u, d, dg, du)
    });
    // SAFETY: the backward kernel wrote every element of du alongside dg.
    unsafe { du.set_len(g.len()) };
    Some((tensor(dg, gate), tensor(du, gate)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_backend::TensorData;

    fn t(values: Vec<f32>) -> FlexTensor {
        let n = values.len();
        FlexTensor::from_data(TensorData::new(values, [n]))
    }

    fn values(t: FlexTensor) -> Vec<f32> {
        t.into_data().to_vec::<f32>().unwrap()
    }

    /// Over two parallel chunks plus a ragged tail, so every code path runs.
    fn inputs() -> (Vec<f32>, Vec<f32>, Vec<f32>) {
        let n = 2 * CHUNK + 37;
        let g = (0..n).map(|i| ((i * 7919) % 2001) as f32 / 100.0 - 10.0).collect();
        let u = (0..n).map(|i| ((i * 104_729) % 997) as f32 / 250.0 - 2.0).collect();
        let d = (0..n).map(|i| ((i * 31) % 113) as f32 / 50.0 - 1.1).collect();
        (g, u, d)
    }

    #[test]
    fn forward_has_the_bits_of_the_composed_silu_times_up() {
        let (g, u, _) = inputs();
        let out = values(swiglu_f32(&t(g.clone()), &t(u.clone())).unwrap());
        for i in 0..g.len() {
            let expected = (g[i] * sigmoid_approx(g[i])) * u[i];
            assert_eq!(out[i].to_bits(), expected.to_bits(), "element {i}");
        }
    }

    #[test]
    fn backward_matches_the_analytic_derivative_in_f64() {
        let (g, u, d) = inputs();
        let (dg, du) = swiglu_backward_f32(&t(g.clone()), &t(u.clone()), &t(d.clone())).unwrap();
        let (dg, du) = (values(dg), values(du));
        for i in 0..g.len() {
            let (g, u, d) = (g[i] as f64, u[i] as f64, d[i] as f64);
            let s = 1.0 / (1.0 + (-g).exp());
            let want_du = d * g * s;
            let want_dg = d * u * s * (1.0 + g * (1.0 - s));
            assert!((du[i] as f64 - want_du).abs() <= 1e-5 * (1.0 + want_du.abs()), "du[{i}]");
            assert!((dg[i] as f64 - want_dg).abs() <= 1e-5 * (1.0 + want_dg.abs()), "dg[{i}]");
        }
    }

    #[test]
    fn strided_or_mismatched_operands_are_declined() {
        let a = FlexTensor::from_data(TensorData::new(vec![1.0f32; 6], [2, 3]));
        let b = FlexTensor::from_data(TensorData::new(vec![1.0f32; 6], [3, 2]));
        assert!(swiglu_f32(&a, &b).is_none());
        assert!(swiglu_f32(&a.transpose(0, 1), &b).is_none());
        assert!(swiglu_backward_f32(&a, &a, &b).is_none());
    }
}
