//! The LLM-JEPA paper's representation finding, measured: with the JEPA term the text's embedding is
//! close to a **linear map of the code's** embedding, without it not. [`view_embeddings`] reads
//! both views' last-token states (the packed pass of `llm_jepa`); [`linear_map_r2`] fits
//! `text ~ W code + b` by ridge least squares on one set and reports R^2 on another (1 = the
//! map explains the text embedding exactly, 0 = no better than the mean); [`mean_cosine`] is the
//! matched pairs' cosine. The 2-D picture uses `jepa::analysis::Pca`.

use burn::tensor::{Device, Tensor};

use super::llm_jepa::{embeddings, pack};
use super::model::Lm;
use super::sft::{Example, Layout};
use crate::transfer::ReadBack;

fn rows(t: Tensor<2>) -> Vec<Vec<f32>> {
    let [n, d] = t.dims();
    let v = t.floats().expect("f32 rows");
    (0..n).map(|i| v[i * d..(i + 1) * d].to_vec()).collect()
}

/// Text and code embeddings of `examples` (text views end with `k` [PRED]), 128 at a time.
pub fn view_embeddings(lm: &Lm, examples: &[Example], layout: &Layout, k: usize, device: &Device) -> (Vec<Vec<f32>>, Vec<Vec<f32>>) {
    let (mut text, mut code) = (Vec::new(), Vec::new());
    for chunk in examples.chunks(128) {
        let (t, c) = embeddings(lm, &pack(chunk, layout, k, device));
        text.extend(rows(t));
        code.extend(rows(c));
    }
    (text, code)
}

/// Ridge of the linear probe (the embeddings are RMS-normalised, entries ~1).
pub const RIDGE: f64 = 1e-2;

/// The representation probe of one model: fit `text ~ W code + b` on `fit`, then on `test` the
/// map's R^2, the matched pairs' mean cosine and the text embeddings' [`spread`]; with the test
/// views (text, code) for a picture.
pub struct ViewProbe {
    pub r2: f64,
    pub cosine: f64,
    pub spread: f64,
    pub text: Vec<Vec<f32>>,
    pub code: Vec<Vec<f32>>,
}

pub fn probe_views(lm: &Lm, fit: &[Example], test: &[Example], layout: &Layout, k: usize, device: &Device) -> ViewProbe {
    let (ft, fc) = view_embeddings(lm, fit, layout, k, device);
    let (text, code) = view_embeddings(lm, test, layout, k, device);
    let r2 = linear_map_r2(&fc, &ft, &code, &text, RIDGE);
    ViewProbe { r2, cosine: mean_cosine(&text, &code), spread: spread(&text), text, code }
}

/// Solves `a x = b` for a symmetric positive definite `a` (Gaussian elimination with partial
/// pivoting); `b` has several right-hand sides, one per column.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let n = a.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs())).unwrap();
        a.swap(col, pivot);
        b.swap(col, pivot);
        for r in col + 1..n {
            let f = a[r][col] / a[col][col];
            if f != 0.0 {
                for c in col..n {
                    a[r][c] -= f * a[col][c];
                }
                for c in 0..b[r].len() {
                    b[r][c] -= f * b[col][c];
                }
            }
        }
    }
    for col in (0..n).rev() {
        for c in 0..b[col].len() {
            let s: f64 = (col + 1..n).map(|k| a[col][k] * b[k][c]).sum();
            b[col][c] = (b[col][c] - s) / a[col][col];
        }
    }
    b
}

fn with_bias(x: &[f32]) -> Vec<f64> {
    x.iter().map(|&v| v as f64).chain(std::iter::once(1.0)).collect()
}

/// R^2 on (`test_x`, `test_y`) of the ridge fit `y ~ W x + b` on (`train_x`, `train_y`).
pub fn linear_map_r2(train_x: &[Vec<f32>], train_y: &[Vec<f32>], test_x: &[Vec<f32>], test_y: &[Vec<f32>], ridge: f64) -> f64 {
    let (dx, dy) = (train_x[0].len() + 1, train_y[0].len());
    let mut xtx = vec![vec![0.0; dx]; dx];
    let mut xty = vec![vec![0.0; dy]; dx];
    for (x, y) in train_x.iter().zip(train_y) {
        let x = with_bias(x);
        for i in 0..dx {
            for j in 0..dx {
                xtx[i][j] += x[i] * x[j];
            }
            for j in 0..dy {
                xty[i][j] += x[i] * y[j] as f64;
            }
        }
    }
    for (i, row) in xtx.iter_mut().enumerate().take(dx - 1) {
        row[i] += ridge;
    }
    let w = solve(xtx, xty);
    let mean: Vec<f64> = (0..dy).map(|j| test_y.iter().map(|y| y[j] as f64).sum::<f64>() / test_y.len() as f64).collect();
    let (mut res, mut tot) = (0.0, 0.0);
    for (x, y) in test_x.iter().zip(test_y) {
        let x = with_bias(x);
        for j in 0..dy {
            let pred: f64 = (0..dx).map(|i| x[i] * w[i][j]).sum();
            res += (y[j] as f64 - pred).powi(2);
            tot += (y[j] as f64 - mean[j]).powi(2);
        }
    }
    1.0 - res / tot.max(1e-30)
}

/// How spread out a set of embeddings is: the mean squared distance to their centroid over the
/// mean squared norm (0: one vector repeated, i.e. collapsed; near 1: centred around 0).
pub fn spread(v: &[Vec<f32>]) -> f64 {
    let d = v.first().map_or(0, Vec::len);
    let n = v.len().max(1) as f64;
    let mean: Vec<f64> = (0..d).map(|j| v.iter().map(|x| x[j] as f64).sum::<f64>() / n).collect();
    let var: f64 = v.iter().map(|x| x.iter().zip(&mean).map(|(&a, m)| (a as f64 - m).powi(2)).sum::<f64>()).sum::<f64>() / n;
    let sq: f64 = v.iter().map(|x| x.iter().map(|&a| (a as f64).powi(2)).sum::<f64>()).sum::<f64>() / n;
    var / sq.max(1e-30)
}

/// Mean cosine of matched rows.
pub fn mean_cosine(a: &[Vec<f32>], b: &[Vec<f32>]) -> f64 {
    let cos = |x: &[f32], y: &[f32]| {
        let d: f64 = x.iter().zip(y).map(|(&p, &q)| p as f64 * q as f64).sum();
        let n = |v: &[f32]| v.iter().map(|&p| (p as f64).powi(2)).sum::<f64>().sqrt().max(1e-30);
        d / (n(x) * n(y))
    };
    a.iter().zip(b).map(|(x, y)| cos(x, y)).sum::<f64>() / a.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_linear_map_scores_one_and_noise_scores_near_zero() {
        let mut rng = crate::gram::noise::NoiseSource::new(4);
        let xs: Vec<Vec<f32>> = (0..300).map(|_| rng.normals(4)).collect();
        let map = |x: &Vec<f32>| vec![2.0 * x[0] - x[1] + 0.5, x[2] + x[3], -x[0]];
        let ys: Vec<Vec<f32>> = xs.iter().map(map).collect();
        let r2 = linear_map_r2(&xs[..200], &ys[..200], &xs[200..], &ys[200..], 1e-6);
        assert!(r2 > 0.9999, "{r2}");
        let noise: Vec<Vec<f32>> = (0..300).map(|_| rng.normals(3)).collect();
        let r2 = linear_map_r2(&xs[..200], &noise[..200], &xs[200..], &noise[200..], 1e-6);
        assert!(r2 < 0.1, "{r2}");
        assert!((mean_cosine(&ys, &ys) - 1.0).abs() < 1e-9);
        assert!(spread(&vec![vec![1.0, 2.0]; 5]) < 1e-12, "one vector repeated has no spread");
        assert!((spread(&[vec![1.0, 0.0], vec![-1.0, 0.0]]) - 1.0).abs() < 1e-12);
    }
}
