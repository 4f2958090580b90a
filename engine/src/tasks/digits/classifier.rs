//! The small digit classifier IS and FID are measured with (in place of Inception-v3, which
//! cannot be had offline; docs/results/generation.md, deviations): an MLP 784 -> 128 -> 64 -> 10 with ReLU, trained
//! by `native-trainer classifier` on the train part of the digits (its accuracy on the test part
//! is in docs/results/generation.md). FID's features are the 64 ReLU activations before the last layer.
//!
//! Inference here is plain Rust (three small matrix products): the report needs no device, and
//! the weights are a flat file, `engine/data/digit-classifier.bin`:
//! `"LPCLF001"`, then per layer (in order) the weight `[in][out]` and the bias `[out]` as f32 LE.

use super::Digit;

/// Layer widths, input to output.
pub const WIDTHS: [usize; 4] = [784, 128, 64, 10];

const MAGIC: &[u8; 8] = b"LPCLF001";

/// A digit as the classifier's input: 1.0 for ink, 0.0 for background.
pub fn input(digit: &Digit) -> Vec<f32> {
    digit.pixels.iter().map(|&p| if p { 1.0 } else { 0.0 }).collect()
}

#[derive(Clone, Debug, PartialEq)]
pub struct Classifier {
    /// (weight `[in * out]` row-major by input, bias `[out]`) per layer.
    layers: Vec<(Vec<f32>, Vec<f32>)>,
}

/// What the classifier says about one digit.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// The penultimate activations (FID's features).
    pub features: Vec<f64>,
    /// Softmax over the 10 classes (IS's p(c|x)).
    pub probabilities: Vec<f64>,
}

impl Classifier {
    /// From per-layer (weight `[in][out]` flattened, bias) of the [`WIDTHS`] shapes.
    pub fn from_layers(layers: Vec<(Vec<f32>, Vec<f32>)>) -> Result<Classifier, String> {
        if layers.len() != WIDTHS.len() - 1 {
            return Err(format!("a digit classifier has {} layers, got {}", WIDTHS.len() - 1, layers.len()));
        }
        for (i, (w, b)) in layers.iter().enumerate() {
            let (n_in, n_out) = (WIDTHS[i], WIDTHS[i + 1]);
            if w.len() != n_in * n_out || b.len() != n_out {
                return Err(format!("classifier layer {i}: want {n_in}x{n_out} weights and {n_out} biases"));
            }
        }
        Ok(Classifier { layers })
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Classifier, String> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err("not a digit classifier file (expected the LPCLF001 header)".into());
        }
        let floats: Vec<f32> = bytes[8..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4"))).collect();
        let want: usize = (0..WIDTHS.len() - 1).map(|i| WIDTHS[i] * WIDTHS[i + 1] + WIDTHS[i + 1]).sum();
        if floats.len() != want || !(bytes.len() - 8).is_multiple_of(4) {
            return Err(format!("digit classifier file holds {} values, want {want}", floats.len()));
        }
        let mut rest = &floats[..];
        let mut layers = Vec::new();
        for i in 0..WIDTHS.len() - 1 {
            let (w, tail) = rest.split_at(WIDTHS[i] * WIDTHS[i + 1]);
            let (b, tail) = tail.split_at(WIDTHS[i + 1]);
            layers.push((w.to_vec(), b.to_vec()));
            rest = tail;
        }
        Classifier::from_layers(layers)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for (w, b) in &self.layers {
            out.extend(w.iter().chain(b).flat_map(|v| v.to_le_bytes()));
        }
        out
    }

    /// The logits of the last layer and the features before it, for one input.
    fn forward(&self, x: &[f32]) -> (Vec<f32>, Vec<f32>) {
        let mut a = x.to_vec();
        let mut features = Vec::new();
        for (i, (w, b)) in self.layers.iter().enumerate() {
            let n_out = b.len();
            let mut out = b.clone();
            for (k, &ak) in a.iter().enumerate() {
                if ak != 0.0 {
                    let row = &w[k * n_out..(k + 1) * n_out];
                    out.iter_mut().zip(row).for_each(|(o, &wk)| *o += ak * wk);
                }
            }
            if i + 1 < self.layers.len() {
                out.iter_mut().for_each(|o| *o = o.max(0.0));
                features = out.clone();
            }
            a = out;
        }
        (a, features)
    }

    /// Logits for a raw input (the trainer checks them against its own forward pass).
    pub fn logits(&self, x: &[f32]) -> Vec<f32> {
        self.forward(x).0
    }

    pub fn read(&self, digit: &Digit) -> Reading {
        let (logits, features) = self.forward(&input(digit));
        let max = logits.iter().cloned().fold(f32::NEG_INFINITY, f32::max);
        let exps: Vec<f64> = logits.iter().map(|&l| ((l - max) as f64).exp()).collect();
        let sum: f64 = exps.iter().sum();
        Reading { features: features.iter().map(|&f| f as f64).collect(), probabilities: exps.iter().map(|e| e / sum).collect() }
    }

    /// The class with the highest probability.
    pub fn predict(&self, digit: &Digit) -> u8 {
        let p = self.read(digit).probabilities;
        (0..p.len()).max_by(|&a, &b| p[a].total_cmp(&p[b])).expect("10 classes") as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Classifier {
        let layers = (0..3)
            .map(|i| {
                let (n_in, n_out) = (WIDTHS[i], WIDTHS[i + 1]);
                let w = (0..n_in * n_out).map(|k| ((k * 7919 % 13) as f32 - 6.0) * 0.01).collect();
                let b = (0..n_out).map(|k| k as f32 * 0.001).collect();
                (w, b)
            })
            .collect();
        Classifier::from_layers(layers).unwrap()
    }

    #[test]
    fn bytes_round_trip_and_a_wrong_file_is_refused() {
        let c = tiny();
        assert_eq!(Classifier::from_bytes(&c.to_bytes()), Ok(c.clone()));
        assert!(Classifier::from_bytes(b"LPCLF001abcd").unwrap_err().contains("values"));
        assert!(Classifier::from_bytes(b"garbage!").unwrap_err().contains("not a digit classifier"));
        let reading = c.read(&Digit::blank());
        assert_eq!(reading.features.len(), 64);
        assert!((reading.probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}
