//! Parity with the PyTorch reference of the recursive core (tests/pytorch/gram_reference.py,
//! our own code): each fixture's weights are imported from SafeTensors in PyTorch's layout
//! (`engine::weights::safetensors`), our forward runs on the fixture's inputs and noise, and
//! the logits, halting (Q) logits and LPRM values after every supervision step must equal
//! PyTorch's (computed in float64) to within `TOLERANCE`. Attention and mixer cores, GRAM (the
//! prior and the posterior path, with the noise xi given, `Noise::Given`) and TRM (no noise).
//! Regenerate the fixtures with the script (tests/pytorch/README.md).

use std::collections::BTreeMap;
use std::path::PathBuf;

use burn::tensor::{Device, Int, Tensor, TensorData};
use engine::gram::core::Noise;
use engine::gram::{Gram, GramConfig};
use engine::transfer::ReadBack;
use engine::weights::safetensors::{gram_from_safetensors, gram_to_safetensors, safetensors_names};
use safetensors::SafeTensors;
use safetensors::tensor::{Dtype, TensorView};

/// Largest |ours - PyTorch's| allowed on any logit, Q logit or value.
const TOLERANCE: f64 = 1e-4;

struct Fixture {
    config: GramConfig,
    batch: usize,
    steps: usize,
    /// (mode, guidance scale): `prior`, `posterior` (GRAM) or `off` (TRM).
    modes: Vec<(String, f64)>,
    weights: Vec<u8>,
    io: Vec<u8>,
}

fn load(name: &str) -> Fixture {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/pytorch/fixtures");
    let read = |file: String| std::fs::read(dir.join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    let meta: serde_json::Value = serde_json::from_slice(&read(format!("{name}.json"))).unwrap();
    let modes = meta["modes"].as_object().unwrap().iter().map(|(m, s)| (m.clone(), s.as_f64().unwrap())).collect();
    Fixture {
        config: serde_json::from_value(meta["config"].clone()).unwrap(),
        batch: meta["batch"].as_u64().unwrap() as usize,
        steps: meta["steps"].as_u64().unwrap() as usize,
        modes,
        weights: read(format!("{name}.safetensors")),
        io: read(format!("{name}.io.safetensors")),
    }
}

/// A tensor of the io file as f64 values (int64, float32 or float64 in the file).
fn values(io: &SafeTensors, name: &str) -> Vec<f64> {
    let t = io.tensor(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let bytes = t.data();
    match t.dtype() {
        Dtype::F32 => bytes.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap()) as f64).collect(),
        Dtype::F64 => bytes.chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect(),
        Dtype::I64 => bytes.chunks_exact(8).map(|b| i64::from_le_bytes(b.try_into().unwrap()) as f64).collect(),
        other => panic!("{name}: unexpected dtype {other:?}"),
    }
}

/// Logits `[S, B, L, V]`, Q logits `[S, B]` and values `[S, B]`, flattened.
#[derive(Debug, PartialEq)]
struct Outputs {
    logits: Vec<f32>,
    q_logits: Vec<f32>,
    values: Vec<f32>,
}

/// `steps` supervision steps of T transitions from z0, the heads read after each.
fn run(model: &Gram, fx: &Fixture, mode: &str, scale: f64) -> Outputs {
    let device = Device::flex();
    let io = SafeTensors::deserialize(&fx.io).unwrap();
    let (b, l, d, t) = (fx.batch, fx.config.seq_len, fx.config.d_model, fx.config.t_outer);
    let tokens = |name: &str| {
        let v: Vec<i64> = values(&io, name).into_iter().map(|x| x as i64).collect();
        Tensor::<2, Int>::from_data(TensorData::new(v, [b, l]), &device)
    };
    let (x, y) = (tokens("x"), tokens("y"));
    let xi: Vec<f32> =
        if model.has_guidance() { values(&io, &format!("{mode}.xi")).into_iter().map(|v| v as f32).collect() } else { vec![] };
    let e_x = model.encode(x);
    let mut z = model.initial_state(b, l);
    let mut out = Outputs { logits: vec![], q_logits: vec![], values: vec![] };
    let floats = |t: Tensor<1>| t.floats().unwrap();
    for s in 0..fx.steps {
        for i in 0..t {
            let noise = if model.has_guidance() {
                let at = (s * t + i) * b * l * d;
                let xi = Tensor::<3>::from_data(TensorData::new(xi[at..at + b * l * d].to_vec(), [b, l, d]), &device);
                Noise::Given { xi, scale, y: (mode == "posterior").then(|| y.clone()) }
            } else {
                Noise::Off
            };
            z = model.transition(z, &e_x, noise).z;
        }
        out.logits.extend(model.decode(z.h.clone()).floats().unwrap()); // [B, L, V]
        out.q_logits.extend(floats(model.halt_logit(z.h.clone())));
        out.values.extend(floats(model.value(z.h.clone())));
    }
    out
}

fn max_diff(ours: &[f32], theirs: &[f64]) -> f64 {
    assert_eq!(ours.len(), theirs.len(), "output sizes");
    ours.iter().zip(theirs).map(|(&a, &b)| (a as f64 - b).abs()).fold(0.0, f64::max)
}

/// The largest difference to PyTorch's outputs over every mode, per output.
fn diffs(model: &Gram, fx: &Fixture) -> BTreeMap<String, [f64; 3]> {
    let io = SafeTensors::deserialize(&fx.io).unwrap();
    let mut all = BTreeMap::new();
    for (mode, scale) in &fx.modes {
        let ours = run(model, fx, mode, *scale);
        let theirs = |what: &str| values(&io, &format!("{mode}.{what}"));
        let d = [
            max_diff(&ours.logits, &theirs("logits")),
            max_diff(&ours.q_logits, &theirs("q_logits")),
            max_diff(&ours.values, &theirs("values")),
        ];
        all.insert(mode.clone(), d);
    }
    all
}

fn assert_parity(name: &str) {
    let fx = load(name);
    let model = gram_from_safetensors(&fx.config, &fx.weights, &Device::flex()).unwrap();
    for (mode, [logits, q, v]) in diffs(&model, &fx) {
        eprintln!("{name} {mode}: max |ours - pytorch| logits {logits:.3e}, q logits {q:.3e}, values {v:.3e}");
        assert!(logits < TOLERANCE && q < TOLERANCE && v < TOLERANCE, "{name} {mode}: {logits:e} {q:e} {v:e}");
    }
}

#[test]
fn attention_cores_match_pytorch() {
    assert_parity("gram-attention");
    assert_parity("trm-attention");
}

#[test]
fn mixer_cores_match_pytorch() {
    assert_parity("gram-mixer");
    assert_parity("trm-mixer");
}

/// Exported weights are PyTorch's tensors again, bit for bit, and imported back they give the
/// same outputs bit for bit.
#[test]
fn export_then_import_gives_the_same_logits() {
    let device = Device::flex();
    for name in ["gram-attention", "trm-attention", "gram-mixer", "trm-mixer"] {
        let fx = load(name);
        let model = gram_from_safetensors(&fx.config, &fx.weights, &device).unwrap();
        let exported = gram_to_safetensors(&model);
        assert_eq!(safetensors_names(&exported).unwrap(), safetensors_names(&fx.weights).unwrap(), "{name}");
        let (ours, theirs) = (SafeTensors::deserialize(&exported).unwrap(), SafeTensors::deserialize(&fx.weights).unwrap());
        for (tensor, view) in theirs.tensors() {
            let again = ours.tensor(&tensor).unwrap();
            assert_eq!((again.shape(), again.data()), (view.shape(), view.data()), "{name} {tensor}");
        }
        let again = gram_from_safetensors(&fx.config, &exported, &device).unwrap();
        let (mode, scale) = &fx.modes[0];
        assert_eq!(run(&again, &fx, mode, *scale), run(&model, &fx, mode, *scale), "{name}");
    }
}

/// The comparison can fail: the attention's output projection stored untransposed (square, so
/// it loads without complaint, the classic layout slip) moves the outputs far past the tolerance.
#[test]
fn a_weight_in_the_wrong_layout_is_caught() {
    let fx = load("gram-attention");
    let st = SafeTensors::deserialize(&fx.weights).unwrap();
    let name = "block.layers.0.attn.out.weight";
    let w = st.tensor(name).unwrap();
    let n = w.shape()[0];
    let mut transposed = vec![0u8; w.data().len()];
    for (i, chunk) in w.data().chunks_exact(4).enumerate() {
        let (r, c) = (i / n, i % n);
        transposed[(c * n + r) * 4..(c * n + r) * 4 + 4].copy_from_slice(chunk);
    }
    let views: Vec<(String, TensorView)> = st
        .tensors()
        .into_iter()
        .map(|(k, v)| if k == name { (k, TensorView::new(Dtype::F32, vec![n, n], &transposed).unwrap()) } else { (k, v) })
        .collect();
    let bytes = safetensors::serialize(views, None).unwrap();
    let model = gram_from_safetensors(&fx.config, &bytes, &Device::flex()).unwrap();
    let worst = diffs(&model, &fx).values().map(|d| d[0]).fold(0.0, f64::max);
    eprintln!("{name} untransposed: max |ours - pytorch| logits {worst:.3e}");
    assert!(worst > 100.0 * TOLERANCE, "the transposed weight went unseen: {worst:e}");
}
