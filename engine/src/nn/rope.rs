//! Rotary position embeddings (Su et al. 2024) over 1-D positions or over (row, column) of a
//! grid. For a board the 2-D form is the one to use: on the flattened index an offset of 1 is
//! both "the next cell in this row" and "the first cell of the next row", so a relative-only
//! encoding cannot tell attacking neighbours from wrapped-around ones. Axial 2-D RoPE rotates
//! half of each head's channels by the row and half by the column, so the score of a pair depends
//! on (d_row, d_col): same row, column or diagonal are all visible. Pairs are interleaved
//! (x0, x1), (x2, x3), ... as in burn's `RotaryEncoding`.
//!
//! Graph colouring's tokens are the upper triangle of the adjacency matrix (`triangle`): each
//! position takes the (row, column) of its matrix cell. With `grid_cols = 0` and no triangle the
//! encoding is 1-D, for sequence tasks.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Tensor, TensorData};

#[derive(Config, Debug)]
pub struct RopeConfig {
    /// Sequence length L.
    pub seq_len: usize,
    /// Head width (even; a multiple of 4 for a grid).
    pub d_head: usize,
    /// Grid width when positions are cells of a row-major grid; 0 for 1-D positions.
    #[config(default = 0)]
    pub grid_cols: usize,
    /// Vertices n when the positions are the upper triangle of an n x n matrix, diagonal
    /// included, row by row (graph colouring's layout): the 2-D form over each position's (row,
    /// column) in the matrix. Takes the place of `grid_cols`.
    pub triangle: Option<usize>,
    #[config(default = 10000.0)]
    pub theta: f64,
}

#[derive(Module, Debug)]
pub struct Rope {
    /// `[1, 1, L, Dh/2, 1]`
    cos: Tensor<5>,
    /// `[1, 1, L, Dh/2, 1]`
    sin: Tensor<5>,
}

impl RopeConfig {
    pub fn init(&self, device: &Device) -> Rope {
        let half = self.d_head / 2;
        assert!(self.d_head.is_multiple_of(2), "RoPE needs an even head width");
        let mut cos = Vec::with_capacity(self.seq_len * half);
        let mut sin = Vec::with_capacity(self.seq_len * half);
        for p in 0..self.seq_len {
            for i in 0..half {
                let cell = match self.triangle {
                    Some(n) => Some(triangle_cell(p, n)),
                    None if self.grid_cols > 0 => Some((p / self.grid_cols, p % self.grid_cols)),
                    None => None,
                };
                let angle = match cell {
                    None => p as f64 * self.theta.powf(-(i as f64) / half as f64),
                    Some((row, col)) => {
                        // First half of the pairs by row, second half by column.
                        let quarter = half / 2;
                        let (pos, j) = if i < quarter { (row, i) } else { (col, i - quarter) };
                        pos as f64 * self.theta.powf(-(j as f64) / quarter.max(1) as f64)
                    }
                };
                cos.push(angle.cos() as f32);
                sin.push(angle.sin() as f32);
            }
        }
        let shape = [1, 1, self.seq_len, half, 1];
        Rope { cos: Tensor::from_data(TensorData::new(cos, shape), device), sin: Tensor::from_data(TensorData::new(sin, shape), device) }
    }
}

/// (row, column) of position `p` in the row-major upper triangle, diagonal included, of an
/// n x n matrix: row i holds columns i..n. Positions past the triangle continue in row n.
pub fn triangle_cell(p: usize, n: usize) -> (usize, usize) {
    let mut start = 0;
    for row in 0..n {
        let len = n - row;
        if p < start + len {
            return (row, row + p - start);
        }
        start += len;
    }
    (n, p - start)
}

impl Rope {
    /// Positions the table covers.
    pub fn positions(&self) -> usize {
        self.cos.dims()[2]
    }

    /// # Shapes
    /// - x: `[B, H, L, Dh]` -> `[B, H, L, Dh]`, L at most the table's length
    pub fn forward(&self, x: Tensor<4>) -> Tensor<4> {
        let [b, h, l, dh] = x.dims();
        let pairs = x.reshape([b, h, l, dh / 2, 2]); // [B, H, L, Dh/2, 2]
        let x0 = pairs.clone().slice([0..b, 0..h, 0..l, 0..dh / 2, 0..1]); // [B, H, L, Dh/2, 1]
        let x1 = pairs.slice([0..b, 0..h, 0..l, 0..dh / 2, 1..2]);
        // A sequence shorter than the table uses its first `l` positions (causal decoders grow).
        let (cos, sin) = if self.cos.dims()[2] == l {
            (self.cos.clone(), self.sin.clone())
        } else {
            let s = [0..1, 0..1, 0..l, 0..dh / 2, 0..1];
            (self.cos.clone().slice(s.clone()), self.sin.clone().slice(s))
        };
        let r0 = x0.clone() * cos.clone() - x1.clone() * sin.clone();
        let r1 = x0 * sin + x1 * cos;
        Tensor::cat(vec![r0, r1], 4).reshape([b, h, l, dh]) // [B, H, L, Dh]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::Distribution;

    /// q.k of `q` at position i and `k` at position j, after `rope`, in a sequence of `l`.
    fn score(rope: &Rope, q: &Tensor<1>, k: &Tensor<1>, i: usize, j: usize, l: usize) -> f32 {
        let device = q.device();
        let place = |v: &Tensor<1>, at: usize| {
            let mut rows = vec![Tensor::<1>::zeros([8], &device); l];
            rows[at] = v.clone();
            rope.forward(Tensor::stack::<2>(rows, 0).reshape([1, 1, l, 8])).slice([0..1, 0..1, at..at + 1, 0..8]).reshape([8])
        };
        (place(q, i) * place(k, j)).sum().into_scalar()
    }

    fn pair(device: &Device) -> (Tensor<1>, Tensor<1>) {
        device.seed(3);
        let q = Tensor::<1>::random([8], Distribution::Normal(0.0, 1.0), device);
        let k = Tensor::<1>::random([8], Distribution::Normal(0.0, 1.0), device);
        (q, k)
    }

    /// q.k after RoPE depends only on the offset: 1-D on the index, 2-D on (d_row, d_col).
    #[test]
    fn scores_depend_on_relative_position_only() {
        let device = Device::flex();
        let (q, k) = pair(&device);
        let score = |rope: &Rope, i, j, l| score(rope, &q, &k, i, j, l);
        let grid = RopeConfig::new(16, 8).with_grid_cols(4).init(&device);
        // (0,0)-(1,1) and (2,2)-(3,3): same offset (1, 1).
        let a = score(&grid, 0, 5, 16);
        let b = score(&grid, 10, 15, 16);
        assert!((a - b).abs() < 1e-4, "{a} {b}");
        // Flattened offset 1 within a row vs across a row boundary: different in 2-D.
        let same_row = score(&grid, 0, 1, 16);
        let wrapped = score(&grid, 3, 4, 16);
        assert!((same_row - wrapped).abs() > 1e-3, "{same_row} {wrapped}");
        let flat = RopeConfig::new(16, 8).init(&device);
        let s1 = score(&flat, 0, 1, 16);
        let s2 = score(&flat, 3, 4, 16);
        assert!((s1 - s2).abs() < 1e-4, "1-D RoPE cannot tell them apart: {s1} {s2}");
    }

    /// The triangle's cells, row by row, and RoPE over them: equal (d_row, d_col), equal score;
    /// the last cell of row 0 and the first of row 1, 1 apart when flattened, are not neighbours.
    #[test]
    fn the_triangle_layout_rotates_by_matrix_row_and_column() {
        let cells: Vec<_> = (0..6).map(|p| triangle_cell(p, 3)).collect();
        assert_eq!(cells, [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]);
        let device = Device::flex();
        let (q, k) = pair(&device);
        let triangle = RopeConfig::new(10, 8).with_triangle(Some(4)).init(&device);
        // (0,0) -> (0,1) is positions 0 -> 1; (1,1) -> (1,2) is 4 -> 5: both offset (0, 1).
        let a = score(&triangle, &q, &k, 0, 1, 10);
        let b = score(&triangle, &q, &k, 4, 5, 10);
        assert!((a - b).abs() < 1e-4, "{a} {b}");
        // 3 -> 4 is (0,3) -> (1,1): offset (1, -2), not (0, 1).
        let wrapped = score(&triangle, &q, &k, 3, 4, 10);
        assert!((a - wrapped).abs() > 1e-3, "{a} {wrapped}");
    }
}
