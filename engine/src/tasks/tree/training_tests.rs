//! The JEPA-Reasoner and its Talkers trained on trees: pretraining, SST and the Talker learn
//! what they should (tests of the `jepa` models on this task; the weights module's round-trip
//! test borrows [`tiny`] and [`tasks`] from here).

use burn::tensor::Device;

use crate::gram::noise::NoiseSource;
use crate::reasoner::loss::{EMA_MOMENTUM, SST_K, pretrain_loss, sst_loss};
use crate::reasoner::*;
use crate::tasks::tree::reasoner::{action_filter, seq_batch, solve_trees};
use crate::tasks::tree::{self, TreeTask};
use crate::transfer::ReadBack;

/// A JEPA config small enough for unit tests, with the given Talker.
pub(crate) fn tiny(kind: TalkerKind) -> ReasonerModelConfig {
    let mut c = crate::tasks::tree::reasoner_config();
    c.reasoner = c.reasoner.with_d_model(16).with_d_attn(16).with_d_ffn(32).with_n_heads(2).with_n_layers(2);
    c.talker = TalkerConfig::new(kind, c.talker.vocab, c.talker.max_len, 16)
        .with_d_attn(16)
        .with_d_ffn(32)
        .with_n_heads(2)
        .with_n_layers(1)
        .with_n_encoder(1);
    c
}

/// `n` random trees from a fixed seed.
pub(crate) fn tasks(n: usize) -> Vec<TreeTask> {
    let mut rng = NoiseSource::new(4);
    (0..n).map(|_| TreeTask::random(&mut rng)).collect()
}

#[test]
fn latents_lie_on_the_unit_sphere() {
    let device = Device::flex();
    device.seed(1);
    let m = ReasonerModel::init(&tiny(TalkerKind::Mono), &device);
    let b = seq_batch(&tasks(3), &device);
    let z = m.reasoner.latents(m.reasoner.embed_tokens(b.inputs.clone()));
    let norms = z.powf_scalar(2.0).sum_dim(2).sqrt();
    let err: f32 = (norms - 1.0).abs().max().into_scalar();
    assert!(err < 1e-5, "{err}");
    // Also the generated ones, with and without noise off.
    for a in solve_trees(&m, &tasks(4), 0.0, 0, &device) {
        for l in &a.latents {
            let n: f32 = l.iter().map(|v| v * v).sum::<f32>().sqrt();
            assert!((n - 1.0).abs() < 1e-5);
        }
    }
}

#[test]
fn ema_update_is_exact() {
    let device = Device::flex();
    device.seed(2);
    let r = ReasonerConfig::new(8, 8).with_d_model(4).with_d_attn(4).with_d_ffn(8).with_n_heads(1).with_n_layers(1).init(&device);
    let r = r.reset_target();
    let (e, t) = r.embeddings();
    assert!((e.clone() - t).abs().max().into_scalar::<f32>() < 1e-7);
    // Move the target away, then one EMA step: m * t + (1 - m) * e, to float precision.
    let mut r = r;
    r.target_embed = r.target_embed.map(|t| t * 0.0 + 1.0);
    let r = r.ema_update(EMA_MOMENTUM);
    let (e2, t2) = r.embeddings();
    let want = e2.clone() * (1.0 - EMA_MOMENTUM) + EMA_MOMENTUM;
    assert!((t2 - want).abs().max().into_scalar::<f32>() < 1e-6);
    assert!((e2 - e).abs().max().into_scalar::<f32>() == 0.0, "EMA must not touch the input embedding");
}

#[test]
fn masks_count_what_they_must() {
    let device = Device::flex();
    let t = TreeTask::parse("NL, NO, LA, LB[ROOT]N[TARGET]B[ROUTE]").unwrap();
    let b = seq_batch(std::slice::from_ref(&t), &device);
    let route: Vec<f32> = b.route.floats().unwrap();
    let real: Vec<f32> = b.real.floats().unwrap();
    let next: Vec<i64> = b.next.ints().unwrap();
    let toks = t.full_tokens();
    let start = action_filter(&toks).unwrap();
    assert_eq!(tree::token_name(toks[start - 1]), "[ROUTE]");
    // Route positions: exactly those predicting N, L, B, [EOS].
    let counted: Vec<String> = (0..route.len()).filter(|&i| route[i] == 1.0).map(|i| tree::token_name(next[i] as u32)).collect();
    assert_eq!(counted, ["N", "L", "B", "[EOS]"]);
    // Real positions: every token after the first; padding never counts.
    assert_eq!(real.iter().sum::<f32>() as usize, toks.len() - 1);
}

#[test]
fn losses_are_finite_and_sst_is_zero_at_the_target() {
    let device = Device::flex().autodiff();
    device.seed(3);
    let m = ReasonerModel::init(&tiny(TalkerKind::Mono), &device);
    let b = seq_batch(&tasks(4), &device);
    let p = pretrain_loss(&m.reasoner, &b);
    assert!(p.value.is_finite() && p.value > 0.0);
    let s = sst_loss(&m.reasoner, &b, SST_K);
    assert!((-1.0..=1.0).contains(&s.value));
    let loss: f32 = s.loss.clone().into_scalar();
    assert!((loss as f64 - (SST_K - SST_K * s.value as f64)).abs() < 1e-4);
    // Gradients reach the layers and the input embedding, not the EMA target.
    let grads = s.loss.backward();
    assert!(m.reasoner.embed.weight.grad(&grads).is_some());
    assert!(m.reasoner.target_embed.grad(&grads).is_none());
}

/// A task's answer does not depend on its batch-mates, with noise on.
#[test]
fn answers_do_not_depend_on_the_batch() {
    let device = Device::flex();
    device.seed(6);
    let m = ReasonerModel::init(&tiny(TalkerKind::Mono), &device);
    let ts = tasks(6);
    let all = solve_trees(&m, &ts, 0.1, 9, &device);
    let alone = solve_trees(&m, &ts[..1], 0.1, 9, &device);
    let d: f32 = all[0].latents[2].iter().zip(&alone[0].latents[2]).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
    assert!(d < 1e-4, "{d}");
}
