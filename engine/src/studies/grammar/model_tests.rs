//! The grammar study's models at a tiny size: how C and R branch off the pretrained T, what each
//! writes, and that the COCONUT objective trains through its thoughts.

use burn::module::{Module, ModuleVisitor, Param};
use burn::optim::GradientsParams;
use burn::tensor::{Device, Tensor};

use super::Symbol;
use super::batch::{cut_batch, seq_batch};
use super::complete::complete;
use super::data::{GrammarVariant, WINDOW, draw};
use super::models::{GrammarConfig, GrammarModel, GrammarModels};
use crate::gram::noise::NoiseSource;
use crate::reasoner::coconut::{THOUGHTS, coconut_loss};
use crate::reasoner::latent_loop::token_tensor;
use crate::reasoner::loss::pretrain_loss;
use crate::tasks::split::Part;

fn tiny() -> GrammarConfig {
    let mut c = GrammarConfig::scale(GrammarVariant::Short, "small").unwrap();
    c.coupled = c.coupled.with_d_model(16).with_d_attn(16).with_d_ffn(32).with_n_heads(2).with_n_layers(3);
    c.talker = c.talker.with_d_attn(16).with_d_ffn(32).with_n_heads(2);
    c.talker.d_model = 16;
    c.reasoner_layers = 2;
    c
}

fn seqs(n: usize, seed: u64) -> Vec<Vec<Symbol>> {
    let g = GrammarVariant::Short.grammar();
    let mut rng = NoiseSource::new(seed);
    (0..n).map(|_| draw(&g, &mut rng, Part::Train)).collect()
}

fn ids<M: Module>(m: &M) -> Vec<String> {
    struct Ids(Vec<String>);
    impl ModuleVisitor for Ids {
        fn visit_float<const D: usize>(&mut self, p: &Param<Tensor<D>>) {
            self.0.push(p.id.to_string());
        }
    }
    let mut v = Ids(Vec::new());
    m.visit(&mut v);
    v.0
}

#[test]
fn c_and_r_branch_off_the_pretrained_t_with_their_own_parameters() {
    let device = Device::flex();
    device.seed(3);
    let c = tiny();
    let m: GrammarModels = c.init(&device).branch_after_pretraining(&c);
    assert_eq!(m.r.n_layers(), 2);
    assert_eq!(m.c.n_layers(), 3);
    let prefixes: Vec<Vec<Symbol>> = seqs(3, 1).into_iter().map(|s| s[..20].to_vec()).collect();
    // C is T's copy: before training, both write the same tokens (C after its thoughts aside).
    let t = complete(&m, GrammarModel::T, &prefixes, 4, 0.0, 0, &device);
    let x = m.c.embed_tokens(token_tensor(&prefixes.iter().map(|p| super::data::prompt(p)).collect::<Vec<_>>(), &device));
    assert_eq!(crate::reasoner::coconut::greedy(&m.c, x, 4), t);
    let (t_ids, c_ids, r_ids) = (ids(&m.t), ids(&m.c), ids(&m.r));
    assert!(c_ids.iter().all(|i| !t_ids.contains(i)) && r_ids.iter().all(|i| !t_ids.contains(i) && !c_ids.contains(i)));
}

#[test]
fn every_model_writes_its_tokens_and_noise_reaches_only_latents() {
    let device = Device::flex();
    device.seed(4);
    let c = tiny();
    let m = c.init(&device).branch_after_pretraining(&c);
    let prefixes: Vec<Vec<Symbol>> = seqs(4, 2).into_iter().enumerate().map(|(i, s)| s[..10 + 5 * (i % 2)].to_vec()).collect();
    for model in [GrammarModel::T, GrammarModel::C, GrammarModel::R, GrammarModel::RMono] {
        let a = complete(&m, model, &prefixes, 4, 0.0, 0, &device);
        assert!(a.iter().all(|w| w.len() == 4), "{model:?}");
        assert_eq!(a, complete(&m, model, &prefixes, 4, 0.0, 0, &device), "deterministic");
        let noisy = complete(&m, model, &prefixes, 4, 1.0, 9, &device);
        assert_eq!(noisy == a, model == GrammarModel::T, "{model:?}: noise reaches C and R, not T");
    }
    assert!(complete(&m, GrammarModel::R, &prefixes, WINDOW + 3, 0.0, 0, &device).iter().all(|w| w.len() == WINDOW));
}

#[test]
fn coconut_learns_the_tokens_after_its_thoughts() {
    let device = Device::flex().autodiff();
    device.seed(5);
    let c = tiny();
    let mut m = c.init(&device).branch_after_pretraining(&c).c;
    let b = cut_batch(&seqs(8, 3), 12);
    let (prefix, answer) = (token_tensor(&b.prefix, &device), b.window_from(THOUGHTS, &device));
    let mut optim = burn::optim::AdamWConfig::new().init();
    let first = coconut_loss(&m, prefix.clone(), answer.clone()).value;
    for _ in 0..60 {
        let out = coconut_loss(&m, prefix.clone(), answer.clone());
        let g = GradientsParams::from_grads(out.loss.backward(), &m);
        m = optim.step(3e-3, m, g);
    }
    let last = coconut_loss(&m, prefix, answer).value;
    assert!(last < 0.5 * first, "answer cross-entropy {first} -> {last}");
}

#[test]
fn pretraining_batches_count_every_real_position() {
    let device = Device::flex();
    let s = seqs(3, 6);
    let b = seq_batch(&s, &device);
    let real: f32 = b.real.clone().sum().into_scalar();
    assert_eq!(real as usize, s.iter().map(|x| x.len() + 1).sum::<usize>(), "terminals and EOS");
    let m = tiny().init(&device);
    assert!(pretrain_loss(&m.t, &b).value.is_finite());
}
