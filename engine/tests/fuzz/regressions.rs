//! The inputs the fuzz targets found, as fixed cases: each panicked or aborted the process in
//! the loader before `engine::weights` / `engine::weights::reasoner` checked for it, and must now be
//! a readable error.

use burn::tensor::Device;
use engine::gram::{Gram, GramConfig};
use engine::reasoner::model::{ReasonerConfig, ReasonerModel, ReasonerModelConfig, TalkerConfig, TalkerKind};
use engine::weights::reasoner::{ReasonerManifest, reasoner_from_bytes, reasoner_to_bytes};
use engine::weights::{WeightsError, gram_from_bytes, gram_to_bytes};

fn tiny_gram() -> GramConfig {
    GramConfig::new(16, 3).with_d_model(16).with_d_hidden(16).with_d_guidance(16).with_n_heads(2)
}

fn tiny_reasoner(kind: TalkerKind) -> ReasonerModelConfig {
    let reasoner = ReasonerConfig::new(32, 51).with_d_model(16).with_d_attn(16).with_d_ffn(16).with_n_heads(2).with_n_layers(1);
    let talker = TalkerConfig::new(kind, 32, 6, 16).with_d_attn(16).with_d_ffn(16).with_n_heads(2).with_n_layers(1);
    ReasonerModelConfig { reasoner, talker }
}

/// The first tensor's dtype `F32` (CBOR text "F32") replaced by `token`, the file kept valid.
fn with_dtype(bytes: &[u8], token: &[u8]) -> Vec<u8> {
    let i = bytes.windows(4).position(|w| w == b"cF32").expect("an f32 tensor");
    super::weights::with_dtype_at(bytes, i, token)
}

fn readable<T>(result: Result<T, WeightsError>, what: &str) -> String {
    match result {
        Ok(_) => panic!("{what}: loaded"),
        Err(e) => {
            let shown = e.to_string();
            assert!(!shown.trim().is_empty(), "{what}: empty error");
            shown
        }
    }
}

/// A 4-byte non-float dtype keeps burn-pack's byte-length check happy; burn then panicked with
/// "Expected float dtype, got U32" applying the record (gram_bytes inputs 52 and 217, reasoner_bytes
/// 36 and 115 of the first run). QFloat skips the length check altogether.
#[test]
fn non_f32_tensors_are_refused() {
    let device = Device::flex();
    let gram = gram_to_bytes(&Gram::init(&tiny_gram(), &device));
    let jepa = reasoner_to_bytes(&ReasonerModel::init(&tiny_reasoner(TalkerKind::Mono), &device));
    let qfloat = b"\xa1fQFloat\xa5evaluecQ8Festore\xa1iPackedU32\x00dmodeiSymmetricftensor\xf6eblock\xf6";
    for token in [&b"cI32"[..], b"cU32", b"\xa1dBoolcU32", qfloat] {
        let e = readable(gram_from_bytes(&tiny_gram(), &with_dtype(&gram, token), &device), "gram");
        assert!(e.contains("f32"), "{e}");
        let e = readable(reasoner_from_bytes(&tiny_reasoner(TalkerKind::Mono), &with_dtype(&jepa, token), &device), "jepa");
        assert!(e.contains("f32"), "{e}");
    }
}

/// Config fields from a mutated manifest: `init` asserted (heads, RoPE), divided by zero, or
/// tried to allocate ~2^57 bytes and aborted (gram_manifest, reasoner_manifest).
#[test]
fn configs_that_cannot_be_built_are_refused() {
    let device = Device::flex();
    let bytes = gram_to_bytes(&Gram::init(&tiny_gram(), &device));
    let bad = [
        tiny_gram().with_n_heads(3),
        tiny_gram().with_n_heads(0),
        tiny_gram().with_n_heads(16),
        GramConfig { seq_len: 1 << 55, ..tiny_gram() },
        tiny_gram().with_d_model(0).with_n_layers(usize::MAX),
        tiny_gram().with_d_hidden(1 << 40),
        tiny_gram().with_mixer(true).with_d_token_hidden(0),
    ];
    for config in bad {
        readable(gram_from_bytes(&config, &bytes, &device), &format!("{config:?}"));
    }
    let bytes = reasoner_to_bytes(&ReasonerModel::init(&tiny_reasoner(TalkerKind::Dual), &device));
    let mut bad = vec![tiny_reasoner(TalkerKind::Dual); 4];
    bad[0].talker.n_encoder = 1 << 50;
    bad[1].talker.n_heads = 0;
    bad[2].reasoner.max_len = usize::MAX;
    bad[3].reasoner.d_attn = 6;
    for config in bad {
        readable(reasoner_from_bytes(&config, &bytes, &device), &format!("{config:?}"));
    }
}

/// serde_json read 1e39 into an f32 as infinity; `to_json` then wrote null, which does not parse.
#[test]
fn reasoner_manifest_numbers_beyond_f32_are_refused() {
    let dir = crate::common::shipped_dir();
    let mut m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("reasoner-tree.json")).unwrap()).unwrap();
    m["reference"]["first_latent"][0] = serde_json::json!(1e39);
    let e = readable(ReasonerManifest::from_json(&m.to_string()), "first_latent 1e39");
    assert!(e.contains("first_latent"), "{e}");
}
