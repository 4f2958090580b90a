//! Official TinyRecursiveModels (TRM) checkpoints, saved as SafeTensors, imported as our TRM
//! (`guidance = false`) where the two architectures are the same maths (tests/pytorch/README.md,
//! "Official TinyRecursiveModels checkpoints"; checked against our own PyTorch re-implementation
//! of TRM's forward by `engine/tests/trm_import.rs`).
//!
//! TRM's names (behind an optional `_orig_mod.`, `model.` and `inner.`) become ours:
//! - `embed_tokens.embedding_weight` `[V, D]` -> `embed.weight` (both scale by sqrt(D));
//! - `H_init`, `L_init` `[D]` -> `h_init`, `l_init`;
//! - `puzzle_emb.weights` `[n_puzzles, ndim]` -> `puzzle.table.weight` (P positions, the table
//!   zero-padded to P x D as TRM's `_input_embeddings` does);
//! - per layer `L_level.layers.N.`: `self_attn.qkv_proj.weight` `[3D, D]` -> `attn.qkv.weight`
//!   with the q and k rows of each head permuted (TRM's RoPE rotates channel pairs (i, i + Dh/2),
//!   ours (2i, 2i + 1), at the same frequencies: our 2i is their i, our 2i + 1 their i + Dh/2);
//!   `self_attn.o_proj.weight` -> `attn.out.weight`; `mlp.gate_up_proj.weight` `[2F, D]` ->
//!   `mlp.gate.weight` (first F rows) and `mlp.up.weight`; `mlp.down_proj.weight` -> `mlp.down.weight`;
//!   TRM's norms have no gain: ours are set to ones (same epsilon, 1e-5);
//! - `lm_head.weight` -> `lm_head.weight`, with a zero bias (TRM's has none);
//! - `q_head.weight` `[2, D]`, `q_head.bias` `[2]` -> `q_head` row 0, the halt logit. Row 1,
//!   TRM's "continue" logit, has no place here (TRM's default `no_ACT_continue` never reads it);
//! - our LPRM value head has no TRM counterpart: zero (it reads 0.5 everywhere).
//!
//! The file holds no sequence length, head count or cycle counts: [`TrmImportOptions`] gives them.
//! Tensors may be float32, bfloat16 (TRM trains in it) or float16; they become float32 exactly.
//! Refused with their reason: the `mlp_t` variant (TRM's Sudoku MLP: its token-mixing norm runs
//! over the sequence axis, ours over channels) and learned positions (`pos_encodings=learned`).

use std::collections::BTreeMap;

use burn::tensor::Device;
use safetensors::{Dtype, SafeTensors, tensor::TensorView};

use super::WeightsError;
use super::safetensors::gram_from_safetensors;
use crate::gram::{Gram, GramConfig};

/// What a TRM checkpoint cannot tell: its run's config (`config/arch/trm.yaml` and the data's).
#[derive(Clone, Debug, PartialEq)]
pub struct TrmImportOptions {
    /// TRM's `num_heads` (8 in `trm.yaml`).
    pub n_heads: usize,
    /// TRM's `seq_len`: board tokens, without the puzzle-embedding positions (900 for ARC).
    pub seq_len: usize,
    /// TRM's `puzzle_emb_len` (16); 0 means TRM's ceil(puzzle_emb_ndim / D).
    pub puzzle_emb_len: usize,
    /// TRM's `H_cycles` (3) -> our `t_outer`.
    pub h_cycles: usize,
    /// TRM's `L_cycles` (6) -> our `k_inner`.
    pub l_cycles: usize,
    /// TRM's `halt_max_steps` (16) -> our `n_sup`.
    pub n_sup: usize,
}

impl TrmImportOptions {
    /// `trm.yaml`'s defaults for what is not given.
    pub fn new(n_heads: usize, seq_len: usize) -> Self {
        TrmImportOptions { n_heads, seq_len, puzzle_emb_len: 16, h_cycles: 3, l_cycles: 6, n_sup: 16 }
    }
}

/// One tensor of the checkpoint as float32, with its name in the file.
struct Float {
    file_name: String,
    shape: Vec<usize>,
    values: Vec<f32>,
}

/// The checkpoint's tensors by TRM name (prefixes stripped).
type Checkpoint = BTreeMap<String, Float>;

/// A float32 tensor under our name, in PyTorch's layout (what `gram_from_safetensors` reads).
struct Ours {
    name: String,
    shape: Vec<usize>,
    values: Vec<f32>,
}

/// bfloat16 is the top half of a float32: the bits shifted left by 16.
pub fn bf16_to_f32(bits: u16) -> f32 {
    f32::from_bits((bits as u32) << 16)
}

/// IEEE half to float32, exactly (subnormals, infinities and NaN included).
pub fn f16_to_f32(bits: u16) -> f32 {
    let sign = ((bits >> 15) as u32) << 31;
    let exp = ((bits >> 10) & 0x1f) as u32;
    let mantissa = (bits & 0x3ff) as u32;
    match exp {
        0 => {
            let magnitude = mantissa as f32 * (-24f32).exp2(); // subnormal: m x 2^-24
            if sign != 0 { -magnitude } else { magnitude }
        }
        0x1f => f32::from_bits(sign | 0x7f80_0000 | (mantissa << 13)),
        _ => f32::from_bits(sign | ((exp + 112) << 23) | (mantissa << 13)),
    }
}

fn to_f32(view: &TensorView<'_>, name: &str) -> Result<Vec<f32>, WeightsError> {
    let data = view.data();
    let halves = |f: fn(u16) -> f32| data.chunks_exact(2).map(|b| f(u16::from_le_bytes([b[0], b[1]]))).collect();
    Ok(match view.dtype() {
        Dtype::F32 => data.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect(),
        Dtype::BF16 => halves(bf16_to_f32),
        Dtype::F16 => halves(f16_to_f32),
        other => {
            return Err(WeightsError::Mismatch(format!("tensor {name} is {other:?}; a TRM checkpoint holds float32, bfloat16 or float16")));
        }
    })
}

/// A variant whose maths differs from ours, named by one of its tensors.
fn unsupported(name: &str) -> Option<&'static str> {
    if name.contains("mlp_t.") {
        Some(
            "it is TRM's mlp_t variant (the Sudoku MLP): its token MLP's rms_norm runs on the transposed state, so it normalises over the sequence axis, and ours normalises over channels",
        )
    } else if name.starts_with("embed_pos.") {
        Some("it uses learned positions (pos_encodings=learned, `embed_pos`), added to the input and scaled by 1/sqrt(2); ours are RoPE")
    } else {
        None
    }
}

/// The tensors by TRM name, as float32; a variant we cannot run is refused first.
fn read_checkpoint(bytes: &[u8]) -> Result<Checkpoint, WeightsError> {
    let st = SafeTensors::deserialize(bytes).map_err(|e| WeightsError::SafeTensors(e.to_string()))?;
    let strip = |name: &str| {
        let name = name.strip_prefix("_orig_mod.").unwrap_or(name);
        let name = name.strip_prefix("model.").unwrap_or(name);
        name.strip_prefix("inner.").unwrap_or(name).to_string()
    };
    let mut names: Vec<&str> = st.names();
    names.sort_unstable();
    if let Some((name, why)) = names.iter().find_map(|n| unsupported(&strip(n)).map(|why| (n, why))) {
        return Err(WeightsError::Unsupported(format!("this TRM checkpoint does not map onto our model ({name}): {why}")));
    }
    let mut tensors = Checkpoint::new();
    for (file_name, view) in st.tensors() {
        let float = Float { values: to_f32(&view, &file_name)?, shape: view.shape().to_vec(), file_name };
        if let Some(first) = tensors.insert(strip(&float.file_name), float) {
            return Err(WeightsError::Mismatch(format!("two tensors have the name {} once prefixes are stripped", first.file_name)));
        }
    }
    Ok(tensors)
}

/// The values of `name`, which must have `shape` (`what` says why, for the message).
fn take(tensors: &mut Checkpoint, name: &str, shape: &[usize], what: &str) -> Result<Vec<f32>, WeightsError> {
    let t =
        tensors.remove(name).ok_or_else(|| WeightsError::Mismatch(format!("the TRM checkpoint has no tensor inner.{name} ({what})")))?;
    if t.shape != shape {
        return Err(WeightsError::Mismatch(format!("TRM tensor {} is {:?}; {what} makes it {shape:?}", t.file_name, t.shape)));
    }
    Ok(t.values)
}

fn shape_of<'a>(tensors: &'a Checkpoint, name: &str, rank: usize) -> Result<&'a [usize], WeightsError> {
    match tensors.get(name) {
        None => Err(WeightsError::Mismatch(format!("the TRM checkpoint has no tensor inner.{name}"))),
        Some(t) if t.shape.len() != rank => {
            Err(WeightsError::Mismatch(format!("TRM tensor {} is {:?}, not of rank {rank}", t.file_name, t.shape)))
        }
        Some(t) => Ok(&t.shape),
    }
}

/// Our config from the tensors' shapes (D, V, F, layers, the puzzle table) and `options`.
fn infer_config(tensors: &Checkpoint, options: &TrmImportOptions) -> Result<GramConfig, WeightsError> {
    let &[vocab, d] = shape_of(tensors, "embed_tokens.embedding_weight", 2)? else { unreachable!("rank 2") };
    let layers = tensors
        .keys()
        .filter_map(|k| k.strip_prefix("L_level.layers.")?.split('.').next()?.parse::<usize>().ok())
        .max()
        .map_or(0, |n| n + 1);
    if layers == 0 {
        return Err(WeightsError::Mismatch("the TRM checkpoint has no inner.L_level.layers.*".into()));
    }
    let d_hidden = shape_of(tensors, "L_level.layers.0.mlp.gate_up_proj.weight", 2)?[0] / 2;
    if options.h_cycles == 0 || options.n_sup == 0 {
        return Err(WeightsError::Mismatch("H_cycles and the supervision steps must be at least 1".into()));
    }
    let mut config = GramConfig::new(options.seq_len, vocab)
        .with_d_model(d)
        .with_n_heads(options.n_heads)
        .with_d_hidden(d_hidden)
        .with_n_layers(layers)
        .with_k_inner(options.l_cycles)
        .with_t_outer(options.h_cycles)
        .with_n_sup(options.n_sup)
        .with_guidance(false);
    if tensors.contains_key("puzzle_emb.weights") {
        let &[n_puzzles, ndim] = shape_of(tensors, "puzzle_emb.weights", 2)? else { unreachable!("rank 2") };
        // TRM: puzzle_emb_len 0 means ceil(ndim / D) positions.
        let p = if options.puzzle_emb_len == 0 { ndim.div_ceil(d.max(1)) } else { options.puzzle_emb_len };
        config = config.with_puzzle_emb_len(Some(p)).with_puzzle_emb_ndim(Some(ndim)).with_n_puzzles(Some(n_puzzles));
    }
    Ok(config)
}

/// TRM's q and k rows of each head in our RoPE's channel order: our channel 2i is their i,
/// our 2i + 1 their i + Dh/2 (v unchanged). # Shapes: `[3 * H * Dh, D]` rows.
fn interleave_rope_rows(qkv: &[f32], d: usize, heads: usize) -> Vec<f32> {
    let dh = d / heads;
    let mut out = qkv.to_vec();
    for head in 0..2 * heads {
        let base = head * dh; // q heads then k heads: the first 2H row groups
        for i in 0..dh / 2 {
            for (ours, theirs) in [(2 * i, i), (2 * i + 1, i + dh / 2)] {
                let (to, from) = ((base + ours) * d, (base + theirs) * d);
                out[to..to + d].copy_from_slice(&qkv[from..from + d]);
            }
        }
    }
    out
}

/// One layer of TRM's `L_level` as our `block.layers.N` tensors.
fn layer(tensors: &mut Checkpoint, n: usize, c: &GramConfig) -> Result<Vec<Ours>, WeightsError> {
    let (d, f) = (c.d_model, c.d_hidden);
    let (theirs, ours) = (format!("L_level.layers.{n}."), format!("block.layers.{n}."));
    let mut get = |name: &str, shape: &[usize], what: &str| take(tensors, &format!("{theirs}{name}"), shape, what);
    let qkv = get("self_attn.qkv_proj.weight", &[3 * d, d], "3D x D with D from embed_tokens")?;
    let out = get("self_attn.o_proj.weight", &[d, d], "D x D")?;
    let gate_up = get("mlp.gate_up_proj.weight", &[2 * f, d], "2F x D with F from layer 0")?;
    let down = get("mlp.down_proj.weight", &[d, f], "D x F")?;
    let t = |name: &str, shape: Vec<usize>, values: Vec<f32>| Ours { name: format!("{ours}{name}"), shape, values };
    Ok(vec![
        t("attn.qkv.weight", vec![3 * d, d], interleave_rope_rows(&qkv, d, c.n_heads)),
        t("attn.out.weight", vec![d, d], out),
        t("mlp.gate.weight", vec![f, d], gate_up[..f * d].to_vec()),
        t("mlp.up.weight", vec![f, d], gate_up[f * d..].to_vec()),
        t("mlp.down.weight", vec![d, f], down),
        t("norm_attn.weight", vec![d], vec![1.0; d]),
        t("norm_mlp.weight", vec![d], vec![1.0; d]),
    ])
}

/// Every tensor of our model from the checkpoint's; a tensor left over is an error.
fn map_tensors(mut tensors: Checkpoint, c: &GramConfig) -> Result<Vec<Ours>, WeightsError> {
    check_heads(c)?;
    let (d, v) = (c.d_model, c.vocab);
    let t = |name: &str, shape: Vec<usize>, values: Vec<f32>| Ours { name: name.to_string(), shape, values };
    let mut ours = vec![
        t("embed.weight", vec![v, d], take(&mut tensors, "embed_tokens.embedding_weight", &[v, d], "V x D")?),
        t("h_init", vec![d], take(&mut tensors, "H_init", &[d], "D")?),
        t("l_init", vec![d], take(&mut tensors, "L_init", &[d], "D")?),
        t("lm_head.weight", vec![v, d], take(&mut tensors, "lm_head.weight", &[v, d], "V x D with V from embed_tokens")?),
        t("lm_head.bias", vec![v], vec![0.0; v]),
        t("v_head.weight", vec![1, d], vec![0.0; d]),
        t("v_head.bias", vec![1], vec![0.0]),
    ];
    let q = take(&mut tensors, "q_head.weight", &[2, d], "2 x D: halt and continue")?;
    let q_bias = take(&mut tensors, "q_head.bias", &[2], "halt and continue")?;
    ours.push(t("q_head.weight", vec![1, d], q[..d].to_vec())); // row 0: q_halt
    ours.push(t("q_head.bias", vec![1], vec![q_bias[0]]));
    if let (Some(n), Some(ndim)) = (c.n_puzzles, c.puzzle_emb_ndim) {
        ours.push(t("puzzle.table.weight", vec![n, ndim], take(&mut tensors, "puzzle_emb.weights", &[n, ndim], "n_puzzles x ndim")?));
    }
    for n in 0..c.n_layers {
        ours.extend(layer(&mut tensors, n, c)?);
    }
    if !tensors.is_empty() {
        let left: Vec<&str> = tensors.values().map(|t| t.file_name.as_str()).collect();
        return Err(WeightsError::Mismatch(format!("tensors in the TRM checkpoint that have no place in our TRM: {left:?}")));
    }
    Ok(ours)
}

/// Heads that split D into even widths (RoPE pairs), before the rows are permuted by head.
fn check_heads(c: &GramConfig) -> Result<(), WeightsError> {
    let (d, h) = (c.d_model, c.n_heads);
    if h == 0 || d % h != 0 || (d / h) % 2 != 0 {
        return Err(WeightsError::Mismatch(format!("{h} heads do not split D = {d} into heads of even width")));
    }
    Ok(())
}

/// Our tensors as SafeTensors bytes in PyTorch's layout (`weights::safetensors`).
fn serialize(ours: &[Ours]) -> Result<Vec<u8>, WeightsError> {
    let bytes: Vec<Vec<u8>> = ours.iter().map(|t| t.values.iter().flat_map(|v| v.to_le_bytes()).collect()).collect();
    let views = ours
        .iter()
        .zip(&bytes)
        .map(|(t, b)| TensorView::new(Dtype::F32, t.shape.clone(), b).map(|v| (t.name.clone(), v)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| WeightsError::SafeTensors(e.to_string()))?;
    safetensors::serialize(views, None).map_err(|e| WeightsError::SafeTensors(e.to_string()))
}

/// Imports a TRM checkpoint (SafeTensors bytes) as our TRM, with the config inferred from its
/// shapes and `options`. Every failure is a [`WeightsError`] that names the tensor or the reason.
pub fn gram_from_trm_checkpoint(bytes: &[u8], options: &TrmImportOptions, device: &Device) -> Result<(Gram, GramConfig), WeightsError> {
    let tensors = read_checkpoint(bytes)?;
    let config = infer_config(&tensors, options)?;
    let ours = serialize(&map_tensors(tensors, &config)?)?;
    let model = gram_from_safetensors(&config, &ours, device)?;
    Ok((model, config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_floats_convert_exactly() {
        assert_eq!(bf16_to_f32(0x3f80), 1.0);
        assert_eq!(bf16_to_f32(0xc040), -3.0);
        assert_eq!(bf16_to_f32(0x3e20), 0.15625);
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc500), -5.0);
        assert_eq!(f16_to_f32(0x0001), (-24f32).exp2());
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0xfc00), f32::NEG_INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
    }

    /// Row r of a `[3 * H * Dh, D]` matrix holding r in every column: after the permutation
    /// each q and k head reads (0, Dh/2, 1, Dh/2 + 1, ...) of its own rows; v is untouched.
    #[test]
    fn rope_rows_are_interleaved_per_head_for_q_and_k() {
        let (d, heads) = (8, 2);
        let qkv: Vec<f32> = (0..3 * d).flat_map(|r| vec![r as f32; d]).collect();
        let out = interleave_rope_rows(&qkv, d, heads);
        let rows: Vec<f32> = out.chunks(d).map(|r| r[0]).collect();
        assert_eq!(&rows[..8], &[0., 2., 1., 3., 4., 6., 5., 7.]); // q, heads 0 and 1
        assert_eq!(&rows[8..16], &[8., 10., 9., 11., 12., 14., 13., 15.]); // k
        assert_eq!(&rows[16..], &(16..24).map(|r| r as f32).collect::<Vec<_>>()[..]); // v
    }

    #[test]
    fn our_tensor_names_are_the_ones_the_model_has() {
        let config = GramConfig::new(5, 4)
            .with_d_model(8)
            .with_n_heads(2)
            .with_d_hidden(16)
            .with_guidance(false)
            .with_puzzle_emb_len(Some(2))
            .with_puzzle_emb_ndim(Some(8))
            .with_n_puzzles(Some(3));
        let model = Gram::init(&config, &Device::flex());
        let names = super::super::safetensors::safetensors_names(&super::super::safetensors::gram_to_safetensors(&model)).unwrap();
        assert!(names.iter().any(|n| n == "puzzle.table.weight"), "{names:?}");
        // embed, h_init, l_init, lm_head (2), q_head (2), v_head (2), the table; 7 per layer
        assert_eq!(names.len(), 10 + 7 * 2, "{names:?}");
    }
}
