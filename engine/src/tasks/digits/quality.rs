//! Sample quality as the GRAM paper's Table 2 measures it, on a classifier's outputs:
//!
//! - **Inception Score** (Salimans et al.; Barratt & Sharma): `exp(E_x KL(p(c|x) || p(c)))`, with
//!   p(c) the mean of p(c|x) over the samples: high when each sample is confidently one class and
//!   the classes are used evenly (at most 10 for digits);
//! - **Fréchet distance** (Heusel et al.) between Gaussians fitted to two sets of feature vectors:
//!   `|mu_a - mu_b|^2 + tr(S_a + S_b - 2 (S_a^1/2 S_b S_a^1/2)^1/2)`.
//!
//! The paper computes both with Inception-v3, which cannot be had offline here; ours use the
//! small digit classifier of `classifier.rs` (docs/results/generation.md, deviations), so our values are on another
//! scale than the paper's: read them beside the real digits' own values, which eval prints.

/// Inception Score of class-probability rows (each row sums to 1).
pub fn inception_score(probabilities: &[Vec<f64>]) -> f64 {
    if probabilities.is_empty() {
        return f64::NAN;
    }
    let classes = probabilities[0].len();
    let n = probabilities.len() as f64;
    let marginal: Vec<f64> = (0..classes).map(|c| probabilities.iter().map(|p| p[c]).sum::<f64>() / n).collect();
    let mean_kl = probabilities
        .iter()
        .map(|p| p.iter().zip(&marginal).filter(|(pc, _)| **pc > 0.0).map(|(pc, m)| pc * (pc / m).ln()).sum::<f64>())
        .sum::<f64>()
        / n;
    mean_kl.exp()
}

/// Mean and covariance (divided by n - 1) of feature rows.
fn moments(rows: &[Vec<f64>]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let d = rows[0].len();
    let n = rows.len() as f64;
    let mean: Vec<f64> = (0..d).map(|j| rows.iter().map(|r| r[j]).sum::<f64>() / n).collect();
    let mut cov = vec![vec![0.0; d]; d];
    for r in rows {
        for i in 0..d {
            let a = r[i] - mean[i];
            for j in i..d {
                cov[i][j] += a * (r[j] - mean[j]);
            }
        }
    }
    for i in 0..d {
        for j in i..d {
            cov[i][j] /= (n - 1.0).max(1.0);
            cov[j][i] = cov[i][j];
        }
    }
    (mean, cov)
}

/// Eigenvalues and eigenvectors (columns) of a symmetric matrix by cyclic Jacobi rotations.
pub fn symmetric_eigen(matrix: &[Vec<f64>]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let d = matrix.len();
    let mut a: Vec<Vec<f64>> = matrix.to_vec();
    let mut v: Vec<Vec<f64>> = (0..d).map(|i| (0..d).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    for _sweep in 0..100 {
        let off: f64 = (0..d).flat_map(|i| (0..d).filter(move |&j| j != i).map(move |j| (i, j))).map(|(i, j)| a[i][j] * a[i][j]).sum();
        let scale: f64 = (0..d).map(|i| a[i][i] * a[i][i]).sum::<f64>().max(1e-300);
        if off <= 1e-22 * scale {
            break;
        }
        for p in 0..d {
            for q in p + 1..d {
                if a[p][q].abs() < 1e-300 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..d {
                    let (akp, akq) = (a[k][p], a[k][q]);
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for k in 0..d {
                    let (apk, aqk) = (a[p][k], a[q][k]);
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for row in v.iter_mut() {
                    let (vkp, vkq) = (row[p], row[q]);
                    row[p] = c * vkp - s * vkq;
                    row[q] = s * vkp + c * vkq;
                }
            }
        }
    }
    ((0..d).map(|i| a[i][i]).collect(), v)
}

/// The square root of a symmetric positive semi-definite matrix (negative rounding noise in
/// its eigenvalues clipped to 0).
fn sqrt_psd(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let (values, vectors) = symmetric_eigen(m);
    let d = m.len();
    let roots: Vec<f64> = values.iter().map(|&l| l.max(0.0).sqrt()).collect();
    (0..d).map(|i| (0..d).map(|j| (0..d).map(|k| vectors[i][k] * roots[k] * vectors[j][k]).sum()).collect()).collect()
}

fn matmul(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let (n, m, p) = (a.len(), b.len(), b[0].len());
    (0..n).map(|i| (0..p).map(|j| (0..m).map(|k| a[i][k] * b[k][j]).sum()).collect()).collect()
}

/// Fréchet distance between the Gaussians fitted to two sets of feature rows (each at least 2).
pub fn frechet_distance(a: &[Vec<f64>], b: &[Vec<f64>]) -> f64 {
    if a.len() < 2 || b.len() < 2 {
        return f64::NAN;
    }
    let (mu_a, s_a) = moments(a);
    let (mu_b, s_b) = moments(b);
    let mean_term: f64 = mu_a.iter().zip(&mu_b).map(|(x, y)| (x - y).powi(2)).sum();
    let root_a = sqrt_psd(&s_a);
    let middle = matmul(&matmul(&root_a, &s_b), &root_a);
    // symmetrise against rounding before the eigen-decomposition
    let d = middle.len();
    let middle: Vec<Vec<f64>> = (0..d).map(|i| (0..d).map(|j| 0.5 * (middle[i][j] + middle[j][i])).collect()).collect();
    let cross: f64 = symmetric_eigen(&middle).0.iter().map(|&l| l.max(0.0).sqrt()).sum();
    let trace: f64 = (0..d).map(|i| s_a[i][i] + s_b[i][i]).sum();
    mean_term + trace - 2.0 * cross
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inception_score_is_one_for_one_class_and_k_for_k_confident_even_classes() {
        let one = vec![vec![1.0, 0.0, 0.0]; 5];
        assert!((inception_score(&one) - 1.0).abs() < 1e-12);
        let three: Vec<Vec<f64>> = (0..6).map(|i| (0..3).map(|c| if c == i % 3 { 1.0 } else { 0.0 }).collect()).collect();
        assert!((inception_score(&three) - 3.0).abs() < 1e-9);
        let unsure = vec![vec![1.0 / 3.0; 3]; 4];
        assert!((inception_score(&unsure) - 1.0).abs() < 1e-12, "no confidence, score 1");
    }

    #[test]
    fn eigen_decomposition_rebuilds_the_matrix() {
        let m = vec![vec![4.0, 1.0, 0.5], vec![1.0, 3.0, 0.2], vec![0.5, 0.2, 1.0]];
        let (values, v) = symmetric_eigen(&m);
        for i in 0..3 {
            for j in 0..3 {
                let rebuilt: f64 = (0..3).map(|k| v[i][k] * values[k] * v[j][k]).sum();
                assert!((rebuilt - m[i][j]).abs() < 1e-10);
            }
        }
        let root = sqrt_psd(&m);
        let square = matmul(&root, &root);
        assert!((square[0][1] - 1.0).abs() < 1e-10 && (square[2][2] - 1.0).abs() < 1e-10);
    }

    /// Against the closed form: for 1-D Gaussians FD = (m_a - m_b)^2 + (s_a - s_b)^2, and a set
    /// against itself is 0.
    #[test]
    fn frechet_distance_matches_the_closed_form() {
        let a: Vec<Vec<f64>> = [-1.0, 1.0, -1.0, 1.0].iter().map(|&x| vec![x]).collect(); // mean 0, var 4/3
        let b: Vec<Vec<f64>> = [1.0, 5.0, 1.0, 5.0].iter().map(|&x| vec![x]).collect(); // mean 3, var 16/3
        let expected = 9.0 + ((4.0f64 / 3.0).sqrt() - (16.0f64 / 3.0).sqrt()).powi(2);
        assert!((frechet_distance(&a, &b) - expected).abs() < 1e-9, "{}", frechet_distance(&a, &b));
        let c: Vec<Vec<f64>> = (0..10).map(|i| vec![i as f64, (i * i % 7) as f64, (i % 3) as f64]).collect();
        assert!(frechet_distance(&c, &c).abs() < 1e-8);
    }
}
