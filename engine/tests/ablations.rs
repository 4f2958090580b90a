//! The GRAM paper's Table 10 ablations change exactly the line they name: h = eps for direct
//! prediction, eps = mu without stochasticity, mean-free eps without guide, a fresh z0 per
//! trajectory with random initialisation, sampled answers with stochastic decoding; and nothing
//! changes for GRAM and TRM themselves.

use burn::tensor::{Device, Int, Tensor, TensorData};
use engine::gram::core::Noise;
use engine::gram::noise::NoiseSource;
use engine::gram::sample::Decoding;
use engine::gram::{Ablation, Gram, GramConfig, SampleOptions, Trajectories};
use engine::solve::trajectories_to_run;
use engine::transfer::ReadBack;

mod common;

fn tiny(guidance: bool, ablation: Option<Ablation>) -> GramConfig {
    common::tiny(guidance).with_ablation(ablation)
}

fn model(guidance: bool, ablation: Option<Ablation>, device: &Device) -> Gram {
    device.seed(11);
    Gram::init(&tiny(guidance, ablation), device)
}

fn values(t: Tensor<3>) -> Vec<f32> {
    t.floats().unwrap()
}

fn empty_board(device: &Device) -> Tensor<2, Int> {
    Tensor::from_data(TensorData::new(vec![1i64; 16], [1, 16]), device)
}

/// At guidance scale 0 a draw is the prior's mean, which is 0 for fresh (zero-output) heads:
/// GRAM's h is then u, direct prediction's h is the draw itself, 0.
#[test]
fn direct_prediction_replaces_u_plus_eps_by_the_draw() {
    let device = Device::flex();
    let run = |ablation| {
        let m = model(true, ablation, &device);
        let e_x = m.encode(empty_board(&device));
        let mut source = NoiseSource::new(1);
        let z = m.initial_state(1, 16);
        values(m.transition(z, &e_x, Noise::Prior { scale: 0.0, source: &mut source }).z.h)
    };
    let gram = run(None);
    assert!(gram.iter().any(|&v| v.abs() > 1e-3), "u is not zero");
    assert!(run(Some(Ablation::DirectPrediction)).iter().all(|&v| v == 0.0));
}

/// Without stochasticity N trajectories of one puzzle are one (and `solve` runs one); GRAM's
/// differ at scale 1.
#[test]
fn no_stochasticity_is_deterministic_and_gram_is_not() {
    let device = Device::flex();
    let options = SampleOptions { samples: 4, max_steps: 2, seed: 3, ..Default::default() };
    let board = vec![1u32; 16];
    for (ablation, stochastic) in [(None, true), (Some(Ablation::NoStochasticity), false), (Some(Ablation::NoGuide), true)] {
        let m = model(true, ablation, &device);
        let obs = Trajectories::new(&m, std::slice::from_ref(&board), options.clone(), &device).run(|_| {});
        let rows: Vec<&[f32]> = obs.probabilities.chunks(16 * 3).collect();
        let all_equal = rows.iter().all(|r| r == &rows[0]);
        assert_eq!(!all_equal, stochastic, "{ablation:?}");
        assert_eq!(Trajectories::is_stochastic(&m, &options), stochastic, "{ablation:?}");
        assert_eq!(trajectories_to_run(&m, &options).samples, if stochastic { 4 } else { 1 });
    }
}

/// Random initialisation draws z0 per trajectory from the run's seed; every other model starts
/// from its fixed z0 and draws nothing (so their noise streams are unchanged).
#[test]
fn random_init_draws_z0_per_trajectory_and_others_draw_nothing() {
    let device = Device::flex();
    let trm = model(false, None, &device);
    let mut a = NoiseSource::new(9);
    let fixed = trm.start_state(2, 16, &mut a);
    assert_eq!(values(fixed.h), values(trm.initial_state(2, 16).h));
    assert_eq!(a.normals(3), NoiseSource::new(9).normals(3), "nothing drawn");

    let random = model(false, Some(Ablation::RandomInit), &device);
    let z = random.start_state(2, 16, &mut NoiseSource::new(9));
    let h = values(z.h);
    assert_ne!(h[..16 * 16], h[16 * 16..], "each trajectory its own z0");
    assert_eq!(h, values(random.start_state(2, 16, &mut NoiseSource::new(9)).h), "seeded");
    let options = SampleOptions { samples: 3, max_steps: 1, ..Default::default() };
    assert!(Trajectories::is_stochastic(&random, &options));
    assert!(!Trajectories::is_stochastic(&trm, &options));
}

/// Stochastic decoding draws each answer token from its softmax: a TRM's N answers differ
/// (its latents do not), greedy ones are the argmax.
#[test]
fn stochastic_decoding_samples_answers_from_the_softmax() {
    let device = Device::flex();
    let trm = model(false, None, &device);
    let board = vec![1u32; 16];
    let greedy = SampleOptions { samples: 8, max_steps: 1, seed: 4, ..Default::default() };
    let sampled = SampleOptions { decoding: Decoding::Sample, ..greedy.clone() };
    assert!(Trajectories::is_stochastic(&trm, &sampled));
    let g = Trajectories::new(&trm, std::slice::from_ref(&board), greedy, &device).run(|_| {});
    let s = Trajectories::new(&trm, std::slice::from_ref(&board), sampled, &device).run(|_| {});
    assert_eq!(g.probabilities, s.probabilities, "the latents do not change");
    assert!(g.predictions.iter().all(|p| p == &g.predictions[0]));
    assert!(s.predictions.iter().any(|p| p != &s.predictions[0]), "8 draws from a fresh model's softmax differ");
}

#[test]
fn configs_without_the_field_read_as_no_ablation() {
    let mut json: serde_json::Value = serde_json::to_value(tiny(true, None)).unwrap();
    json.as_object_mut().unwrap().remove("ablation");
    let config: GramConfig = serde_json::from_value(json).unwrap();
    assert_eq!(config.ablation, None);
    let with = serde_json::to_string(&tiny(true, Some(Ablation::NoGuide))).unwrap();
    assert!(with.contains("\"ablation\":\"no-guide\""), "{with}");
}
