//! The weights loaders, GRAM (`engine::weights`) and JEPA (`engine::weights::reasoner`): manifests
//! with mutated fields, and burnpack bytes truncated, bit-flipped, spliced, random, or of another
//! config. The sha256 check comes first in `load_*`, so the byte targets mostly call the bytes
//! loader directly and otherwise fix the manifest's sha256 to the mutated bytes: either way
//! burn's burnpack reader and the shape checks see the mutated bytes.
//!
//! Seeds: the shipped files in `public/weights/` and tiny models built here (a few thousand
//! parameters, so an input costs well under a millisecond); shipped seeds are drawn less often.

use burn::tensor::Device;
use engine::gram::{Gram, GramConfig};
use engine::reasoner::model::{ReasonerConfig, ReasonerModel, ReasonerModelConfig, TalkerConfig, TalkerKind};
use engine::weights::reasoner::{ReasonerManifest, load_reasoner, reasoner_from_bytes, reasoner_to_bytes};
use engine::weights::{Manifest, WeightsError, gram_from_bytes, gram_to_bytes, load_gram, sha256_hex};
use serde_json::Value;

use super::harness::{Fuzz, Rng, escape_bytes, escape_str};
use super::json::mutate_manifest;
use super::mutate::{mutate_bytes, mutate_text, random_text};

/// One model's weights: its config, bytes, their sha256, the header + metadata length, and its
/// manifest as JSON.
pub struct Seed<C> {
    pub config: C,
    pub bytes: Vec<u8>,
    pub sha: String,
    header: usize,
    manifest: Value,
    shipped: bool,
}

fn shipped_files(stem: &str) -> (String, Vec<u8>) {
    let dir = crate::common::shipped_dir();
    let json = std::fs::read_to_string(dir.join(format!("{stem}.json"))).expect("shipped manifest");
    let bytes = std::fs::read(dir.join(format!("{stem}.bpk"))).expect("shipped weights");
    (json, bytes)
}

/// Header (magic, version, metadata size) plus the CBOR metadata: where the structure is.
fn header_len(bytes: &[u8]) -> usize {
    10 + u32::from_le_bytes(bytes[6..10].try_into().unwrap()) as usize
}

fn seed<C: serde::Serialize + Clone>(config: C, bytes: Vec<u8>, manifest: &Value, shipped: bool) -> Seed<C> {
    let sha = sha256_hex(&bytes);
    let mut manifest = manifest.clone();
    manifest["config"] = serde_json::to_value(&config).unwrap();
    manifest["sha256"] = Value::String(sha.clone());
    manifest["bytes"] = bytes.len().into();
    Seed { header: header_len(&bytes), config, bytes, sha, manifest, shipped }
}

/// A freshly built model's bytes made the same on every run: burn draws the initial weights from
/// a global generator and each parameter id from the OS, so without this the tiny seeds (and the
/// input an index names) would differ between runs. Ids and weights are rewritten from a fixed
/// generator; names, shapes and layout stay.
fn deterministic(mut bytes: Vec<u8>) -> Vec<u8> {
    let mut rng = Rng::new(0xb1a5);
    let end = header_len(&bytes);
    let ids: Vec<usize> = bytes[..end].windows(10).enumerate().filter(|(_, w)| w == b"hparam_id\x1b").map(|(i, _)| i + 10).collect();
    for i in ids {
        bytes[i..i + 8].copy_from_slice(&rng.next_u64().to_le_bytes());
    }
    for chunk in bytes[end.div_ceil(256) * 256..].chunks_exact_mut(4) {
        let x = ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2;
        chunk.copy_from_slice(&x.to_le_bytes());
    }
    bytes
}

/// Tokens a burnpack's CBOR metadata is made of: dtypes (4-byte ones keep the byte length
/// valid), its keys, integer heads, and small structures.
fn burnpack_dict() -> Vec<Vec<u8>> {
    let mut d: Vec<Vec<u8>> = ["F32", "F16", "F64", "I32", "U32", "I64", "U64", "I16", "U16", "BF16", "Flex32", "U8", "I8"]
        .iter()
        .map(|s| [&[0x60 + s.len() as u8][..], s.as_bytes()].concat())
        .collect();
    for store in ["Native", "U8", "U32"] {
        d.push([&b"\xa1\x64Bool"[..], &[0x60 + store.len() as u8], store.as_bytes()].concat());
    }
    // QFloat(QuantScheme::default()): the one dtype burn-pack exempts from its byte-length check.
    let t = |s: &str| [&[0x60 + s.len() as u8][..], s.as_bytes()].concat();
    let mut q = vec![0xa1];
    for part in [t("QFloat"), vec![0xa5], t("value"), t("Q8F"), t("store"), vec![0xa1], t("PackedU32"), vec![0]] {
        q.extend(part);
    }
    for part in [t("mode"), t("Symmetric"), t("tensor"), vec![0xf6], t("block"), vec![0xf6]] {
        q.extend(part);
    }
    d.push(q);
    for key in ["dtype", "shape", "data_offsets", "param_id", "tensors", "metadata", "scalars"] {
        d.push([&[0x60 + key.len() as u8][..], key.as_bytes()].concat());
    }
    for raw in [
        &b"\x18\x40"[..],
        b"\x19\x03\x00",
        b"\x1a\x00\x0d\x11\x00",
        b"\x1b\xff\xff\xff\xff\xff\xff\xff\xff",
        b"\x82",
        b"\x83",
        b"\x81",
        b"\x80",
        b"\xa0",
        b"\xf6",
        b"\x00",
        b"\x82\x00\x00",
        b"\x82\x18\x80\x18\x80",
        b"NRUB\x01\x00",
    ] {
        d.push(raw.to_vec());
    }
    d
}

/// Random bytes, sometimes behind a valid magic and version with a random metadata size.
fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let n = rng.len(4096);
    let mut b = rng.bytes(n);
    if rng.one_in(2) && b.len() >= 10 {
        b[..6].copy_from_slice(b"NRUB\x01\x00");
        if rng.one_in(2) {
            let size = rng.below(b.len()) as u32;
            b[6..10].copy_from_slice(&size.to_le_bytes());
        }
    }
    b
}

/// One tensor's dtype (`F32` in every seed) replaced by another dtype token of the dictionary
/// (the first 17 entries); the header's metadata size and the data section's alignment are
/// fixed up, so the file stays well-formed: 4-byte dtypes and `QFloat` then pass burn-pack's
/// byte-length check and reach the loader.
fn swap_dtype(rng: &mut Rng, bytes: &[u8], dict: &[&[u8]]) -> Vec<u8> {
    let hits: Vec<usize> = bytes.windows(4).enumerate().filter(|(_, w)| w == b"cF32").map(|(i, _)| i).collect();
    match hits.get(rng.below(hits.len().max(1))) {
        Some(&i) => with_dtype_at(bytes, i, dict[rng.below(17)]),
        None => bytes.to_vec(),
    }
}

/// `bytes` with the 4-byte dtype token at `at` (inside the metadata) replaced by `token`.
pub fn with_dtype_at(bytes: &[u8], at: usize, token: &[u8]) -> Vec<u8> {
    with_metadata(bytes, &[&bytes[10..at], token, &bytes[at + 4..header_len(bytes)]].concat())
}

/// `bytes` with its CBOR metadata replaced by `meta`: the header's size field and the 256-byte
/// alignment of the data section follow, so the tensor offsets still point at the same data.
fn with_metadata(bytes: &[u8], meta: &[u8]) -> Vec<u8> {
    let align = |n: usize| n.div_ceil(256) * 256;
    let data = &bytes[align(header_len(bytes)).min(bytes.len())..];
    let mut out = [&bytes[..6], &(meta.len() as u32).to_le_bytes()[..], meta].concat();
    out.resize(align(out.len()), 0);
    out.extend_from_slice(data);
    out
}

/// The input of a byte target: which seed, the bytes, the config to load them under.
fn byte_input<'a, C>(rng: &mut Rng, seeds: &'a [Seed<C>], dict: &[Vec<u8>], shipped_one_in: usize) -> (&'a Seed<C>, Vec<u8>, &'a C) {
    let tiny: Vec<&Seed<C>> = seeds.iter().filter(|s| !s.shipped).collect();
    let shipped: Vec<&Seed<C>> = seeds.iter().filter(|s| s.shipped).collect();
    let seed = if !shipped.is_empty() && rng.one_in(shipped_one_in) { *rng.pick(&shipped) } else { *rng.pick(&tiny) };
    let others: Vec<&[u8]> = tiny.iter().map(|s| s.bytes.as_slice()).collect();
    let dict: Vec<&[u8]> = dict.iter().map(Vec::as_slice).collect();
    let bytes = match rng.below(10) {
        0 => random_bytes(rng),
        1 => seed.bytes.clone(), // unchanged: with another config, a pure wrong-shape file
        2 => swap_dtype(rng, &seed.bytes, dict.as_slice()),
        3 | 4 => {
            // Edits of the metadata alone, the file rebuilt around it: the CBOR and its checks
            // see the edits instead of a size field that no longer fits.
            let meta = mutate_bytes(rng, &seed.bytes[10..seed.header], None, &dict, &[]);
            with_metadata(&seed.bytes, &meta)
        }
        _ => mutate_bytes(rng, &seed.bytes, Some(seed.header + 64), &dict, &others),
    };
    // Another seed's config (a wrong-shape file): a tiny one, or for shipped bytes any.
    let config = match rng.below(4) {
        0 if seed.shipped => &rng.pick(seeds).config,
        0 => &rng.pick(&tiny).config,
        _ => &seed.config,
    };
    (seed, bytes, config)
}

/// Non-empty Display, or the test fails.
fn shown(e: WeightsError) -> String {
    let s = e.to_string();
    assert!(!s.trim().is_empty(), "empty Display for {e:?}");
    s
}

pub struct GramSeeds {
    device: Device,
    seeds: Vec<Seed<GramConfig>>,
    dict: Vec<Vec<u8>>,
}

impl GramSeeds {
    pub fn new() -> GramSeeds {
        let device = Device::flex();
        let small = |c: GramConfig| c.with_d_model(16).with_d_hidden(16).with_d_guidance(16).with_n_heads(2);
        let tiny = [
            small(GramConfig::new(16, 3)),
            small(GramConfig::new(16, 3)).with_guidance(false).with_grid_cols(4),
            small(GramConfig::new(16, 3)).with_mixer(true).with_d_token_hidden(8),
            small(GramConfig::new(81, 11)).with_mixer(true).with_guidance(false).with_d_model(8).with_d_token_hidden(8).with_n_layers(1),
        ];
        let mut seeds = Vec::new();
        let (json, _) = shipped_files("gram-nqueens8");
        let template: Value = serde_json::from_str(&json).unwrap();
        for config in tiny {
            let bytes = deterministic(gram_to_bytes(&Gram::init(&config, &device)));
            seeds.push(seed(config, bytes, &template, false));
        }
        for stem in ["gram-nqueens8", "trm-nqueens8", "gram-sudoku"] {
            let (json, bytes) = shipped_files(stem);
            let m = Manifest::from_json(&json).unwrap();
            seeds.push(seed(m.config, bytes, &serde_json::from_str(&json).unwrap(), true));
        }
        GramSeeds { device, seeds, dict: burnpack_dict() }
    }
}

/// `gram_from_bytes(config, bytes)`, or `load_gram` with the manifest's sha256 set to the
/// bytes' (1 in 4); a loaded model must serialise again.
pub fn gram_bytes(fuzz: &mut Fuzz, index: u64, rng: &mut Rng, s: &GramSeeds, shipped_one_in: usize) {
    let (seed, bytes, config) = byte_input(rng, &s.seeds, &s.dict, shipped_one_in);
    let via_manifest = rng.one_in(4);
    let show = || format!("gram_from_bytes(config {config:?}, {}) via manifest {via_manifest}", escape_bytes("gram_bytes", index, &bytes));
    fuzz.case(index, show, || {
        let model = if via_manifest {
            let mut m: Manifest = serde_json::from_value(seed.manifest.clone()).unwrap();
            m.config = config.clone();
            m.sha256 = sha256_hex(&bytes);
            load_gram(&m, &bytes, &s.device)
        } else {
            gram_from_bytes(config, &bytes, &s.device)
        }
        .map_err(shown)?;
        if !seed.shipped {
            gram_to_bytes(&model);
        }
        Ok(())
    });
}

const JSON_CHARS: &[char] = &['{', '}', '[', ']', '"', ':', ',', '1', 'e', '-', 'a', 'n', 'u', 'l'];

/// `Manifest::from_json(text)` on mutated manifests (fields of `config` most often); an
/// accepted manifest round-trips (floats up to an ulp: [`same_json`]) and is handed to
/// `load_gram` with its seed's bytes, the sha256 made to match half the time so that the
/// mutated config reaches the model.
pub fn gram_manifest(fuzz: &mut Fuzz, index: u64, rng: &mut Rng, s: &GramSeeds, shipped_one_in: usize) {
    let seed = pick_for_manifest(rng, &s.seeds, shipped_one_in);
    let text = manifest_text(rng, &seed.manifest);
    let fix_hash = rng.one_in(2);
    fuzz.case(
        index,
        || format!("Manifest::from_json({})", escape_str(&text)),
        || {
            let mut m = Manifest::from_json(&text).map_err(shown)?;
            let again = Manifest::from_json(&m.to_json()).expect("a manifest's own JSON parses");
            assert!(same_json(&serde_json::to_value(&again).unwrap(), &serde_json::to_value(&m).unwrap()), "round trip: {again:?}");
            if fix_hash {
                m.sha256 = seed.sha.clone();
            }
            load_gram(&m, &seed.bytes, &s.device).map_err(shown)?;
            Ok(())
        },
    );
}

/// The same JSON up to the last bit of a float: serde_json's default float parser is not
/// correctly rounded for long mantissas, so an f64 read from `94.146512978323469715` (35
/// digits), written and read again can move by an ulp (found by the 1M run).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() || y.is_f64() => {
            let (p, q) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            p == q || (p - q).abs() <= 1e-14 * p.abs().max(q.abs())
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w))),
        _ => a == b,
    }
}

fn pick_for_manifest<'a, C>(rng: &mut Rng, seeds: &'a [Seed<C>], shipped_one_in: usize) -> &'a Seed<C> {
    let want_shipped = rng.one_in(shipped_one_in);
    let pool: Vec<&Seed<C>> = seeds.iter().filter(|s| s.shipped == want_shipped).collect();
    pool[rng.below(pool.len())]
}

fn manifest_text(rng: &mut Rng, manifest: &Value) -> String {
    match rng.below(12) {
        0 => random_text(rng, JSON_CHARS, 400),
        1 => {
            let text = serde_json::to_string_pretty(manifest).unwrap();
            mutate_text(rng, &text, JSON_CHARS, &["\"", "{", "}", "null", "0", "-1"], &[])
        }
        _ => mutate_manifest(rng, manifest, 3),
    }
}

pub struct ReasonerSeeds {
    device: Device,
    seeds: Vec<Seed<ReasonerModelConfig>>,
    dict: Vec<Vec<u8>>,
}

impl ReasonerSeeds {
    pub fn new() -> ReasonerSeeds {
        let device = Device::flex();
        let reasoner = ReasonerConfig::new(32, 51).with_d_model(16).with_d_attn(16).with_d_ffn(16).with_n_heads(2).with_n_layers(1);
        let talker = |kind| TalkerConfig::new(kind, 32, 6, 16).with_d_attn(16).with_d_ffn(16).with_n_heads(2).with_n_layers(1);
        let tiny = [
            ReasonerModelConfig { reasoner: reasoner.clone(), talker: talker(TalkerKind::Mono) },
            ReasonerModelConfig { reasoner: reasoner.with_n_layers(2), talker: talker(TalkerKind::Dual).with_n_encoder(1) },
        ];
        let (json, bytes) = shipped_files("reasoner-tree");
        let template: Value = serde_json::from_str(&json).unwrap();
        let mut seeds: Vec<Seed<ReasonerModelConfig>> = tiny
            .into_iter()
            .map(|c| seed(c.clone(), deterministic(reasoner_to_bytes(&ReasonerModel::init(&c, &device))), &template, false))
            .collect();
        seeds.push(seed(ReasonerManifest::from_json(&json).unwrap().config, bytes, &template, true));
        ReasonerSeeds { device, seeds, dict: burnpack_dict() }
    }
}

/// `reasoner_from_bytes(config, bytes)`, or `load_reasoner` with the sha256 set to match (1 in 4).
pub fn reasoner_bytes(fuzz: &mut Fuzz, index: u64, rng: &mut Rng, s: &ReasonerSeeds, shipped_one_in: usize) {
    let (seed, bytes, config) = byte_input(rng, &s.seeds, &s.dict, shipped_one_in);
    let via_manifest = rng.one_in(4);
    let show =
        || format!("reasoner_from_bytes(config {config:?}, {}) via manifest {via_manifest}", escape_bytes("reasoner_bytes", index, &bytes));
    fuzz.case(index, show, || {
        let model = if via_manifest {
            let mut m: ReasonerManifest = serde_json::from_value(seed.manifest.clone()).unwrap();
            m.config = config.clone();
            m.sha256 = sha256_hex(&bytes);
            load_reasoner(&m, &bytes, &s.device)
        } else {
            reasoner_from_bytes(config, &bytes, &s.device)
        }
        .map_err(shown)?;
        if !seed.shipped {
            reasoner_to_bytes(&model);
        }
        Ok(())
    });
}

/// `ReasonerManifest::from_json(text)`, then `load_reasoner` as in [`gram_manifest`].
pub fn reasoner_manifest(fuzz: &mut Fuzz, index: u64, rng: &mut Rng, s: &ReasonerSeeds, shipped_one_in: usize) {
    let seed = pick_for_manifest(rng, &s.seeds, shipped_one_in);
    let text = manifest_text(rng, &seed.manifest);
    let fix_hash = rng.one_in(2);
    fuzz.case(
        index,
        || format!("ReasonerManifest::from_json({})", escape_str(&text)),
        || {
            let mut m = ReasonerManifest::from_json(&text).map_err(shown)?;
            let again = ReasonerManifest::from_json(&m.to_json()).expect("a manifest's own JSON parses");
            assert!(same_json(&serde_json::to_value(&again).unwrap(), &serde_json::to_value(&m).unwrap()), "round trip: {again:?}");
            if fix_hash {
                m.sha256 = seed.sha.clone();
            }
            load_reasoner(&m, &seed.bytes, &s.device).map_err(shown)?;
            Ok(())
        },
    );
}
