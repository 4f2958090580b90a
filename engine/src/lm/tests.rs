//! The JEPA objectives' contracts: the masks hide what they must (in the running model, not
//! only as matrices), the losses vanish where they should, the EMA step is exact.

use burn::module::Module;
use burn::tensor::{Device, Tensor};

use super::llm_jepa::{cosine, embeddings, jepa_loss, pack};
use super::masks::{bidirectional, causal};
use super::model::{Lm, LmConfig};
use super::sft::{Example, Layout, padded, sft_batch};
use super::t_jepa::{PredictorConfig, Spans, TJepa, sample_spans, span_weights};
use crate::gram::noise::NoiseSource;
use crate::nn::ema_update;
use crate::transfer::ReadBack;

const LAYOUT: Layout = Layout { pad: 0, sep: 2, eos: 3, pred: 4 };

fn lm(device: &Device) -> Lm {
    device.seed(5);
    LmConfig::new(20, 32).with_d_model(16).with_d_ffn(32).with_n_heads(2).init(device)
}

fn rows(t: Tensor<2>) -> Vec<Vec<f32>> {
    let [n, d] = t.dims();
    let v = t.floats().unwrap();
    (0..n).map(|i| v[i * d..(i + 1) * d].to_vec()).collect()
}

fn last_state(lm: &Lm, seq: &[u32], device: &Device) -> Vec<f32> {
    let l = seq.len();
    let h = lm.hidden(padded(&[seq.to_vec()], l, 0, device), causal(l, device));
    rows(h.slice([0..1, l - 1..l]).reshape([1, 16])).remove(0)
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4)
}

#[test]
fn the_packed_pass_equals_two_separate_passes() {
    let device = Device::flex();
    let lm = lm(&device);
    let exs = [Example { text: vec![1, 7, 8, 9], code: vec![10, 11] }, Example { text: vec![1, 12], code: vec![13, 14, 15, 16] }];
    let k = 2;
    let (t, c) = embeddings(&lm, &pack(&exs, &LAYOUT, k, &device));
    let (t, c) = (rows(t), rows(c));
    for (i, ex) in exs.iter().enumerate() {
        let mut text = ex.text.clone();
        text.extend([4, 4]);
        assert!(close(&t[i], &last_state(&lm, &text, &device)), "text view {i}");
        let code: Vec<u32> = [vec![2], ex.code.clone(), vec![3]].concat();
        assert!(close(&c[i], &last_state(&lm, &code, &device)), "code view {i}: the views never attend to each other");
    }
    // Another code leaves the text's embedding as it was.
    let other = [Example { text: exs[0].text.clone(), code: vec![17, 18, 19] }];
    let (t2, _) = embeddings(&lm, &pack(&other, &LAYOUT, k, &device));
    assert!(close(&rows(t2)[0], &t[0]));
}

#[test]
fn the_jepa_loss_is_zero_for_identical_views() {
    let device = Device::flex();
    let lm = lm(&device);
    // The text view `SEP 7 8 EOS` with k = 0 is token for token the code view of code `7 8`.
    let same = [Example { text: vec![2, 7, 8, 3], code: vec![7, 8] }];
    let (loss, cos) = jepa_loss(&lm, &pack(&same, &LAYOUT, 0, &device));
    assert!(loss.into_scalar::<f32>().abs() < 1e-5 && (cos - 1.0).abs() < 1e-5, "cos {cos}");
    let differ = [Example { text: vec![1, 7, 8], code: vec![9] }];
    let (loss, _) = jepa_loss(&lm, &pack(&differ, &LAYOUT, 0, &device));
    assert!(loss.into_scalar::<f32>() > 1e-3);
    let a = Tensor::<2>::from_floats([[1.0, 0.0], [1.0, 1.0]], &device);
    let b = Tensor::<2>::from_floats([[2.0, 0.0], [-1.0, -1.0]], &device);
    let cos: Vec<f32> = cosine(a, b).into_data().try_to_vec().unwrap();
    assert!(close(&cos, &[1.0, -1.0]));
}

#[test]
fn sft_reads_only_the_answer() {
    let device = Device::flex();
    let b = sft_batch(&[Example { text: vec![1, 7, 8], code: vec![10, 11] }], &LAYOUT, 1, &device);
    // Sequence: 1 7 8 PRED SEP 10 11 EOS; inputs drop EOS, targets drop BOS.
    let answer: Vec<f32> = b.answer.into_data().try_to_vec().unwrap();
    assert_eq!(answer, vec![0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    let targets: Vec<i64> = b.targets.ints().unwrap();
    assert_eq!(&targets[4..], &[10, 11, 3]);
    assert_eq!((b.lens[0], b.sep_at[0]), (7, 4));
}

#[test]
fn the_target_encoder_sees_the_future_and_the_backbone_does_not() {
    let device = Device::flex();
    let lm = lm(&device);
    let (a, b) = (vec![1, 7, 8, 9, 10], vec![1, 7, 8, 9, 11]);
    let run = |seq: &Vec<u32>, mask: Tensor<4>| rows(lm.hidden(padded(std::slice::from_ref(seq), 5, 0, &device), mask).reshape([5, 16]));
    let (ca, cb) = (run(&a, causal(5, &device)), run(&b, causal(5, &device)));
    assert!(close(&ca[2], &cb[2]), "causal: position 2 does not see position 4");
    let (na, nb) = (run(&a, bidirectional(&[5], 5, &device)), run(&b, bidirectional(&[5], 5, &device)));
    assert!(!close(&na[2], &nb[2]), "non-causal: it does");
    // Padding stays invisible to the non-causal pass.
    let padded_row = |pad_token: u32| {
        let seq = vec![1, 7, 8, pad_token];
        rows(lm.hidden(padded(&[seq], 4, 0, &device), bidirectional(&[3], 4, &device)).reshape([4, 16]))
    };
    assert!(close(&padded_row(0)[1], &padded_row(19)[1]));
}

#[test]
fn the_predictor_sees_only_the_context() {
    let device = Device::flex();
    let lm = lm(&device);
    let pred = PredictorConfig::new(16, 32, 2, 32).init(&device);
    let p = |last: u32| {
        let b = sft_batch(&[Example { text: vec![1, 7, 8], code: vec![10, last] }], &LAYOUT, 0, &device);
        let l = b.inputs.dims()[1];
        let h_c = lm.hidden(b.inputs.clone(), causal(l, &device));
        rows(pred.forward(lm.embed(b.inputs.clone()), h_c, &[4]).reshape([l, 16]))
    };
    let (x, y) = (p(11), p(12));
    assert!(x.iter().zip(&y).all(|(a, b)| close(a, b)), "a token after the context changes nothing the predictor says");
}

#[test]
fn spans_lie_after_the_context_without_overlap_and_weigh_one() {
    let cfg = TJepa { lambda: 1.0, ema: 0.99, max_spans: 3, max_span_len: 4 };
    let mut rng = NoiseSource::new(3);
    let mut all = Vec::new();
    for _ in 0..200 {
        let s = sample_spans(12, 5, &cfg, &mut rng);
        assert!((5..12).contains(&s.context));
        assert!(!s.targets.is_empty());
        for w in s.targets.windows(2) {
            assert!(w[0].1 <= w[1].0, "{s:?}");
        }
        assert!(s.targets.iter().all(|&(a, b)| a >= s.context && b <= 12 && b > a && b - a <= 4), "{s:?}");
        all.push(s);
    }
    let w: f32 = span_weights(&all, 12, &Device::flex()).sum().into_scalar();
    assert!((w - 1.0).abs() < 1e-4, "weights sum to 1, got {w}");
    let one = [Spans { context: 2, targets: vec![(2, 4), (5, 6)] }];
    let w: Vec<f32> = span_weights(&one, 6, &Device::flex()).into_data().try_to_vec().unwrap();
    assert_eq!(w, vec![0.0, 0.0, 0.25, 0.25, 0.0, 0.5]);
}

#[test]
fn the_ema_step_of_the_target_encoder_is_exact() {
    let device = Device::flex();
    let a = lm(&device);
    device.seed(9);
    let b = LmConfig::new(20, 32).with_d_model(16).with_d_ffn(32).with_n_heads(2).init(&device);
    let w = |m: &Lm| m.embed(padded(&[vec![3]], 1, 0, &device)).floats().unwrap();
    let (wa, wb) = (w(&a), w(&b));
    let avg = ema_update(a.clone(), &b, 0.9);
    let got = w(&avg);
    for i in 0..got.len() {
        assert!((got[i] - (0.9 * wa[i] + 0.1 * wb[i])).abs() < 1e-6);
    }
    assert_eq!(avg.num_params(), a.num_params());
}
