//! Importing official TinyRecursiveModels checkpoints (`engine::weights::trm_import`), checked
//! against our PyTorch re-implementation of TRM's inner forward in TRM's names and maths
//! (tests/pytorch/trm_reference.py, fixture `trm-official`): the checkpoint, in TRM's names
//! behind torch.compile's `_orig_mod.model.inner.` prefix, imports as our TRM, and 2 supervision
//! steps on 3 rows with different puzzle ids give TRM's logits and q_halt logits to within
//! `TOLERANCE`. Then what must fail does: the importer without its RoPE permutation, the mlp_t
//! variant, learned positions, a missing, extra or misshapen tensor; and bfloat16 converts.

use std::path::PathBuf;

use burn::tensor::{Device, Int, Tensor, TensorData};
use engine::gram::core::Noise;
use engine::gram::{Gram, GramConfig};
use engine::transfer::ReadBack;
use engine::weights::WeightsError;
use engine::weights::safetensors::gram_to_safetensors;
use engine::weights::trm_import::{TrmImportOptions, gram_from_trm_checkpoint};
use safetensors::SafeTensors;
use safetensors::tensor::{Dtype, TensorView};

/// Largest |ours - PyTorch's| allowed on any logit or q_halt logit.
const TOLERANCE: f64 = 1e-4;
const PREFIX: &str = "_orig_mod.model.inner.";

struct Fixture {
    meta: serde_json::Value,
    weights: Vec<u8>,
    io: Vec<u8>,
}

fn load() -> Fixture {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/pytorch/fixtures");
    let read = |file: &str| std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    Fixture {
        meta: serde_json::from_slice(&read("trm-official.json")).unwrap(),
        weights: read("trm-official.safetensors"),
        io: read("trm-official.io.safetensors"),
    }
}

fn options(fx: &Fixture) -> TrmImportOptions {
    let o = &fx.meta["options"];
    let get = |k: &str| o[k].as_u64().unwrap_or_else(|| panic!("options.{k}")) as usize;
    TrmImportOptions {
        n_heads: get("n_heads"),
        seq_len: get("seq_len"),
        puzzle_emb_len: get("puzzle_emb_len"),
        h_cycles: get("h_cycles"),
        l_cycles: get("l_cycles"),
        n_sup: get("n_sup"),
    }
}

/// A tensor of the io file as f64 values (int64 or float64 in the file).
fn values(io: &[u8], name: &str) -> Vec<f64> {
    let io = SafeTensors::deserialize(io).unwrap();
    let t = io.tensor(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    match t.dtype() {
        Dtype::F64 => t.data().chunks_exact(8).map(|b| f64::from_le_bytes(b.try_into().unwrap())).collect(),
        Dtype::I64 => t.data().chunks_exact(8).map(|b| i64::from_le_bytes(b.try_into().unwrap()) as f64).collect(),
        other => panic!("{name}: unexpected dtype {other:?}"),
    }
}

/// TRM's run: each row led by its puzzle id, 2 supervision steps of `t_outer` transitions from
/// z0, the carry kept; logits `[S, B, L, V]` and q_halt `[S, B]`, flattened.
fn run(model: &Gram, config: &GramConfig, fx: &Fixture) -> (Vec<f32>, Vec<f32>) {
    let device = Device::flex();
    let (b, l) = (fx.meta["batch"].as_u64().unwrap() as usize, config.seq_len);
    let (inputs, ids) = (values(&fx.io, "inputs"), values(&fx.io, "puzzle_identifiers"));
    let rows: Vec<i64> =
        (0..b).flat_map(|r| std::iter::once(ids[r]).chain(inputs[r * l..(r + 1) * l].iter().copied())).map(|v| v as i64).collect();
    let x = Tensor::<2, Int>::from_data(TensorData::new(rows, [b, l + 1]), &device);
    let e_x = model.encode(x);
    let mut z = model.initial_state(b, l + 1);
    let (mut logits, mut q_halt) = (vec![], vec![]);
    for _ in 0..fx.meta["steps"].as_u64().unwrap() {
        for _ in 0..model.t_outer() {
            z = model.transition(z, &e_x, Noise::Off).z;
        }
        logits.extend(model.decode(z.h.clone()).floats().unwrap());
        q_halt.extend(model.halt_logit(z.h.clone()).floats().unwrap());
    }
    (logits, q_halt)
}

fn max_diff(ours: &[f32], theirs: &[f64]) -> f64 {
    assert_eq!(ours.len(), theirs.len(), "output sizes");
    ours.iter().zip(theirs).map(|(&a, &b)| (a as f64 - b).abs()).fold(0.0, f64::max)
}

/// Max |ours - PyTorch| on (logits, q_halt) for a checkpoint's bytes.
fn diffs(fx: &Fixture, checkpoint: &[u8]) -> (f64, f64) {
    let (model, config) = gram_from_trm_checkpoint(checkpoint, &options(fx), &Device::flex()).unwrap();
    let (logits, q_halt) = run(&model, &config, fx);
    (max_diff(&logits, &values(&fx.io, "logits")), max_diff(&q_halt, &values(&fx.io, "q_halt_logits")))
}

/// The fixture's checkpoint rebuilt: `edit` maps each (name, dtype, shape, bytes) to the
/// tensors to write instead (none drops it); `extra` are added.
type Raw = (String, Dtype, Vec<usize>, Vec<u8>);
fn rebuild(fx: &Fixture, edit: impl Fn(Raw) -> Vec<Raw>, extra: Vec<Raw>) -> Vec<u8> {
    let st = SafeTensors::deserialize(&fx.weights).unwrap();
    let mut raws: Vec<Raw> =
        st.tensors().into_iter().flat_map(|(n, v)| edit((n, v.dtype(), v.shape().to_vec(), v.data().to_vec()))).collect();
    raws.extend(extra);
    let views: Vec<(String, TensorView)> =
        raws.iter().map(|(n, d, s, b)| (n.clone(), TensorView::new(*d, s.clone(), b).unwrap())).collect();
    safetensors::serialize(views, None).unwrap()
}

fn import_err(fx: &Fixture, bytes: &[u8]) -> WeightsError {
    match gram_from_trm_checkpoint(bytes, &options(fx), &Device::flex()) {
        Ok(_) => panic!("the import should have failed"),
        Err(e) => e,
    }
}

#[test]
fn an_official_checkpoint_gives_trms_logits() {
    let fx = load();
    let (_, config) = gram_from_trm_checkpoint(&fx.weights, &options(&fx), &Device::flex()).unwrap();
    let inferred = &fx.meta["inferred"];
    let n = |k: &str| inferred[k].as_u64().unwrap() as usize;
    assert_eq!((config.d_model, config.vocab, config.d_hidden, config.n_layers), (n("d_model"), n("vocab"), n("d_hidden"), n("n_layers")));
    assert_eq!(
        (config.puzzle_emb_ndim, config.n_puzzles, config.puzzle_emb_len),
        (Some(n("puzzle_emb_ndim")), Some(n("n_puzzles")), Some(4))
    );
    assert_eq!((config.t_outer, config.k_inner, config.n_sup, config.guidance, config.mixer), (2, 2, 16, false, false));
    let (logits, q_halt) = diffs(&fx, &fx.weights);
    eprintln!("trm-official: max |ours - pytorch| logits {logits:.3e}, q_halt {q_halt:.3e}");
    assert!(logits < TOLERANCE && q_halt < TOLERANCE, "{logits:e} {q_halt:e}");
}

/// q and k rows of each head put back in TRM's order before the import, so that the importer's
/// permutation restores it: our RoPE then pairs the wrong channels.
#[test]
fn without_the_rope_permutation_the_logits_differ() {
    let fx = load();
    let (d, dh) = (16, 8);
    let unpermute = |(name, dtype, shape, bytes): Raw| {
        if !name.ends_with("qkv_proj.weight") {
            return vec![(name, dtype, shape, bytes)];
        }
        let row = |r: usize| bytes[r * d * 4..(r + 1) * d * 4].to_vec();
        // the importer's row 2i of a q/k head comes from row i; give it row 2i to find there
        let rows: Vec<u8> = (0..3 * d)
            .flat_map(|r| {
                let (head, c) = (r / dh, r % dh);
                let from = if head >= 2 * (d / dh) {
                    r
                } else if c < dh / 2 {
                    head * dh + 2 * c
                } else {
                    head * dh + 2 * (c - dh / 2) + 1
                };
                row(from)
            })
            .collect();
        vec![(name, dtype, shape, rows)]
    };
    let (logits, q_halt) = diffs(&fx, &rebuild(&fx, unpermute, vec![]));
    eprintln!("trm-official without the RoPE permutation: max |ours - pytorch| logits {logits:.3e}, q_halt {q_halt:.3e}");
    assert!(logits > 100.0 * TOLERANCE, "the permutation made no difference: {logits:e}");
}

#[test]
fn mlp_t_and_learned_positions_are_refused_with_the_reason() {
    let fx = load();
    let keep = |raw: Raw| vec![raw];
    let extra = |name: &str| vec![(format!("{PREFIX}{name}"), Dtype::F32, vec![4], vec![0u8; 16])];
    let mlp_t = rebuild(&fx, keep, extra("L_level.layers.0.mlp_t.gate_up_proj.weight"));
    let err = import_err(&fx, &mlp_t);
    eprintln!("{err}");
    assert!(matches!(&err, WeightsError::Unsupported(m) if m.contains("mlp_t") && m.contains("sequence axis")), "{err}");
    let learned = rebuild(&fx, keep, extra("embed_pos.embedding_weight"));
    let err = import_err(&fx, &learned);
    assert!(matches!(&err, WeightsError::Unsupported(m) if m.contains("pos_encodings=learned")), "{err}");
}

#[test]
fn missing_extra_misshapen_and_garbage_are_named() {
    let fx = load();
    let down = "L_level.layers.1.mlp.down_proj.weight";
    let without = rebuild(&fx, |raw: Raw| if raw.0.ends_with(down) { vec![] } else { vec![raw] }, vec![]);
    let err = import_err(&fx, &without);
    assert!(matches!(&err, WeightsError::Mismatch(m) if m.contains(&format!("inner.{down}"))), "{err}");
    // HRM's high level has no place in TRM.
    let hrm = format!("{PREFIX}H_level.layers.0.mlp.down_proj.weight");
    let extra = rebuild(&fx, |raw: Raw| vec![raw], vec![(hrm.clone(), Dtype::F32, vec![2], vec![0u8; 8])]);
    let err = import_err(&fx, &extra);
    assert!(matches!(&err, WeightsError::Mismatch(m) if m.contains(&hrm)), "{err}");
    let short = |(n, dt, s, b): Raw| if n.ends_with("H_init") { vec![(n, dt, vec![8], b[..32].to_vec())] } else { vec![(n, dt, s, b)] };
    let err = import_err(&fx, &rebuild(&fx, short, vec![]));
    assert!(matches!(&err, WeightsError::Mismatch(m) if m.contains("H_init") && m.contains("[8]")), "{err}");
    let err = import_err(&fx, b"not a checkpoint");
    assert!(matches!(err, WeightsError::SafeTensors(_)), "{err}");
    let bad_heads = TrmImportOptions { n_heads: 3, ..options(&fx) };
    let err = gram_from_trm_checkpoint(&fx.weights, &bad_heads, &Device::flex()).err().unwrap();
    assert!(err.to_string().contains("3 heads"), "{err}");
}

/// bfloat16 tensors (TRM trains in it) become float32 by shifting their bits left by 16: the
/// imported table is the float32 one with its low 16 bits cleared. Other prefixes load the same.
#[test]
fn bfloat16_converts_and_prefixes_are_stripped() {
    let fx = load();
    let to_bf16 = |(name, _, shape, bytes): Raw| {
        let halves: Vec<u8> = bytes.chunks_exact(4).flat_map(|b| [b[2], b[3]]).collect(); // top 16 bits
        vec![(name.replacen(PREFIX, "model.inner.", 1), Dtype::BF16, shape, halves)]
    };
    let bf16 = rebuild(&fx, to_bf16, vec![]);
    let (model, _) = gram_from_trm_checkpoint(&bf16, &options(&fx), &Device::flex()).unwrap();
    let ours = gram_to_safetensors(&model);
    let ours = SafeTensors::deserialize(&ours).unwrap();
    let theirs = SafeTensors::deserialize(&fx.weights).unwrap();
    for (our, their) in
        [("embed.weight", "embed_tokens.embedding_weight"), ("puzzle.table.weight", "puzzle_emb.weights"), ("h_init", "H_init")]
    {
        let truncated: Vec<u8> =
            theirs.tensor(&format!("{PREFIX}{their}")).unwrap().data().chunks_exact(4).flat_map(|b| [0, 0, b[2], b[3]]).collect();
        assert_eq!(ours.tensor(our).unwrap().data(), &truncated[..], "{our}");
    }
    let (logits, q_halt) = diffs(&fx, &bf16);
    eprintln!("trm-official in bfloat16: max |ours - pytorch (float32 weights)| logits {logits:.3e}, q_halt {q_halt:.3e}");
    let bare = rebuild(&fx, |(n, d, s, b): Raw| vec![(n.replacen(PREFIX, "", 1), d, s, b)], vec![]);
    let (logits, _) = diffs(&fx, &bare);
    assert!(logits < TOLERANCE, "{logits:e}");
}
