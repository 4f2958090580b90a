//! PTRM (arXiv 2605.19943) in the sampler: sigma 0 is the sampler as it was, bit for bit; sigma
//! > 0 adds N(0, sigma^2 I) to the reasoning latent before every supervision step, which makes a
//! > TRM's N trajectories differ, reproducibly for a seed; the Q selection picks the trajectory
//! > whose halting head is most confident.

use burn::tensor::{Device, Int, Tensor, TensorData};
use engine::gram::core::Noise;
use engine::gram::noise::NoiseSource;
use engine::gram::ptrm::perturb;
use engine::gram::{Gram, Observation, SampleOptions, Selection, Trajectories};
use engine::solve::{solve, trajectories_to_run};
use engine::tasks::nqueens::{Board, NQueens};
use engine::tasks::{Part, Task, TokenTask};
use engine::transfer::ReadBack;

mod common;
use common::tiny;

fn puzzle() -> Vec<u32> {
    Board::empty(4).unwrap().tokens()
}

fn model(guidance: bool, device: &Device) -> Gram {
    device.seed(11);
    Gram::init(&tiny(guidance), device)
}

fn floats(t: Tensor<1>) -> Vec<f32> {
    t.floats().unwrap()
}

/// The recipe written out from the model's parts, without `Trajectories`: from z0, for each
/// supervision step, `perturb` l (when `sigma` > 0), T transitions with the guidance noise at
/// `scale`, then read the greedy tokens, LPRM values and halting logits. Before PTRM this loop
/// (without `perturb`) was the sampler.
/// Per supervision step: the greedy tokens of each sample, the LPRM values, the halting logits.
type StepReadout = (Vec<Vec<u32>>, Vec<f32>, Vec<f32>);

fn by_hand(m: &Gram, options: &SampleOptions, sigma: Option<f64>, device: &Device) -> Vec<StepReadout> {
    let p = puzzle();
    let (b, l) = (options.samples, p.len());
    let rows: Vec<i64> = (0..b).flat_map(|_| p.iter().map(|&t| t as i64)).collect();
    let e_x = m.encode(Tensor::<2, Int>::from_data(TensorData::new(rows, [b, l]), device));
    // Each sample's own noise stream (the sampler's `NoiseSource::per_sample`).
    let mut source = NoiseSource::per_sample(options.seed, (0..b as u64).collect());
    let mut z = m.start_state(b, l, &mut source);
    let mut out = Vec::new();
    for _ in 0..options.max_steps {
        if let Some(sigma) = sigma {
            z = perturb(z, sigma, &mut source);
        }
        for _ in 0..m.t_outer() {
            z = m.transition(z, &e_x, Noise::Prior { scale: options.guidance_scale, source: &mut source }).z;
        }
        let logits = m.decode(z.h.clone()).argmax(2).reshape([b, l]);
        let tokens: Vec<i64> = logits.ints().unwrap();
        let predictions = tokens.chunks(l).map(|r| r.iter().map(|&t| t as u32).collect()).collect();
        out.push((predictions, floats(m.value(z.h.clone())), floats(m.halt_logit(z.h.clone()))));
    }
    out
}

fn observed(o: &Observation) -> (Vec<Vec<u32>>, Vec<f32>, Vec<f32>) {
    (o.predictions.clone(), o.values.clone(), o.halt_logits.clone())
}

fn run(m: &Gram, options: &SampleOptions, device: &Device) -> Vec<Observation> {
    let mut seen = Vec::new();
    Trajectories::new(m, &[puzzle()], options.clone(), device).run(|o| seen.push(o.clone()));
    seen
}

/// GRAM draws guidance noise from the run's source at every transition: had sigma 0 drawn (or
/// moved) anything, every later draw would shift and the values would differ from the old loop.
#[test]
fn sigma_zero_is_the_old_sampler_bit_for_bit() {
    let device = Device::flex();
    for guidance in [true, false] {
        let m = model(guidance, &device);
        let options = SampleOptions { samples: 5, max_steps: 3, seed: 4, guidance_scale: 1.0, latent_noise: 0.0, ..Default::default() };
        let seen: Vec<_> = run(&m, &options, &device).iter().map(observed).collect();
        assert_eq!(seen, by_hand(&m, &options, None, &device), "guidance {guidance}");
        assert_eq!(Trajectories::is_stochastic(&m, &options), guidance);
    }
}

/// sigma > 0 is exactly the recipe: the noise on l, before each supervision step.
#[test]
fn sigma_is_added_to_l_before_every_supervision_step() {
    let device = Device::flex();
    for guidance in [false, true] {
        let m = model(guidance, &device);
        let options = SampleOptions { samples: 4, max_steps: 3, seed: 8, latent_noise: 0.3, ..Default::default() };
        let seen: Vec<_> = run(&m, &options, &device).iter().map(observed).collect();
        assert_eq!(seen, by_hand(&m, &options, Some(0.3), &device), "guidance {guidance}");
        assert_ne!(seen, by_hand(&m, &options, None, &device), "the noise changes the run");
    }
}

/// A TRM is deterministic (one trajectory stands for N) until PTRM's noise is on; then its N
/// trajectories differ, the same seed repeats them and another seed does not.
#[test]
fn latent_noise_makes_a_trms_trajectories_differ_reproducibly() {
    let device = Device::flex();
    let trm = model(false, &device);
    let plain = SampleOptions { samples: 6, max_steps: 3, seed: 2, ..Default::default() };
    assert!(!Trajectories::is_stochastic(&trm, &plain));
    assert_eq!(trajectories_to_run(&trm, &plain).samples, 1);
    let noisy = SampleOptions { latent_noise: 0.2, ..plain.clone() };
    assert!(Trajectories::is_stochastic(&trm, &noisy));
    assert_eq!(trajectories_to_run(&trm, &noisy).samples, 6);
    let last = run(&trm, &noisy, &device).pop().unwrap();
    let per = last.probabilities.len() / 6;
    let distinct = (1..6).filter(|&r| last.probabilities[r * per..(r + 1) * per] != last.probabilities[..per]).count();
    assert_eq!(distinct, 5, "every trajectory differs from the first");
    assert_eq!(run(&trm, &noisy, &device).pop().unwrap(), last, "same seed, same trajectories");
    let other = run(&trm, &SampleOptions { seed: 3, ..noisy }, &device).pop().unwrap();
    assert_ne!(other.probabilities, last.probabilities, "another seed, other trajectories");
}

/// On the shipped TRM, PTRM's trajectories give different boards, and `Selection::Q` answers with
/// the sample of the highest halting logit (= the highest halting probability).
#[test]
fn q_selection_answers_with_the_most_confident_trajectory() {
    let device = Device::flex();
    let trm = shipped("trm-nqueens8", &device);
    let task = NQueens::new(8);
    let puzzles: Vec<Board> = task.instances(Part::Validation).iter().take(4).map(|i| task.puzzle_of(i).clone()).collect();
    let options = SampleOptions { samples: 8, max_steps: 4, seed: 1, latent_noise: 0.5, settle: 0.25, ..Default::default() };
    let solved = solve(&task, &trm, &puzzles, &options, Selection::Q, 4, &device);
    let mut boards_differ = false;
    for s in &solved {
        let best = (0..8).fold(0, |b, i| if s.halt_logits[i] > s.halt_logits[b] { i } else { b });
        assert_eq!(s.selected, best, "{:?}", s.halt_logits);
        assert_eq!(s.picked(Selection::Q), &s.samples[best]);
        boards_differ |= s.samples.iter().any(|b| *b != s.samples[0]);
    }
    assert!(boards_differ, "the noise explores: some puzzle's samples differ");
}

/// PTRM's sigma is absolute on a latent of RMS ~1 (TRM's post-norm). Ours is post-norm with a
/// learned RMSNorm gain, so the scale is measured: the RMS of `l` of the shipped TRMs after each
/// of their 8 supervision steps on validation inputs stays near 1 (printed for docs/results/ptrm.md), so
/// sigma reads as a fraction of the latent's RMS as in the paper.
#[test]
fn the_shipped_trms_reasoning_latent_has_rms_near_one() {
    use engine::tasks::sudoku::Sudoku;
    let device = Device::flex();
    for name in ["trm-nqueens8", "trm-sudoku"] {
        let m = shipped(name, &device);
        let rows: Vec<Vec<u32>> = if name == "trm-sudoku" {
            Sudoku.instances(Part::Validation).iter().take(8).map(|i| Sudoku.tokens(Sudoku.puzzle_of(i))).collect()
        } else {
            let task = NQueens::new(8);
            task.instances(Part::Validation).iter().take(8).map(|i| task.tokens(task.puzzle_of(i))).collect()
        };
        let (b, l) = (rows.len(), rows[0].len());
        let flat: Vec<i64> = rows.iter().flatten().map(|&t| t as i64).collect();
        let e_x = m.encode(Tensor::<2, Int>::from_data(TensorData::new(flat, [b, l]), &device));
        let mut source = NoiseSource::new(0);
        let mut z = m.start_state(b, l, &mut source);
        let mut rms = Vec::new();
        for _ in 0..8 {
            for _ in 0..m.t_outer() {
                z = m.transition(z, &e_x, Noise::Off).z;
            }
            let ms: f32 = z.l.clone().powf_scalar(2.0).mean().into_scalar();
            rms.push(ms.sqrt());
        }
        eprintln!("{name}: RMS of l after supervision steps 1..8: {rms:.2?}");
        assert!(rms.iter().all(|&r| (0.5..2.0).contains(&r)), "{name}: {rms:?}");
    }
}

fn shipped(name: &str, device: &Device) -> Gram {
    use engine::weights::{Manifest, load_gram};
    let dir = common::shipped_dir();
    let manifest = Manifest::from_json(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap()).unwrap();
    load_gram(&manifest, &std::fs::read(dir.join(format!("{name}.bpk"))).unwrap(), device).unwrap()
}
