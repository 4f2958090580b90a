//! `classifier`: trains the small digit classifier that `eval` measures generated digits with (IS
//! and FID in place of Inception-v3's; `engine::tasks::digits::classifier`), on the train part
//! of the digits, and writes it as the flat file the engine compiles in
//! (`engine/data/digit-classifier.bin`). A fixed recipe (no choice is made on any part): AdamW,
//! lr 1e-3, batch 128, each
//! training digit moved by up to 2 pixels each way (its features then tolerate a generated digit
//! drawn a little off centre). It prints its accuracy on the validation and test parts, and refuses to
//! write a file whose plain-Rust forward pass disagrees with burn's.

use std::path::Path;
use std::process::ExitCode;

use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::optim::GradientsParams;
use burn::tensor::activation::{log_softmax, relu};
use burn::tensor::{Device, Int, Tensor, TensorData};
use engine::gram::noise::NoiseSource;
use engine::tasks::Part;
use engine::tasks::digits::classifier::{WIDTHS, input};
use engine::tasks::digits::{Classifier, data};
use engine::weights::sha256_hex;

use crate::run::checkpoint::adamw;
use engine::transfer::ReadBack;

#[derive(Module, Debug)]
struct Mlp {
    layers: Vec<Linear>,
}

impl Mlp {
    fn init(device: &Device) -> Mlp {
        Mlp { layers: (0..WIDTHS.len() - 1).map(|i| LinearConfig::new(WIDTHS[i], WIDTHS[i + 1]).init(device)).collect() }
    }

    /// # Shapes: x `[B, 784]` -> logits `[B, 10]`.
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let last = self.layers.len() - 1;
        self.layers.iter().enumerate().fold(x, |a, (i, layer)| {
            let a = layer.forward(a);
            if i < last { relu(a) } else { a }
        })
    }

    /// The weights as the engine's plain classifier (burn's Linear weight is `[in, out]`).
    fn to_plain(&self) -> Result<Classifier, String> {
        let floats = |t: Tensor<2>| t.floats().expect("float");
        let layers = self
            .layers
            .iter()
            .map(|l| {
                let b = l.bias.as_ref().expect("bias").val().floats().expect("float");
                (floats(l.weight.val()), b)
            })
            .collect();
        Classifier::from_layers(layers)
    }
}

fn batch_tensors(set: &[(Vec<f32>, u8)], device: &Device) -> (Tensor<2>, Tensor<1, Int>) {
    let x: Vec<f32> = set.iter().flat_map(|(x, _)| x.iter().copied()).collect();
    let y: Vec<i64> = set.iter().map(|(_, y)| *y as i64).collect();
    (Tensor::from_data(TensorData::new(x, [set.len(), WIDTHS[0]]), device), Tensor::from_data(TensorData::new(y, [set.len()]), device))
}

/// A digit moved by (dy, dx) pixels, background filling what comes in (training augmentation).
fn shifted(x: &[f32], dy: isize, dx: isize) -> Vec<f32> {
    let side = 28isize;
    (0..side * side)
        .map(|p| {
            let (r, c) = (p / side - dy, p % side - dx);
            if (0..side).contains(&r) && (0..side).contains(&c) { x[(r * side + c) as usize] } else { 0.0 }
        })
        .collect()
}

fn labelled(part: Part) -> Vec<(Vec<f32>, u8)> {
    data::part(part).into_iter().map(|d| (input(&d.digit), d.label)).collect()
}

fn accuracy(classifier: &Classifier, part: Part) -> f64 {
    let set = data::part(part);
    let right = set.iter().filter(|d| classifier.predict(&d.digit) == d.label).count();
    100.0 * right as f64 / set.len().max(1) as f64
}

pub fn train_classifier(out: &Path, steps: usize, seed: u64, device: &Device) -> Result<ExitCode, String> {
    let train = labelled(Part::Train);
    if train.is_empty() {
        return Err("no digits compiled in (engine feature digits-data)".into());
    }
    let ad = device.clone().autodiff();
    ad.seed(seed);
    let mut model = engine::nn::fresh::fresh(seed, &ad, Mlp::init);
    let mut optim = adamw(1e-4).init();
    let mut rng = NoiseSource::new(seed);
    let batch = 128;
    for step in 1..=steps {
        let picked: Vec<(Vec<f32>, u8)> = (0..batch)
            .map(|_| {
                let (x, y) = &train[rng.index(train.len())];
                let (dy, dx) = (rng.index(5) as isize - 2, rng.index(5) as isize - 2);
                (shifted(x, dy, dx), *y)
            })
            .collect();
        let (x, y) = batch_tensors(&picked, &ad);
        let logp = log_softmax(model.forward(x), 1); // [B, 10]
        let loss = -logp.gather(1, y.reshape([batch, 1])).mean();
        if step % 500 == 0 || step == steps {
            eprintln!("step {step}/{steps}: loss {:.4}", loss.clone().into_scalar::<f32>());
        }
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(1e-3, model, grads);
    }
    let model = model.valid();
    let plain = model.to_plain()?;
    // The plain forward must be the network that was trained.
    let probe: Vec<(Vec<f32>, u8)> = labelled(Part::Validation).into_iter().take(16).collect();
    let (x, _) = batch_tensors(&probe, device);
    let burn_logits = model.forward(x).floats().expect("float");
    for (i, (x, _)) in probe.iter().enumerate() {
        for (a, b) in plain.logits(x).iter().zip(&burn_logits[i * 10..(i + 1) * 10]) {
            if (a - b).abs() > 1e-3 * (1.0 + b.abs()) {
                return Err(format!("the plain classifier disagrees with burn's forward pass ({a} vs {b})"));
            }
        }
    }
    let bytes = plain.to_bytes();
    std::fs::write(out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "digit classifier ({steps} steps x {batch}, seed {seed}): validation accuracy {:.2}%, test accuracy {:.2}%; wrote {} (sha256 {})",
        accuracy(&plain, Part::Validation),
        accuracy(&plain, Part::Test),
        out.display(),
        sha256_hex(&bytes)
    );
    Ok(ExitCode::SUCCESS)
}
