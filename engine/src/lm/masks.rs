//! Additive attention masks `[B, 1, L, L]` (0 where query i may attend key j, -1e9 where not),
//! the three ways the language model runs:
//!
//! - [`causal`]: key j <= query i (the LM; right padding needs nothing more, a real query never
//!   sees a later pad);
//! - [`bidirectional`]: every real key (T-decoder-JEPA's non-causal target encoder, the T-decoder-JEPA paper
//!   section 3.2: "respecting padding");
//! - [`blocks`]: causal inside each segment and nothing across segments (LLM-JEPA's packed pass,
//!   the LLM-JEPA paper: the text view and the code view share one forward pass and never attend to each
//!   other). A position in no segment (padding) attends to itself only.

use burn::tensor::{Device, Tensor, TensorData};

const HIDDEN: f32 = -1e9;

fn build(b: usize, l: usize, device: &Device, allowed: impl Fn(usize, usize, usize) -> bool) -> Tensor<4> {
    let mut v = Vec::with_capacity(b * l * l);
    for r in 0..b {
        for i in 0..l {
            for j in 0..l {
                v.push(if allowed(r, i, j) { 0.0 } else { HIDDEN });
            }
        }
    }
    Tensor::from_data(TensorData::new(v, [b, 1, l, l]), device)
}

/// `[1, 1, L, L]`: key j visible to query i iff j <= i.
pub fn causal(l: usize, device: &Device) -> Tensor<4> {
    build(1, l, device, |_, i, j| j <= i)
}

/// `[B, 1, L, L]`: every key of the row's first `lens[r]` positions visible to every query.
pub fn bidirectional(lens: &[usize], l: usize, device: &Device) -> Tensor<4> {
    build(lens.len(), l, device, |r, _, j| j < lens[r])
}

/// `[B, 1, L, L]`: `segments[r]` are the row's half-open position ranges; inside one, causal;
/// across, hidden.
pub fn blocks(segments: &[Vec<(usize, usize)>], l: usize, device: &Device) -> Tensor<4> {
    let owner = |r: usize, p: usize| segments[r].iter().position(|&(a, b)| a <= p && p < b);
    build(segments.len(), l, device, |r, i, j| match (owner(r, i), owner(r, j)) {
        (Some(si), Some(sj)) => si == sj && j <= i,
        _ => i == j,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::ReadBack;

    fn visible(m: &Tensor<4>, r: usize, i: usize, j: usize) -> bool {
        let l = m.dims()[2];
        let v = m.clone().floats().unwrap();
        v[(r * l + i) * l + j] == 0.0
    }

    #[test]
    fn block_mask_keeps_the_views_apart() {
        let device = Device::flex();
        // Row 0: text [0, 3), code [3, 5); row 1: text [0, 2), code [2, 5), no padding.
        let m = blocks(&[vec![(0, 3), (3, 5)], vec![(0, 2), (2, 5)]], 6, &device);
        for i in 0..3 {
            for j in 0..6 {
                assert_eq!(visible(&m, 0, i, j), j <= i, "text query {i} key {j}");
            }
        }
        for i in 3..5 {
            for j in 0..6 {
                assert_eq!(visible(&m, 0, i, j), (3..=i).contains(&j), "code query {i} key {j}");
            }
        }
        assert!(visible(&m, 0, 5, 5) && !visible(&m, 0, 5, 4), "a pad sees itself only");
        assert!(visible(&m, 1, 2, 2) && !visible(&m, 1, 2, 1), "row 1's code starts at 2");
    }

    #[test]
    fn causal_and_bidirectional() {
        let device = Device::flex();
        let c = causal(4, &device);
        assert!(visible(&c, 0, 2, 2) && visible(&c, 0, 2, 0) && !visible(&c, 0, 2, 3));
        let b = bidirectional(&[3, 4], 4, &device);
        assert!(visible(&b, 0, 0, 2) && !visible(&b, 0, 0, 3) && visible(&b, 1, 0, 3));
    }
}
