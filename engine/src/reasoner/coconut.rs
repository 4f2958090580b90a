//! The COCONUT baseline (the JEPA-Reasoner paper, section 5.2.2; Hao et al. 2024): a coupled model that thinks
//! in continuous latents and then speaks, in one sequence. After the prefix it runs
//! [`THOUGHTS`] latent steps ([`latent_loop`]: the last position's normalised output appended
//! as the next input), then writes tokens greedily, each conditioned on the prefix, the
//! thoughts and the tokens before it. The thoughts stand in for the first [`THOUGHTS`] tokens
//! of the continuation; the tokens written are the ones after them.
//!
//! Training (one objective, no curriculum; the deviation is in docs/results/grammar.md): the thoughts are
//! produced with gradients flowing through every loop, then one teacher-forced pass over
//! prefix + thoughts + answer tokens; cross-entropy on the prefix's next tokens and on the
//! answer tokens, none on the thought positions ("excluding the hidden state positions"). The
//! two means are added so the four answer tokens weigh as much as the prefix.

use burn::tensor::{Int, Tensor};

use super::latent_loop::latent_loop;
use super::loss::LossOut;
use super::model::Reasoner;
use crate::gram::noise::NoiseSource;
use crate::transfer::ReadBack;
use burn::tensor::activation::log_softmax;

/// Continuous thoughts before the tokens (the paper: 4 latents, then 4 tokens).
pub const THOUGHTS: usize = 4;

/// Mean cross-entropy and accuracy of `logits` `[B, L, V]` against `targets` `[B, L]`.
fn ce(logits: Tensor<3>, targets: Tensor<2, Int>) -> (Tensor<1>, f32) {
    let [b, l, _] = logits.dims();
    let logp = log_softmax(logits.clone(), 2);
    let loss = -logp.gather(2, targets.clone().reshape([b, l, 1])).mean();
    let acc = logits.argmax(2).reshape([b, l]).equal(targets).float().mean().into_scalar();
    (loss, acc)
}

/// The training loss. `prefix` `[B, P]`: BOS and the prefix's terminals; `answer` `[B, A]`: the
/// continuation's tokens after the thoughts' share (teacher-forced, A >= 1).
pub fn coconut_loss(model: &Reasoner, prefix: Tensor<2, Int>, answer: Tensor<2, Int>) -> LossOut {
    let [b, p] = prefix.dims();
    let a = answer.dims()[1];
    let x = model.embed_tokens(prefix.clone());
    let (x, _) = latent_loop(model, x, THOUGHTS, 0.0, &mut []);
    let fed = model.embed_tokens(answer.clone().slice([0..b, 0..a - 1]));
    let logits = model.lm_logits(model.hidden(Tensor::cat(vec![x, fed], 1))); // [B, P + T + A - 1, V]
    let v = logits.dims()[2];
    let (prefix_ce, _) = ce(logits.clone().slice([0..b, 0..p - 1, 0..v]), prefix.slice([0..b, 1..p]));
    let start = p + THOUGHTS - 1;
    let (answer_ce, acc) = ce(logits.slice([0..b, start..start + a, 0..v]), answer);
    let value = answer_ce.clone().into_scalar();
    LossOut { loss: prefix_ce + answer_ce, value, route_acc: acc }
}

/// Thinks, then writes `n` tokens greedily. `x` `[B, L, D]`: the embedded prefix; latent noise as
/// in [`latent_loop`]. Returns `[B][n]` tokens.
pub fn coconut_complete(model: &Reasoner, x: Tensor<3>, n: usize, noise_frac: f64, noise: &mut [NoiseSource]) -> Vec<Vec<u32>> {
    let (x, _) = latent_loop(model, x, THOUGHTS, noise_frac, noise);
    greedy(model, x, n)
}

/// `n` tokens written greedily by the tied LM head after the embedded input `x` `[B, L, D]`.
pub fn greedy(model: &Reasoner, x: Tensor<3>, n: usize) -> Vec<Vec<u32>> {
    let b = x.dims()[0];
    let mut x = x;
    let mut out = vec![Vec::with_capacity(n); b];
    for _ in 0..n {
        let l = x.dims()[1];
        let logits = model.lm_logits(model.hidden(x.clone())); // [B, L, V]
        let v = logits.dims()[2];
        let next = logits.slice([0..b, l - 1..l, 0..v]).argmax(2).reshape([b, 1]); // [B, 1]
        let ids: Vec<i64> = next.clone().ints().unwrap();
        for (o, &t) in out.iter_mut().zip(&ids) {
            o.push(t as u32);
        }
        x = Tensor::cat(vec![x, model.embed_tokens(next)], 1);
    }
    out
}
