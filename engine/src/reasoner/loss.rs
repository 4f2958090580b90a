//! The three training objectives (the JEPA-Reasoner paper, sections 4.1, 4.2 and 5.1.3).
//!
//! 1. Pretraining: next-token cross-entropy through the temporary tied LM head, L2 off, loss on
//!    every real position.
//! 2. SST: `k - k * cos(pred, target)` with k = 4; `pred` the Reasoner's latent (hybrid norm on),
//!    `target` the EMA encoder's latent of the next token; loss only on the route positions
//!    (the ones whose next token is part of the route or its end of sentence). Teacher forcing.
//! 3. Talker: cross-entropy reconstruction of the route's tokens from the Reasoner's route
//!    latents, the Reasoner frozen (its latents come in detached).

use burn::tensor::activation::log_softmax;
use burn::tensor::{Int, Tensor};

use super::model::{Reasoner, Talker};

/// A teacher-forced batch. `inputs` / `next` are the sequence shifted by one; masks are 1.0
/// where a position counts.
pub struct SeqBatch {
    /// `[B, L]`
    pub inputs: Tensor<2, Int>,
    /// `[B, L]`: the token after each input.
    pub next: Tensor<2, Int>,
    /// `[B, L]`: the next token is real (not padding).
    pub real: Tensor<2>,
    /// `[B, L]`: the next token is a route token or the route's end of sentence.
    pub route: Tensor<2>,
}

/// The paper's scale for the cosine loss.
pub const SST_K: f64 = 4.0;
/// Momentum of the EMA target encoder.
pub const EMA_MOMENTUM: f64 = 0.98;

fn masked_mean(x: Tensor<2>, mask: Tensor<2>) -> Tensor<1> {
    (x * mask.clone()).sum() / mask.sum().clamp_min(1.0)
}

/// Cross-entropy `[B, L]` of `logits` `[B, L, V]` against `targets` `[B, L]`, and argmax hits.
fn token_ce(logits: Tensor<3>, targets: Tensor<2, Int>) -> (Tensor<2>, Tensor<2>) {
    let [b, l, _] = logits.dims();
    let logp = log_softmax(logits.clone(), 2);
    let ce = -logp.gather(2, targets.clone().reshape([b, l, 1])).reshape([b, l]);
    let hit = logits.argmax(2).reshape([b, l]).equal(targets).float();
    (ce, hit)
}

/// What a loss reports besides the tensor to differentiate.
pub struct LossOut {
    pub loss: Tensor<1>,
    /// Pretraining / Talker: cross-entropy on the counted positions. SST: mean cosine on the route.
    pub value: f32,
    /// Share of route positions (Talker: of counted tokens) whose prediction is right: argmax of
    /// the LM head (pretraining), the nearest vocabulary latent (SST), the Talker's token.
    pub route_acc: f32,
}

/// Pretraining: next-token prediction on all real positions.
pub fn pretrain_loss(model: &Reasoner, batch: &SeqBatch) -> LossOut {
    let hidden = model.hidden(model.embed_tokens(batch.inputs.clone()));
    let (ce, hit) = token_ce(model.lm_logits(hidden), batch.next.clone());
    let loss = masked_mean(ce, batch.real.clone());
    let route_acc = masked_mean(hit, batch.route.clone()).into_scalar();
    LossOut { value: loss.clone().into_scalar(), loss, route_acc }
}

/// SST: scaled cosine distance to the EMA targets on route positions.
pub fn sst_loss(model: &Reasoner, batch: &SeqBatch, k: f64) -> LossOut {
    let pred = model.latents(model.embed_tokens(batch.inputs.clone())); // [B, L, D], unit rows
    let target = model.target_latents(batch.next.clone()); // [B, L, D], unit rows, detached
    let [b, l, _] = pred.dims();
    let cos = (pred.clone() * target).sum_dim(2).reshape([b, l]); // [B, L]
    let mean_cos = masked_mean(cos.clone(), batch.route.clone());
    let loss = mean_cos.clone().neg() * k + k;
    let route_acc = masked_mean(nearest_hits(model, pred, batch.next.clone()), batch.route.clone()).into_scalar();
    LossOut { value: mean_cos.into_scalar(), loss, route_acc }
}

/// 1.0 where a latent's nearest vocabulary latent (the token it means) is `next`'s token.
/// `[B, L, D]`, `[B, L]` -> `[B, L]`
fn nearest_hits(model: &Reasoner, pred: Tensor<3>, next: Tensor<2, Int>) -> Tensor<2> {
    let [b, l, d] = pred.dims();
    let sims = pred.reshape([b * l, d]).matmul(model.vocab_latents().transpose()).reshape([b, l, model.vocab()]);
    sims.argmax(2).reshape([b, l]).equal(next).float()
}

/// SST on free-running latents (not in the JEPA-Reasoner paper, whose SST is teacher-forced):
/// `n` latents looped back after `prefix` `[B, L]` as at inference, gradients through the loop,
/// each against the EMA target of the token it stands for in `window` `[B, >= n]`. Reports the
/// mean cosine and the share of latents whose nearest vocabulary latent is the token.
pub fn rollout_loss(model: &Reasoner, prefix: Tensor<2, Int>, window: Tensor<2, Int>, n: usize, k: f64) -> LossOut {
    let (_, pred) = super::latent_loop::latent_loop(model, model.embed_tokens(prefix), n, 0.0, &mut []); // [B, n, D]
    let b = pred.dims()[0];
    let next = window.slice([0..b, 0..n]);
    let target = model.target_latents(next.clone());
    let cos = (pred.clone() * target).sum_dim(2).reshape([b, n]);
    let mean_cos = cos.mean();
    let loss = mean_cos.clone().neg() * k + k;
    let hit = nearest_hits(model, pred, next).mean();
    LossOut { value: mean_cos.into_scalar(), loss, route_acc: hit.into_scalar() }
}

/// Talker: reconstruct `targets` `[B, R]` from `latents` `[B, R, D]` (detached by the caller);
/// `previous` is `[ROUTE]` then the targets shifted (Dual-Talker's decoder input).
pub fn talker_loss(talker: &Talker, latents: Tensor<3>, previous: Tensor<2, Int>, targets: Tensor<2, Int>, mask: Tensor<2>) -> LossOut {
    let (ce, hit) = token_ce(talker.logits(latents, previous), targets);
    let loss = masked_mean(ce, mask.clone());
    let route_acc = masked_mean(hit, mask).into_scalar();
    LossOut { value: loss.clone().into_scalar(), loss, route_acc }
}
