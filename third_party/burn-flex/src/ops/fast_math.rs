//! Vectorised f32 `exp` and `sigmoid` (latent-reasoning-playground patch, see
//! third_party/README.md of that project).
//!
//! The published 0.22.1 computes both element by element through libm's `expf` with a branch
//! per element, which LLVM cannot vectorise; in a SwiGLU network the sigmoid inside SiLU then
//! costs as much as the matmuls. Here `exp` is the Cephes `expf` scheme written without
//! branches or calls, so it vectorises: round `x * log2(e)` to an integer `n` with the
//! 1.5 * 2^23 trick, reduce `r = x - n ln 2` in two steps (Cody-Waite), a degree-6
//! polynomial for `e^r`, and `2^n` assembled from bits. Relative error < 2 ulp over the
//! clamped range (tested against libm below); NaN propagates.
//!
//! The same source is compiled three times on x86-64 (baseline SSE2, AVX2, AVX-512F) and the
//! widest the CPU has is picked at run time, so the binary still runs on any x86-64. Plain
//! multiplies and adds (no fused multiply-add), so every path gives the same bits. On wasm32
//! the loop vectorises to SIMD128 when the build enables `+simd128`.

use alloc::vec;
use alloc::vec::Vec;

const LOG2E: f32 = core::f32::consts::LOG2_E;
/// 1.5 * 2^23 + 126: adding it rounds to an integer and leaves `n + 126` in the low bits.
const ROUND_BIAS: f32 = 12_582_912.0 + 126.0;
const LN2_HI: f32 = 0.693_359_4;
const LN2_LO: f32 = -2.121_944_4e-4;
/// Below this (`e^x` < 1.7e-38, near the end of f32's normal range) the result is 0.
const X_MIN: f32 = -86.99;
/// Above this `e^x` overflows f32: the result is +inf.
const X_MAX: f32 = 88.722_83;

/// `e^x` without branches or calls (vectorisable). NaN in, NaN out; results below f32's
/// normal range (below 1.7e-38) are flushed to 0.
#[inline(always)]
pub fn exp_approx(x: f32) -> f32 {
    // Comparisons written so that NaN falls through and stays NaN.
    let xc = if x < X_MIN { X_MIN } else { x };
    let xc = if xc > X_MAX { X_MAX } else { xc };
    let t = xc * LOG2E + ROUND_BIAS;
    let n = t - ROUND_BIAS; // round(x * log2 e), as a float, in -125..=128
    let half_scale = f32::from_bits(t.to_bits() << 23); // 2^(n-1): the low bits of t hold n + 126
    let r = xc - n * LN2_HI - n * LN2_LO;
    let p = 1.987_569_1e-4_f32;
    let p = p * r + 1.398_199_9e-3;
    let p = p * r + 8.333_452e-3;
    let p = p * r + 4.166_579_6e-2;
    let p = p * r + 1.666_666_5e-1;
    let p = p * r + 5.000_000_1e-1;
    let er = p * (r * r) + r + 1.0;
    let y = er * half_scale * 2.0;
    let y = if x < X_MIN { 0.0 } else { y };
    if x > X_MAX { f32::INFINITY } else { y }
}

/// `1 / (1 + e^-x)` without branches (vectorisable).
#[inline(always)]
pub fn sigmoid_approx(x: f32) -> f32 {
    1.0 / (1.0 + exp_approx(-x))
}

macro_rules! multiversion {
    ($name:ident, $scalar:ident) => {
        /// Writes the function of each `src` element into `dst` (same length; `src` None: in
        /// place), with the widest vector instructions this CPU has.
        pub fn $name(src: Option<&[f32]>, dst: &mut [f32]) {
            #[inline(always)]
            fn kernel(src: Option<&[f32]>, dst: &mut [f32]) {
                match src {
                    Some(src) => {
                        for (d, &s) in dst.iter_mut().zip(src) {
                            *d = $scalar(s);
                        }
                    }
                    None => {
                        for d in dst.iter_mut() {
                            *d = $scalar(*d);
                        }
                    }
                }
            }
            #[cfg(all(feature = "std", target_arch = "x86_64"))]
            {
                #[target_feature(enable = "avx512f")]
                unsafe fn avx512(src: Option<&[f32]>, dst: &mut [f32]) {
                    kernel(src, dst)
                }
                #[target_feature(enable = "avx2")]
                unsafe fn avx2(src: Option<&[f32]>, dst: &mut [f32]) {
                    kernel(src, dst)
                }
                if std::is_x86_feature_detected!("avx512f") {
                    // SAFETY: the CPU has AVX-512F (checked on the line above).
                    return unsafe { avx512(src, dst) };
                }
                if std::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2 (checked on the line above).
                    return unsafe { avx2(src, dst) };
                }
            }
            kernel(src, dst)
        }
    };
}

multiversion!(exp_slice, exp_approx);
multiversion!(sigmoid_slice, sigmoid_approx);

/// Applies a slice kernel to an f32 tensor of any layout: in place when the tensor owns a
/// contiguous buffer, else into a fresh contiguous one.
pub fn map_f32(
    mut tensor: crate::FlexTensor,
    kernel: fn(Option<&[f32]>, &mut [f32]),
) -> crate::FlexTensor {
    let n = tensor.layout().num_elements();
    let shape = tensor.layout().shape().clone();
    if tensor.is_unique() && tensor.layout().is_contiguous() && tensor.layout().start_offset() == 0 {
        let data: &mut [f32] = tensor.storage_mut();
        kernel(None, &mut data[..n]);
        return tensor;
    }
    let contiguous = tensor.into_contiguous();
    let start = contiguous.layout().start_offset();
    let src: &[f32] = &contiguous.storage::<f32>()[start..start + n];
    let mut out: Vec<f32> = vec![0.0; n];
    kernel(Some(src), &mut out);
    crate::FlexTensor::new(
        burn_std::Bytes::from_elems(out),
        crate::Layout::contiguous(shape),
        burn_backend::DType::F32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ulps(a: f32, b: f32) -> u32 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    #[test]
    fn exp_is_within_two_ulp_of_libm_over_the_range() {
        let mut x = -86.98f32;
        let mut worst = 0;
        while x <= 88.7 {
            worst = worst.max(ulps(exp_approx(x), libm::expf(x)));
            x += 0.000_731;
        }
        assert!(worst <= 2, "worst error {worst} ulp");
        assert_eq!(exp_approx(0.0), 1.0);
        assert_eq!(exp_approx(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_approx(-100.0), 0.0);
        assert_eq!(exp_approx(89.0), f32::INFINITY);
        assert_eq!(exp_approx(f32::INFINITY), f32::INFINITY);
    }

    #[test]
    fn sigmoid_matches_the_exact_formula_and_its_limits() {
        for i in -20_000..=20_000 {
            let x = i as f32 * 0.005;
            let exact = 1.0 / (1.0 + (-(x as f64)).exp());
            assert!(((sigmoid_approx(x) as f64) - exact).abs() <= 2e-7 * exact.max(1e-30) + 1e-38, "x={x}");
        }
        assert_eq!(sigmoid_approx(1e4), 1.0);
        assert_eq!(sigmoid_approx(-1e4), 0.0);
        assert_eq!(sigmoid_approx(f32::INFINITY), 1.0);
        assert_eq!(sigmoid_approx(f32::NEG_INFINITY), 0.0);
        assert_eq!(sigmoid_approx(0.0), 0.5);
        assert!(sigmoid_approx(f32::NAN).is_nan());
        assert!(exp_approx(f32::NAN).is_nan());
    }

    #[test]
    fn every_instruction_set_gives_the_same_bits() {
        let src: Vec<f32> = (0..1000).map(|i| (i as f32 - 500.0) * 0.173).collect();
        let mut fast = vec![0.0; src.len()];
        sigmoid_slice(Some(&src), &mut fast);
        let mut in_place = src.clone();
        sigmoid_slice(None, &mut in_place);
        assert_eq!(fast, in_place);
        for (s, f) in src.iter().zip(&fast) {
            assert_eq!(sigmoid_approx(*s).to_bits(), f.to_bits());
        }
    }
}
