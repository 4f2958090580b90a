//! Mixed-latent analysis (the JEPA-Reasoner paper, section 5.1.4 and appendix E), plain f32 maths on the CPU.
//!
//! - Plane of two vocabulary latents: the least-squares projection of a predicted latent x onto
//!   span(l0, l1) is `alpha * l0 + beta * l1`; its distance is `|x - proj|`.
//! - Sibling-plane rank: sort the planes of *all* vocabulary pairs by distance to x; where does
//!   the plane of (correct node, its sibling) land? Reported as a percentile (paper: top 1.72%).
//! - Correct-major-contributor: alpha (correct node) > beta (sibling) (paper: 99.89%).
//! - PCA: the first two principal axes of a point set (latents and vocabulary), for plots.

pub fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter().zip(b).map(|(&x, &y)| x as f64 * y as f64).sum()
}

pub fn norm(a: &[f32]) -> f64 {
    dot(a, a).sqrt()
}

/// Projection of `x` onto span(`a`, `b`): (alpha, beta, distance). For (near-)parallel `a`, `b`
/// the plane is a line: alpha takes it all, beta is 0.
pub fn project_on_plane(x: &[f32], a: &[f32], b: &[f32]) -> (f64, f64, f64) {
    let (aa, ab, bb) = (dot(a, a), dot(a, b), dot(b, b));
    let (ax, bx) = (dot(a, x), dot(b, x));
    let det = aa * bb - ab * ab;
    let (alpha, beta) = if det.abs() < 1e-12 * aa.max(1e-30) * bb.max(1e-30) {
        (ax / aa.max(1e-30), 0.0)
    } else {
        ((ax * bb - bx * ab) / det, (bx * aa - ax * ab) / det)
    };
    let residual: f64 = x
        .iter()
        .zip(a.iter().zip(b))
        .map(|(&xi, (&ai, &bi))| {
            let r = xi as f64 - alpha * ai as f64 - beta * bi as f64;
            r * r
        })
        .sum();
    (alpha, beta, residual.sqrt())
}

/// Where the plane of vocabulary rows `i` and `j` ranks among all pairs' planes by distance to
/// `x`: (1-based rank, number of pairs). Ties count in the plane's favour.
pub fn pair_rank(x: &[f32], vocab: &[Vec<f32>], i: usize, j: usize) -> (usize, usize) {
    let target = project_on_plane(x, &vocab[i], &vocab[j]).2;
    let mut closer = 0;
    let mut total = 0;
    for a in 0..vocab.len() {
        for b in a + 1..vocab.len() {
            total += 1;
            if (a, b) != (i.min(j), i.max(j)) && project_on_plane(x, &vocab[a], &vocab[b]).2 < target - 1e-9 {
                closer += 1;
            }
        }
    }
    (closer + 1, total)
}

/// Cosine of `x` with each vocabulary row.
pub fn cosines(x: &[f32], vocab: &[Vec<f32>]) -> Vec<f64> {
    let nx = norm(x).max(1e-30);
    vocab.iter().map(|v| dot(x, v) / (nx * norm(v).max(1e-30))).collect()
}

/// Power iterations per axis.
const ITERATIONS: usize = 300;

/// The first two principal axes of a point set.
#[derive(Clone, Debug)]
pub struct Pca {
    pub mean: Vec<f64>,
    pub axes: [Vec<f64>; 2],
    /// Share of the total variance on each axis.
    pub explained: [f64; 2],
}

impl Pca {
    /// Power iteration with deflation on the covariance (deterministic start).
    pub fn fit(points: &[Vec<f32>]) -> Pca {
        let d = points.first().map_or(0, |p| p.len());
        // cov * v = sum_p c_p (c_p . v): through the d x d matrix, formed once, where that is
        // the less work over the iterations (the latent map's many points in a few dimensions),
        // else point by point (few points in many dimensions).
        Self::fit_by(points, d * (points.len() + ITERATIONS * 2) < ITERATIONS * 4 * points.len())
    }

    fn fit_by(points: &[Vec<f32>], by_matrix: bool) -> Pca {
        let n = points.len().max(1);
        let d = points.first().map_or(0, |p| p.len());
        let mut mean = vec![0.0f64; d];
        for p in points {
            for (m, &v) in mean.iter_mut().zip(p) {
                *m += v as f64 / n as f64;
            }
        }
        let centred: Vec<Vec<f64>> = points.iter().map(|p| p.iter().zip(&mean).map(|(&v, m)| v as f64 - m).collect()).collect();
        let total: f64 = centred.iter().map(|c| c.iter().map(|v| v * v).sum::<f64>()).sum();
        let cov = by_matrix.then(|| {
            let mut cov = vec![0.0f64; d * d];
            for c in &centred {
                for (i, &ci) in c.iter().enumerate() {
                    for (o, &cj) in cov[i * d..(i + 1) * d].iter_mut().zip(c) {
                        *o += ci * cj;
                    }
                }
            }
            cov
        });
        let apply = |v: &[f64]| -> Vec<f64> {
            if let Some(cov) = &cov {
                return cov.chunks(d.max(1)).map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum()).collect();
            }
            let mut out = vec![0.0; d];
            for c in &centred {
                let s: f64 = c.iter().zip(v).map(|(a, b)| a * b).sum();
                for (o, a) in out.iter_mut().zip(c) {
                    *o += a * s;
                }
            }
            out
        };
        let mut axes: [Vec<f64>; 2] = [vec![0.0; d], vec![0.0; d]];
        let mut explained = [0.0; 2];
        for k in 0..2 {
            let mut v: Vec<f64> = (0..d).map(|i| 1.0 + ((i * 7 + k * 3) % 11) as f64 / 11.0).collect();
            let mut lambda = 0.0;
            for _ in 0..ITERATIONS {
                let mut w = apply(&v);
                if k == 1 {
                    let s: f64 = w.iter().zip(&axes[0]).map(|(a, b)| a * b).sum();
                    for (wi, ai) in w.iter_mut().zip(&axes[0]) {
                        *wi -= s * ai;
                    }
                }
                let nw = w.iter().map(|x| x * x).sum::<f64>().sqrt();
                if nw < 1e-30 {
                    break;
                }
                lambda = nw;
                v = w.into_iter().map(|x| x / nw).collect();
            }
            explained[k] = if total > 0.0 { lambda / total } else { 0.0 };
            axes[k] = v;
        }
        Pca { mean, axes, explained }
    }

    /// Coordinates of `p` on the two axes.
    pub fn project(&self, p: &[f32]) -> (f64, f64) {
        let c: Vec<f64> = p.iter().zip(&self.mean).map(|(&v, m)| v as f64 - m).collect();
        let on = |a: &Vec<f64>| c.iter().zip(a).map(|(x, y)| x * y).sum::<f64>();
        (on(&self.axes[0]), on(&self.axes[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The covariance matrix and the point-by-point product give the same axes and shares.
    #[test]
    fn both_ways_of_fitting_agree() {
        for (n, d) in [(512, 16), (6, 64)] {
            let points: Vec<Vec<f32>> =
                (0..n).map(|p| (0..d).map(|i| (((p * 31 + i * 17) % 23) as f32 - 11.0) * (1.0 + (i % 3) as f32)).collect()).collect();
            let (a, b) = (Pca::fit_by(&points, true), Pca::fit_by(&points, false));
            for k in 0..2 {
                assert!((a.explained[k] - b.explained[k]).abs() < 1e-12, "{n}x{d}: {:?} {:?}", a.explained, b.explained);
                let worst = a.axes[k].iter().zip(&b.axes[k]).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
                assert!(worst < 1e-9, "{n}x{d} axis {k}: {worst}");
            }
        }
    }

    #[test]
    fn projection_recovers_a_mix() {
        let a = [1.0, 0.0, 0.0, 0.0];
        let b = [0.6, 0.8, 0.0, 0.0];
        let x: Vec<f32> = (0..4).map(|i| 0.7 * a[i] + 0.2 * b[i] + if i == 3 { 0.5 } else { 0.0 }).collect();
        let (al, be, dist) = project_on_plane(&x, &a, &b);
        assert!((al - 0.7).abs() < 1e-6 && (be - 0.2).abs() < 1e-6, "{al} {be}");
        assert!((dist - 0.5).abs() < 1e-6);
        // The plane a mix lies in ranks first among all pairs.
        let vocab = vec![a.to_vec(), b.to_vec(), vec![0.0, 0.0, 1.0, 0.0], vec![0.0, -1.0, 0.0, 0.0]];
        let mixed: Vec<f32> = (0..4).map(|i| 0.7 * a[i] + 0.3 * b[i]).collect();
        assert_eq!(pair_rank(&mixed, &vocab, 1, 0), (1, 6));
        // A point on the third axis: the (a, b) plane is not first.
        assert!(pair_rank(&[0.0, 0.0, 1.0, 0.0], &vocab, 0, 1).0 > 1);
    }

    #[test]
    fn pca_finds_the_long_axis() {
        let pts: Vec<Vec<f32>> = (0..50)
            .map(|i| {
                let t = i as f32 - 25.0;
                vec![3.0 * t, 3.0 * t, 0.1 * ((i % 3) as f32 - 1.0), 0.5 * ((i % 5) as f32 - 2.0)]
            })
            .collect();
        let p = Pca::fit(&pts);
        let s = (p.axes[0][0].abs() - std::f64::consts::FRAC_1_SQRT_2).abs();
        assert!(s < 1e-3, "{:?}", p.axes[0]);
        assert!(p.explained[0] > 0.99 && p.explained[1] < 0.01);
        let dot01: f64 = p.axes[0].iter().zip(&p.axes[1]).map(|(a, b)| a * b).sum();
        assert!(dot01.abs() < 1e-6);
    }
}
