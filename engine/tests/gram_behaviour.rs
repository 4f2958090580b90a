//! Behaviour of GRAM / TRM on tiny models: sampling is seeded and observable step by step,
//! deterministic recursion gives identical samples, guidance scale 0 is the mean path, halting
//! freezes answers, and a few optimiser steps of the truncated ELBO reduce the loss (starting from
//! prior = posterior, KL 0).

use burn::module::Module;
use burn::optim::{AdamWConfig, GradientsParams};
use burn::tensor::{Device, Int, Tensor, TensorData};
use engine::gram::loss::supervision_step;
use engine::gram::noise::NoiseSource;
use engine::gram::{Gram, SampleOptions, SupervisionBatch, Trajectories};
use engine::tasks::nqueens::{Board, all_solutions};

mod common;
use common::tiny;

fn puzzle() -> Vec<u32> {
    Board::empty(4).unwrap().tokens()
}

fn model(guidance: bool, device: &Device) -> Gram {
    device.seed(11);
    Gram::init(&tiny(guidance), device)
}

#[test]
fn sampling_is_seeded_observable_and_normalised() {
    let device = Device::flex();
    let m = model(true, &device);
    let options =
        SampleOptions { samples: 6, max_steps: 3, halting: false, seed: 5, guidance_scale: 1.0, settle: 0.0, ..Default::default() };
    let mut seen = Vec::new();
    let last = Trajectories::new(&m, &[puzzle()], options.clone(), &device).run(|o| seen.push(o.clone()));
    assert_eq!(seen.iter().map(|o| o.step).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert_eq!(last, seen[2]);
    let again = Trajectories::new(&m, &[puzzle()], options.clone(), &device).run(|_| {});
    assert_eq!(last, again, "same seed, same trajectories");
    for row in 0..6 {
        for pos in 0..16 {
            let total: f32 = (0..3).map(|t| last.probability(row, pos, t)).sum();
            assert!((total - 1.0).abs() < 1e-4);
        }
    }
    // Different noise: the trajectories' distributions differ between samples.
    assert_ne!(last.probabilities[..48], last.probabilities[48..96], "samples explore");
    let other = Trajectories::new(&m, &[puzzle()], SampleOptions { seed: 6, ..options }, &device).run(|_| {});
    assert_ne!(last.probabilities, other.probabilities);
}

#[test]
fn deterministic_paths_give_identical_samples() {
    let device = Device::flex();
    let same = |o: &engine::gram::Observation| {
        let per = o.probabilities.len() / 4;
        (1..4).all(|r| o.probabilities[r * per..(r + 1) * per] == o.probabilities[..per])
    };
    let trm = model(false, &device);
    let options =
        SampleOptions { samples: 4, max_steps: 2, halting: false, seed: 1, guidance_scale: 1.0, settle: 0.0, ..Default::default() };
    assert!(same(&Trajectories::new(&trm, &[puzzle()], options.clone(), &device).run(|_| {})));
    let gram = model(true, &device);
    let mean_path = SampleOptions { guidance_scale: 0.0, ..options };
    assert!(same(&Trajectories::new(&gram, &[puzzle()], mean_path, &device).run(|_| {})));
}

#[test]
fn settling_runs_the_end_of_the_budget_on_the_mean_path() {
    let device = Device::flex();
    let m = model(true, &device);
    let noisy = SampleOptions { samples: 4, max_steps: 4, halting: false, seed: 3, guidance_scale: 1.0, settle: 0.0, ..Default::default() };
    assert_eq!(SampleOptions { max_steps: 8, settle: 0.25, ..noisy.clone() }.settle_steps(), 2);
    assert_eq!(SampleOptions { max_steps: 3, settle: 0.25, ..noisy.clone() }.settle_steps(), 0);
    let run = |o: SampleOptions| {
        let mut seen = Vec::new();
        Trajectories::new(&m, &[puzzle()], o, &device).run(|s| seen.push(s.clone()));
        seen
    };
    let base = run(noisy.clone());
    let settled = run(SampleOptions { settle: 0.5, ..noisy.clone() });
    // The first two steps are the same noisy steps; the last two are not.
    assert_eq!(settled[..2], base[..2]);
    assert_ne!(settled[3].probabilities, base[3].probabilities);
    // Settling everything is the mean path: every sample the same.
    let all = run(SampleOptions { settle: 1.0, ..noisy.clone() });
    let mean = run(SampleOptions { guidance_scale: 0.0, ..noisy });
    assert_eq!(all.last().unwrap().probabilities, mean.last().unwrap().probabilities);
}

#[test]
fn halted_trajectories_keep_their_answer() {
    let device = Device::flex();
    let m = model(true, &device);
    let options =
        SampleOptions { samples: 8, max_steps: 6, halting: true, seed: 2, guidance_scale: 1.0, settle: 0.0, ..Default::default() };
    let mut steps = Vec::new();
    Trajectories::new(&m, &[puzzle()], options, &device).run(|o| steps.push(o.clone()));
    for w in steps.windows(2) {
        for row in 0..8 {
            if w[0].halted[row] {
                assert!(w[1].halted[row]);
                assert_eq!(w[0].predictions[row], w[1].predictions[row]);
            }
            assert_eq!(w[1].halted[row], w[0].halted[row] || w[1].halt_probs[row] > 0.5);
        }
    }
}

#[test]
fn truncated_elbo_steps_reduce_the_loss() {
    let device = Device::flex().autodiff();
    for guidance in [true, false] {
        let config = tiny(guidance);
        device.seed(0);
        let mut m = Gram::init(&config, &device);
        let mut optim = AdamWConfig::new().init();
        let sols = all_solutions(4);
        let b = 8;
        let rows = |f: &dyn Fn(usize) -> Vec<u32>| {
            let flat: Vec<i64> = (0..b).flat_map(|i| f(i).into_iter().map(|t| t as i64)).collect();
            Tensor::<2, Int>::from_data(TensorData::new(flat, [b, 16]), &device)
        };
        let given = |i: usize| {
            let mut p = Board::empty(4).unwrap();
            let (r, c) = sols[i % 2].queens()[0];
            p.set(r, c, true);
            p
        };
        let mut noise = NoiseSource::new(3);
        let mut losses = Vec::new();
        for step in 0..40 {
            let batch = SupervisionBatch {
                x: rows(&|i| given(i).tokens()),
                y: rows(&|i| sols[i % 2].tokens()),
                z: m.initial_state(b, 16).detach(),
            };
            let reward = |_: usize, _: &[u32]| 0.0;
            let out = supervision_step(&m, &config, batch, &reward, &mut noise);
            assert!(out.kl >= 0.0);
            if !guidance {
                assert_eq!(out.kl, 0.0, "TRM has no KL term");
            } else if step == 0 {
                // The guidance heads start with zero output projections: prior and posterior
                // agree exactly, so training starts without a KL penalty (guidance.rs).
                assert!(out.kl.abs() < 1e-7, "fresh heads disagree: KL {}", out.kl);
            } else {
                assert!(out.kl > 0.0, "step {step}: the posterior never moved away from the prior");
            }
            losses.push(out.ce);
            let grads = GradientsParams::from_grads(out.loss.backward(), &m);
            m = optim.step(3e-3, m, grads);
        }
        let first: f32 = losses[..5].iter().sum();
        let last: f32 = losses[35..].iter().sum();
        assert!(last < 0.75 * first, "guidance {guidance}: CE {losses:?}");
        let _ = m.valid();
    }
}

/// The browser's live controls: a scale set mid-run acts from the next step on, and a perturbed
/// row changes while every other row (and the run's noise stream) stays as it was.
#[test]
fn scale_changes_and_perturbations_act_from_the_next_step() {
    let device = Device::flex();
    let gram = model(true, &device);
    let options =
        SampleOptions { samples: 4, max_steps: 3, halting: false, seed: 2, guidance_scale: 0.0, settle: 0.0, ..Default::default() };
    let rows_equal = |o: &engine::gram::Observation| {
        let per = o.probabilities.len() / 4;
        (1..4).all(|r| o.probabilities[r * per..(r + 1) * per] == o.probabilities[..per])
    };
    let mut plain = Trajectories::new(&gram, &[puzzle()], options.clone(), &device);
    let first = plain.step().clone();
    let mut live = Trajectories::new(&gram, &[puzzle()], options.clone(), &device);
    assert_eq!(live.step(), &first, "the same run up to the change");
    live.set_guidance_scale(2.0);
    assert!(rows_equal(plain.step()), "scale 0: one path");
    assert!(!rows_equal(live.step()), "scale 2 from step 2: the samples fan out");

    let trm = model(false, &device);
    let mut calm = Trajectories::new(&trm, &[puzzle()], options.clone(), &device);
    let mut shaken = Trajectories::new(&trm, &[puzzle()], options, &device);
    calm.step();
    shaken.step();
    shaken.perturb(2, 1.0, 7);
    let (a, b) = (calm.step().clone(), shaken.step().clone());
    let per = a.probabilities.len() / 4;
    let row = |o: &engine::gram::Observation, r: usize| o.probabilities[r * per..(r + 1) * per].to_vec();
    for r in [0, 1, 3] {
        assert_eq!(row(&a, r), row(&b, r), "row {r} untouched");
    }
    assert_ne!(row(&a, 2), row(&b, 2), "the perturbed row moved");
}

/// A resampling moves whole rows: after it, row i continues old row rows[i] (its state and its
/// last observation), so on the mean path a reversed resampling gives the plain run's rows
/// reversed, and clones of one row stay identical.
#[test]
fn resampling_continues_the_chosen_rows() {
    let device = Device::flex();
    let gram = model(true, &device);
    let options =
        SampleOptions { samples: 4, max_steps: 3, halting: false, seed: 3, guidance_scale: 2.0, settle: 0.0, ..Default::default() };
    let per = |o: &engine::gram::Observation, r: usize| {
        let w = o.probabilities.len() / 4;
        o.probabilities[r * w..(r + 1) * w].to_vec()
    };
    let mut plain = Trajectories::new(&gram, &[puzzle()], options.clone(), &device);
    let first = plain.step().clone();
    assert_ne!(per(&first, 0), per(&first, 3), "scale 2: the rows differ");
    plain.set_guidance_scale(0.0);
    let next = plain.step().clone();
    let mut reversed = Trajectories::new(&gram, &[puzzle()], options.clone(), &device);
    reversed.step();
    reversed.resample(&[3, 2, 1, 0]);
    reversed.set_guidance_scale(0.0);
    let after = reversed.step().clone();
    for r in 0..4 {
        assert_eq!(per(&after, r), per(&next, 3 - r), "row {r} continues row {}", 3 - r);
    }
    let mut cloned = Trajectories::new(&gram, &[puzzle()], options, &device);
    cloned.step();
    cloned.resample(&[1, 1, 1, 1]);
    cloned.set_guidance_scale(0.0);
    let clones = cloned.step().clone();
    for r in 0..4 {
        assert_eq!(per(&clones, r), per(&next, 1), "clone {r} of row 1");
    }
}

/// A model widened in its core's MLPs (`Gram::widened`) samples exactly what it sampled before,
/// on both cores; the mixer's token MLP widens too, and narrowing is a sentence.
#[test]
fn widening_the_core_keeps_every_sample() {
    let device = Device::flex();
    let options = SampleOptions { samples: 4, max_steps: 3, seed: 9, guidance_scale: 1.0, ..Default::default() };
    for mixer in [false, true] {
        device.seed(11);
        let config = tiny(true).with_mixer(mixer).with_d_token_hidden(24);
        let m = Gram::init(&config, &device);
        let before = Trajectories::new(&m, &[puzzle()], options.clone(), &device).run(|_| {});
        let wide = m.clone().widened(64, if mixer { 40 } else { 24 }, &device).unwrap();
        assert!(wide.num_params() > m.num_params(), "mixer {mixer}: more units");
        let after = Trajectories::new(&wide, &[puzzle()], options.clone(), &device).run(|_| {});
        assert_eq!(before.predictions, after.predictions, "mixer {mixer}");
        let gap = before.probabilities.iter().zip(&after.probabilities).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(gap < 1e-5, "mixer {mixer}: probabilities moved by {gap}");
        assert!(m.widened(16, 24, &device).unwrap_err().contains("widens only"));
    }
}
