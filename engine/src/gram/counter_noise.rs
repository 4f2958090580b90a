//! Counter-based Gaussian noise, drawn where the tensor lives: value `i` of a draw is a pure
//! function of the draw's key and `i`, so no generator state is carried from one value to the
//! next and a GPU computes every value at once, in place, with nothing uploaded.
//!
//! ```text
//! key_d    = splitmix64(seed ^ splitmix64(d))                d = the source's d-th draw
//! word(i)  = mix(mix(i ^ k0) ^ k1),  (k1, k0) = halves of key_d  mix = Wellons' lowbias32
//! u(i)     = word(i) >> 8                                     24 uniform bits
//! normals  = Box-Muller on pairs: r = sqrt(-2 ln((u(2j) + 1) / 2^24)), a = 2 pi u(2j+1) / 2^24 - pi,
//!            value 2j = r cos a, value 2j+1 = r sin a
//! ```
//!
//! Two implementations of one function. [`normals_tensor`] builds it from tensor operations on
//! any backend: each 32-bit word is two 16-bit halves and every intermediate value stays below
//! 2^31, so the integers are the same whether the backend's integers are i32 (wgpu) or i64
//! (flex). [`normals_host`] is the same function in plain Rust, the kernel for the CPU device,
//! where the tensor's memory is the host's (flex): faster there than ~60 tensor passes. Both give
//! the same 24-bit uniforms, bit for bit (tests here; a GPU against the CPU in
//! `tools/gpu-check.sh`); the normals then differ only by the backend's `ln`, `cos` and `sin`
//! rounding, as every other float operation of a model does. The angle lies in [-pi, pi), where
//! WGSL bounds `sin` and `cos` (absolute error 2^-11).
//!
//! Training draws its posterior noise here (`NoiseSource::on_device`); sampling (the pages,
//! `eval`, `solve`) draws from the same function on the host, one key per sample and draw
//! (`NoiseSource::per_sample`), so each trajectory's noise is its own.

use burn::tensor::{Device, Int, Tensor, TensorData};

/// Wellons' lowbias32 multipliers (a 32-bit hash with low avalanche bias).
const M1: u32 = 0x7feb_352d;
const M2: u32 = 0x846c_a68b;
/// Values per task of the host kernel's parallel loop.
#[cfg(not(target_arch = "wasm32"))]
const PAIRS_PER_TASK: usize = 8192;

/// SplitMix64's finaliser: a 64-bit bijection with full avalanche.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The key of draw `d` of a source seeded with `seed`.
pub fn draw_key(seed: u64, d: u64) -> u64 {
    splitmix64(seed ^ splitmix64(d))
}

fn lowbias32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(M1);
    x ^= x >> 15;
    x = x.wrapping_mul(M2);
    x ^ (x >> 16)
}

/// Word `i` of the draw with `key`.
pub fn word(key: u64, i: u32) -> u32 {
    lowbias32(lowbias32(i ^ key as u32) ^ (key >> 32) as u32)
}

/// Pair `j`'s two normals from its two words.
fn box_muller(w0: u32, w1: u32) -> (f32, f32) {
    const SCALE: f32 = 1.0 / (1u32 << 24) as f32;
    let u1 = ((w0 >> 8) + 1) as f32 * SCALE;
    let u2 = (w1 >> 8) as f32 * SCALE;
    let r = (-2.0f32 * u1.ln()).sqrt();
    let a = std::f32::consts::TAU * u2 - std::f32::consts::PI;
    (r * a.cos(), r * a.sin())
}

/// The first `n` normals of the draw with `key`, computed on the host (the CPU device's kernel).
pub fn normals_host(key: u64, n: usize) -> Vec<f32> {
    assert!(n < 1 << 31, "a draw holds fewer than 2^31 values");
    let mut out = vec![0.0f32; 2 * n.div_ceil(2)];
    let fill = |first_pair: usize, out: &mut [f32]| {
        for (k, o) in out.chunks_exact_mut(2).enumerate() {
            let j = (first_pair + k) as u32;
            (o[0], o[1]) = box_muller(word(key, 2 * j), word(key, 2 * j + 1));
        }
    };
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        out.par_chunks_mut(2 * PAIRS_PER_TASK).enumerate().for_each(|(t, chunk)| fill(t * PAIRS_PER_TASK, chunk));
    }
    #[cfg(target_arch = "wasm32")]
    fill(0, &mut out);
    out.truncate(n);
    out
}

/// A 32-bit word as two tensors of 16-bit halves (high, low), each value in [0, 2^16).
struct Halves {
    hi: Tensor<1, Int>,
    lo: Tensor<1, Int>,
}

impl Halves {
    fn xor_const(self, c: u32) -> Halves {
        Halves { hi: self.hi.bitwise_xor_scalar((c >> 16) as i64), lo: self.lo.bitwise_xor_scalar((c & 0xffff) as i64) }
    }

    /// x ^ (x >> s) for s in 15..=16.
    fn xorshift(self, s: u32) -> Halves {
        match s {
            16 => Halves { lo: self.lo.bitwise_xor(self.hi.clone()), hi: self.hi },
            15 => {
                let lo_in = self.hi.clone().bitwise_and_scalar(0x7fff).mul_scalar(2) + self.lo.clone().bitwise_right_shift_scalar(15);
                Halves { hi: self.hi.clone().bitwise_xor(self.hi.bitwise_right_shift_scalar(15)), lo: self.lo.bitwise_xor(lo_in) }
            }
            _ => unreachable!("lowbias32 shifts by 15 and 16"),
        }
    }

    /// x * c mod 2^32. Each half of c is b * 2^15 + r with r < 2^15, so every product is a
    /// 16-bit value times r (< 2^31), and the b parts are shifts.
    fn mul_const(self, c: u32) -> Halves {
        let (ch, cl) = (c >> 16, c & 0xffff);
        let (bh, rh, bl, rl) = ((ch >> 15) as i64, (ch & 0x7fff) as i64, (cl >> 15) as i64, (cl & 0x7fff) as i64);
        let Halves { hi, lo } = self;
        let odd = |t: &Tensor<1, Int>| t.clone().bitwise_and_scalar(1).mul_scalar(1 << 15);
        // lo * cl = lo * rl + bl * lo * 2^15, split at bit 16.
        let p = lo.clone().mul_scalar(rl);
        let low_sum = p.clone().bitwise_and_scalar(0xffff) + odd(&lo).mul_scalar(bl);
        let carry = p.bitwise_right_shift_scalar(16)
            + lo.clone().bitwise_right_shift_scalar(1).mul_scalar(bl)
            + low_sum.clone().bitwise_right_shift_scalar(16);
        // (hi * cl + lo * ch) mod 2^16.
        let a = hi.clone().mul_scalar(rl).bitwise_and_scalar(0xffff) + odd(&hi).mul_scalar(bl);
        let b = lo.clone().mul_scalar(rh).bitwise_and_scalar(0xffff) + odd(&lo).mul_scalar(bh);
        Halves { hi: (carry + a + b).bitwise_and_scalar(0xffff), lo: low_sum.bitwise_and_scalar(0xffff) }
    }

    fn lowbias32(self) -> Halves {
        self.xorshift(16).mul_const(M1).xorshift(15).mul_const(M2).xorshift(16)
    }
}

/// `0..k` for `k <= 2^16`, from two aranges of 256: burn 0.22's fused `arange` on wgpu (a
/// cumulative sum of ones) returned 65,534 for every index from 65,535 on (measured on
/// lavapipe), so no arange here is longer than 256.
fn short_range(k: usize, device: &Device) -> Tensor<1, Int> {
    assert!(k <= 1 << 16);
    let high = Tensor::<1, Int>::arange(0..256, device).mul_scalar(256).reshape([256, 1]).expand([256, 256]);
    let low = Tensor::<1, Int>::arange(0..256, device).reshape([1, 256]).expand([256, 256]);
    (high + low).reshape([1 << 16]).narrow(0, 0, k)
}

/// The counters `0..n` as their 16-bit halves, each `[n]`: row r of 2^16 counters has high half
/// r and low halves `0..2^16`.
fn counter_halves(n: usize, device: &Device) -> Halves {
    let rows = n.div_ceil(1 << 16);
    let hi = short_range(rows, device).reshape([rows, 1]).expand([rows, 1 << 16]).reshape([rows << 16]).narrow(0, 0, n);
    let lo = short_range(1 << 16, device).reshape([1, 1 << 16]).expand([rows, 1 << 16]).reshape([rows << 16]).narrow(0, 0, n);
    Halves { hi, lo }
}

/// Words `0..n` of the draw with `key`, as their 24 uniform bits (`word >> 8`), computed with
/// tensor operations on `device`.
pub fn uniform_bits_tensor(key: u64, n: usize, device: &Device) -> Tensor<1, Int> {
    assert!(n < 1 << 31, "a draw holds fewer than 2^31 values");
    let w = counter_halves(n, device).xor_const(key as u32).lowbias32().xor_const((key >> 32) as u32).lowbias32();
    w.hi.mul_scalar(256) + w.lo.bitwise_right_shift_scalar(8)
}

/// The first `n` normals of the draw with `key`, computed with tensor operations on `device`.
pub fn normals_tensor(key: u64, n: usize, device: &Device) -> Tensor<1> {
    let pairs = n.div_ceil(2);
    let u = uniform_bits_tensor(key, 2 * pairs, device).float().reshape([pairs, 2]);
    let scale = 1.0 / (1u32 << 24) as f64;
    let u1 = u.clone().narrow(1, 0, 1).add_scalar(1.0).mul_scalar(scale);
    let u2 = u.narrow(1, 1, 1).mul_scalar(scale);
    let r = u1.log().mul_scalar(-2.0).sqrt();
    let a = u2.mul_scalar(std::f64::consts::TAU).sub_scalar(std::f64::consts::PI);
    let out = Tensor::cat(vec![r.clone() * a.clone().cos(), r * a.sin()], 1).reshape([2 * pairs]);
    if n == 2 * pairs { out } else { out.narrow(0, 0, n) }
}

/// Whether `device` is the CPU backend, whose memory is the host's.
fn is_host(device: &Device) -> bool {
    device.clone().inner() == Device::flex()
}

/// The first `n` normals of the draw with `key`, shaped `shape`, made on `device`: by the host
/// kernel where the device is the CPU, by tensor operations elsewhere.
pub fn normals<const D: usize>(key: u64, shape: [usize; D], device: &Device) -> Tensor<D> {
    let n = shape.iter().product();
    if is_host(device) {
        Tensor::from_data(TensorData::new(normals_host(key, n), shape), device)
    } else {
        normals_tensor(key, n, device).reshape(shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::ReadBack;

    /// The counters' halves, built from short aranges, are `i >> 16` and `i & 0xffff`, across
    /// several rows of 2^16 and a partial last row.
    #[test]
    fn counter_halves_split_every_counter() {
        let n = 3 * 65_536 + 17;
        let h = counter_halves(n, &Device::flex());
        let (hi, lo): (Vec<i64>, Vec<i64>) = (h.hi.ints().unwrap(), h.lo.ints().unwrap());
        assert_eq!(hi.len(), n);
        assert!((0..n).all(|i| hi[i] == (i >> 16) as i64 && lo[i] == (i & 0xffff) as i64));
    }

    /// The tensor operations' 24-bit uniforms are the host kernel's, for keys whose halves set
    /// every top bit, and over more than 2^16 counters (both halves of the counter move).
    #[test]
    fn the_tensor_words_are_the_host_words_bit_for_bit() {
        let device = Device::flex();
        for key in [0u64, 1, 0xffff_ffff_ffff_ffff, draw_key(7, 3), 0x8000_8000_8000_8000] {
            let n = 70_001;
            let got: Vec<i64> = uniform_bits_tensor(key, n, &device).ints().unwrap();
            let want: Vec<i64> = (0..n as u32).map(|i| (word(key, i) >> 8) as i64).collect();
            assert_eq!(got, want, "key {key:#x}");
        }
    }

    /// A multiply on the halves equals u32::wrapping_mul for words around every carry.
    #[test]
    fn halves_multiply_like_wrapping_mul() {
        let device = Device::flex();
        let xs: Vec<u32> = vec![0, 1, 0x7fff, 0x8000, 0xffff, 0x1_0000, 0x8000_8000, 0xffff_ffff, 0xdead_beef, 0x7fff_ffff, 0x0001_ffff];
        let t = |f: fn(u32) -> u32| xs.iter().map(|&x| f(x) as i64).collect::<Vec<_>>();
        let halves = || Halves {
            hi: Tensor::from_data(TensorData::new(t(|x| x >> 16), [xs.len()]), &device),
            lo: Tensor::from_data(TensorData::new(t(|x| x & 0xffff), [xs.len()]), &device),
        };
        for c in [M1, M2, 0xffff_ffff, 0x8000_8001, 3] {
            let h = halves().mul_const(c);
            let (hi, lo): (Vec<i64>, Vec<i64>) = (h.hi.ints().unwrap(), h.lo.ints().unwrap());
            for (k, &x) in xs.iter().enumerate() {
                assert_eq!(((hi[k] as u32) << 16) | lo[k] as u32, x.wrapping_mul(c), "{x:#x} * {c:#x}");
            }
        }
    }

    /// The tensor normals match the host kernel's to float rounding, odd lengths included; the
    /// draws are standard, and neighbouring values and neighbouring draws are uncorrelated.
    #[test]
    fn normals_agree_and_are_standard() {
        let device = Device::flex();
        let n = 200_001;
        let key = draw_key(11, 0);
        let host = normals_host(key, n);
        let tensor: Vec<f32> = normals_tensor(key, n, &device).floats().unwrap();
        assert_eq!(tensor.len(), n);
        let worst = host.iter().zip(&tensor).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max);
        assert!(worst < 1e-4, "host and tensor normals differ by {worst}");
        let mean = host.iter().map(|&x| x as f64).sum::<f64>() / n as f64;
        let var = host.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.01 && (var - 1.0).abs() < 0.02, "mean {mean}, var {var}");
        let corr = |a: &[f32], b: &[f32]| a.iter().zip(b).map(|(&x, &y)| x as f64 * y as f64).sum::<f64>() / a.len() as f64;
        assert!(corr(&host[..n - 1], &host[1..]).abs() < 0.01, "lag-1 correlation");
        let next = normals_host(draw_key(11, 1), n);
        assert!(corr(&host, &next).abs() < 0.01, "two draws correlate");
        assert_ne!(host[..8], normals_host(draw_key(12, 0), 8)[..], "another seed, the same draw");
        let tail = host.iter().filter(|x| x.abs() > 4.0).count();
        assert!(tail < 30, "{tail} values beyond 4 sigma");
    }
}
