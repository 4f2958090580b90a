//! One deep-supervision step of training (the GRAM paper, section 2.2, appendices B.1 and C.1).
//!
//! ```text
//! z_{T-1} = T-1 transitions from the carried state, eps ~ q, no gradient (truncation, eq. 20)
//! h_T     = last transition with gradient, eps_T ~ q(eps | u_T, y)       (eq. 22)
//! loss    = CE(lm_head(h_T), y) + beta * sum_t KL_bal(q_t || p_t)         (truncated ELBO)
//!         + 0.5 * BCE(q_halt(h_T), r) + 0.5 * sum_t (v(h_t) - r)^2        (halting, LPRM eq. 14)
//! carry   = stopgrad(z_T) to the next supervision step
//! ```
//!
//! Deviation from eq. 13, measured: the paper keeps only KL_T. We also keep KL_t for t < T, with
//! u_t detached, so those terms train only the prior and posterior heads (the states stay
//! truncated exactly as in eq. 20). Without them the posterior's early transitions are never
//! regularised and carry the answer y into the state: at step 500 of our first 8x8 run training
//! predictions were 100% valid under the posterior while sampling from the prior gave 0%
//! (KL_T was 0.04 nats per position). The sum over t is the full ELBO's KL (eq. 17) with the
//! same gradient truncation.
//! `r` is 1 when the step's greedy prediction is a valid answer (checked by the task's exact
//! validator), else 0. Deviation: the paper's r is "the accuracy of the final prediction"; for
//! multi-solution puzzles validity is that accuracy, and using the current step's prediction lets
//! the same target train the halting head, as TRM does. The loss weights 0.5 follow TRM's Q loss.

use burn::tensor::activation::{log_softmax, relu};
use burn::tensor::{Int, Tensor, TensorData};

use super::GramConfig;
use super::core::{Gram, Latent, Noise};
use super::guidance::balanced_kl;
use super::noise::NoiseSource;
use crate::transfer;

/// A batch at one supervision step.
pub struct SupervisionBatch {
    /// Puzzle tokens `[B, L]`.
    pub x: Tensor<2, Int>,
    /// Target tokens `[B, L]` (one valid answer per row).
    pub y: Tensor<2, Int>,
    /// Carried state (detached).
    pub z: Latent,
}

/// What a supervision step returns to the training loop.
pub struct SupervisionOutput {
    /// Scalar loss to backpropagate, `[1]`.
    pub loss: Tensor<1>,
    /// Mean token cross-entropy.
    pub ce: f32,
    /// KL(q || p) per position, summed over the T transitions (0 for TRM).
    pub kl: f32,
    /// Greedy predictions `[B][L]`.
    pub predictions: Vec<Vec<u32>>,
    /// Reward r per row (1 = valid answer).
    pub rewards: Vec<f32>,
    /// Halting logits per row.
    pub halt_logits: Vec<f32>,
    /// The state to carry, detached.
    pub z: Latent,
}

/// Numerically stable binary cross-entropy with logits, averaged. # Shapes: `[B]`, `[B]` -> `[1]`.
fn bce_with_logits(logits: Tensor<1>, targets: Tensor<1>) -> Tensor<1> {
    // max(x, 0) - x * t + log(1 + exp(-|x|))
    (relu(logits.clone()) - logits.clone() * targets + (-logits.abs()).exp().log1p()).mean()
}

/// One supervision step: T transitions, the truncated ELBO on the last, halting and LPRM losses.
/// `reward(row, prediction)` is the task's validator (1.0 valid, 0.0 not).
pub fn supervision_step(
    model: &Gram,
    config: &GramConfig,
    batch: SupervisionBatch,
    reward: &dyn Fn(usize, &[u32]) -> f32,
    source: &mut NoiseSource,
) -> SupervisionOutput {
    let SupervisionBatch { x, y, z } = batch;
    let device = x.device();
    let prior_rows = prior_rows(config, y.dims()[0], source, &device);
    let e_x = model.encode(x); // [B, L, D]
    // t = 1 .. T-1: the states are detached; only the guidance heads see these KL terms.
    let mut z = z;
    let mut h_history = Vec::with_capacity(model.t_outer());
    let mut kl = Tensor::<1>::zeros([1], &device);
    for _ in 1..model.t_outer() {
        let step = model.transition(z, &e_x, posterior_or_off(model, &y, source, true, prior_rows.clone()));
        if let Some((q, p)) = &step.guidance {
            kl = kl + balanced_kl(q, p, config.kl_balance).mean();
        }
        z = step.z.detach();
        h_history.push(z.h.clone());
    }
    // t = T: full gradient through f_L, f_H, the heads, encoder and decoder.
    let last = model.transition(z, &e_x, posterior_or_off(model, &y, source, false, prior_rows));
    let h_t = last.z.h.clone();
    h_history.push(h_t.clone());
    if let Some((q, p)) = &last.guidance {
        kl = kl + balanced_kl(q, p, config.kl_balance).mean(); // [1]
    }

    let logits = model.decode(h_t.clone()); // [B, L, V]
    let [b, l, _] = logits.dims();
    let logp = log_softmax(logits.clone(), 2); // [B, L, V]
    let picked = logp.gather(2, y.clone().reshape([b, l, 1])); // [B, L, 1]
    let ce = -picked.mean(); // [1]
    let halt = model.halt_logit(h_t); // [B]

    // The one read of the step: what the host needs for the rewards and the refill, with the
    // CE and KL for the log and the finiteness check (predictions < 2^24 are exact as f32).
    let host = HostView::read(logits.argmax(2).reshape([b * l]).float(), halt.clone(), ce.clone(), kl.clone());
    let predictions: Vec<Vec<u32>> = host.values[..b * l].chunks(l).map(|row| row.iter().map(|&v| v as u32).collect()).collect();
    let rewards: Vec<f32> = predictions.iter().enumerate().map(|(i, p)| reward(i, p)).collect();
    let r = transfer::upload::<1, burn::tensor::Float>(TensorData::new(rewards.clone(), [b]), &device);

    let halt_loss = bce_with_logits(halt.clone(), r.clone());
    let value_loss =
        h_history.into_iter().map(|h| (model.value(h) - r.clone()).powf_scalar(2.0).mean()).reduce(|a, c| a + c).expect("T >= 1");

    // Free bits: below the floor the KL term is constant, so it has no gradient there.
    let kl_cost = match config.free_bits {
        Some(floor) if floor > 0.0 => kl.clone().clamp_min(floor),
        _ => kl.clone(),
    };
    let loss = ce.clone() + kl_cost * config.beta + halt_loss * 0.5 + value_loss * 0.5;
    SupervisionOutput {
        loss,
        ce: host.values[b * l + b],
        kl: host.values[b * l + b + 1],
        predictions,
        rewards,
        halt_logits: host.values[b * l..b * l + b].to_vec(),
        z: last.z.detach(),
    }
}

/// The step's values the host reads, in one read: predictions `[B * L]`, halting logits `[B]`,
/// then CE and KL.
struct HostView {
    values: Vec<f32>,
}

impl HostView {
    fn read(predictions: Tensor<1>, halt: Tensor<1>, ce: Tensor<1>, kl: Tensor<1>) -> HostView {
        let all = Tensor::cat(vec![predictions, halt.detach(), ce.detach(), kl.detach()], 0);
        HostView { values: transfer::read(all).try_to_vec::<f32>().expect("a float tensor") }
    }
}

/// Training draws eps from the posterior (GRAM) or not at all (TRM).
fn posterior_or_off<'a>(
    model: &Gram,
    y: &Tensor<2, Int>,
    source: &'a mut NoiseSource,
    stop_u: bool,
    prior_rows: Option<Tensor<3>>,
) -> Noise<'a> {
    if model.has_guidance() { Noise::Posterior { y: y.clone(), source, stop_u, prior_rows } } else { Noise::Off }
}

/// The rows of this supervision step that take the prior's draw (`GramConfig::prior_rows`),
/// `[B, 1, 1]` of 1 or 0; `None` (and no draw from `source`, so a plain run's noise is
/// unchanged) when the share is unset or 0.
fn prior_rows(config: &GramConfig, rows: usize, source: &mut NoiseSource, device: &burn::tensor::Device) -> Option<Tensor<3>> {
    let share = config.prior_rows.filter(|&p| p > 0.0 && config.guidance)?;
    let marks: Vec<f32> = (0..rows).map(|_| if source.uniform() < share { 1.0 } else { 0.0 }).collect();
    Some(transfer::upload(TensorData::new(marks, [rows, 1, 1]), device))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transfer::ReadBack;
    use burn::tensor::Device;

    /// One supervision step of a small GRAM, twice from the same noise: with free bits above the
    /// KL the loss is the plain one with beta x KL replaced by beta x the floor; with a floor of 0
    /// it is the plain loss.
    #[test]
    fn free_bits_replace_a_kl_below_the_floor_by_the_floor() {
        let config = GramConfig::new(4, 3).with_d_model(8).with_n_heads(2).with_d_hidden(16).with_d_guidance(16).with_beta(2.0);
        let device = Device::flex();
        let model = Gram::init(&config, &device);
        let step = |config: &GramConfig| {
            let mut source = NoiseSource::new(5);
            let x = Tensor::<2, Int>::from_data(TensorData::new(vec![1i64, 2, 1, 1], [1, 4]), &device);
            let y = Tensor::<2, Int>::from_data(TensorData::new(vec![1i64, 2, 2, 1], [1, 4]), &device);
            let z = model.start_state(1, 4, &mut source);
            let out = supervision_step(&model, config, SupervisionBatch { x, y, z }, &|_, _| 0.0, &mut source);
            (out.loss.into_scalar::<f32>(), out.kl)
        };
        let (plain, kl) = step(&config);
        let floor = kl as f64 + 1.0;
        let (freed, kl_again) = step(&config.clone().with_free_bits(Some(floor)));
        assert_eq!(kl, kl_again, "same noise, same KL");
        let expected = plain as f64 + config.beta * (floor - kl as f64);
        assert!((freed as f64 - expected).abs() < 1e-4, "{freed} vs {expected}");
        let (zero, _) = step(&config.clone().with_free_bits(Some(0.0)));
        assert_eq!(zero, plain);
    }

    /// Prior rows see no answer: with the shipped 8-vertex GRAM (whose posterior reads the
    /// answer), one graph and two of its colourings as targets, the same noise gives the same
    /// state and halting logits whichever the target when every row takes the prior's draw,
    /// and different states under the posterior. A share of 0 is the plain step, noise included.
    #[test]
    fn prior_rows_draw_eps_without_the_answer() {
        use crate::tasks::coloring::{SplitMix64, canonical_colourings, random_graph};
        let device = Device::flex();
        let model = crate::test_support::shipped_gram("gram-coloring8", &device);
        let config = crate::tasks::coloring::gram_config(8, true).with_beta(3.0);
        let mut rng = SplitMix64(7);
        let (graph, colourings) = loop {
            let g = random_graph(8, 0.45, &mut rng);
            let c = canonical_colourings(&g);
            if c.len() >= 2 {
                break (g, c);
            }
        };
        let l = graph.tokens().len();
        let step = |config: &GramConfig, target: usize| {
            let mut source = NoiseSource::new(3);
            let tokens =
                |t: Vec<u32>| Tensor::<2, Int>::from_data(TensorData::new(t.into_iter().map(i64::from).collect(), [1, l]), &device);
            let (x, y) = (tokens(graph.tokens()), tokens(graph.target_tokens(&colourings[target])));
            let z = model.start_state(1, l, &mut source);
            let out = supervision_step(&model, config, SupervisionBatch { x, y, z }, &|_, _| 0.0, &mut source);
            (out.loss.into_scalar::<f32>(), out.halt_logits, out.z.h.floats().unwrap())
        };
        let (plain_a, plain_b) = (step(&config, 0), step(&config, 1));
        assert_ne!(plain_a.2, plain_b.2, "under the posterior the state depends on the target");
        let prior = config.clone().with_prior_rows(Some(1.0));
        let (prior_a, prior_b) = (step(&prior, 0), step(&prior, 1));
        assert_eq!(prior_a.1, prior_b.1, "halting logits under the prior depend on the target");
        assert_eq!(prior_a.2, prior_b.2, "the state under the prior depends on the target");
        assert_ne!(prior_a.2, plain_a.2, "prior rows changed nothing");
        assert_eq!(step(&config.clone().with_prior_rows(Some(0.0)), 0).0, plain_a.0);
    }
}
