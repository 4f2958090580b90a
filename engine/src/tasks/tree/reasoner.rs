//! The Reasoner on tree route search: batches for training, latent generation with the action
//! filter and optional latent noise, the Talker's decoding, evaluation (exact match and the
//! mixed-latent figures), and a per-step explanation for the browser.
//!
//! The tree task's counterpart of `solve/`: the CLI, the tests and `/tree` call the same
//! functions, the page through its one call, `reason_and_explain`. Each tree's noise comes from
//! the seed and the tree's index (`task_noise`), so an answer does not depend on which trees
//! share its batch, and a page's URL reproduces a noisy run exactly.

use burn::tensor::{Device, Int, Tensor, TensorData};
use serde::{Deserialize, Serialize};

use crate::gram::noise::NoiseSource;
use crate::reasoner::analysis::{Pca, cosines, pair_rank, project_on_plane};
use crate::reasoner::latent_loop::{latent_loop, token_tensor};
use crate::reasoner::loss::SeqBatch;
use crate::reasoner::model::{Reasoner, ReasonerModel};
use crate::tasks::tree::{self, EOS, LETTER0, MAX_LEN, PAD, ROUTE, ROUTE_LATENTS, TreeTask};
use crate::transfer::ReadBack;

/// Teacher-forced batch of full sequences padded to [`MAX_LEN`].
pub fn seq_batch(tasks: &[TreeTask], device: &Device) -> SeqBatch {
    let l = MAX_LEN - 1;
    let b = tasks.len();
    let (mut inputs, mut next) = (Vec::with_capacity(b * l), Vec::with_capacity(b * l));
    let (mut real, mut route) = (Vec::with_capacity(b * l), Vec::with_capacity(b * l));
    for t in tasks {
        let mut toks = t.full_tokens();
        let start = action_filter(&toks).expect("a task has [ROUTE]");
        toks.resize(MAX_LEN, PAD);
        for i in 0..l {
            inputs.push(toks[i] as i64);
            next.push(toks[i + 1] as i64);
            let is_real = toks[i + 1] != PAD;
            real.push(is_real as u8 as f32);
            route.push((is_real && i + 1 >= start) as u8 as f32);
        }
    }
    SeqBatch {
        inputs: Tensor::from_data(TensorData::new(inputs, [b, l]), device),
        next: Tensor::from_data(TensorData::new(next, [b, l]), device),
        real: Tensor::from_data(TensorData::new(real, [b, l]), device),
        route: Tensor::from_data(TensorData::new(route, [b, l]), device),
    }
}

/// The hard-coded action filter (the JEPA-Reasoner paper, section 3.3), built from the data's structure: the
/// latents from the first position after `[ROUTE]` on go to the Talker. Returns that position.
pub fn action_filter(tokens: &[u32]) -> Option<usize> {
    tokens.iter().position(|&t| t == ROUTE).map(|p| p + 1)
}

/// The noise stream of task `i` in a run with `seed`: a task's answer does not depend on which
/// other tasks share its batch.
fn task_noise(seed: u64, i: usize) -> NoiseSource {
    NoiseSource::new(seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Latent autoregression for prompts of one length: `n` latents each, every one appended to the
/// input (no LM head), with optional latent noise ([`latent_loop`]). Returns `[B, n, D]`.
pub fn reason(model: &Reasoner, prompts: &[Vec<u32>], n: usize, noise_frac: f64, noise: &mut [NoiseSource], device: &Device) -> Tensor<3> {
    let x = model.embed_tokens(token_tensor(prompts, device));
    latent_loop(model, x, n, noise_frac, noise).1
}

/// One answered task.
#[derive(Clone, Debug)]
pub struct TreeAnswer {
    /// The route the Talker wrote (letters before its end of sentence); `None` if it wrote a
    /// non-letter first or no end of sentence.
    pub route: Option<String>,
    /// The Talker's token for every route latent.
    pub tokens: Vec<u32>,
    /// The route latents `[ROUTE_LATENTS][D]`.
    pub latents: Vec<Vec<f32>>,
}

impl TreeAnswer {
    pub fn correct(&self, task: &TreeTask) -> bool {
        self.route.as_deref() == Some(task.route_text().as_str())
    }
}

/// Answers every task: Reasoner latents after the action filter, then the Talker. Tasks are
/// grouped by input length to batch them.
pub fn solve_trees(model: &ReasonerModel, tasks: &[TreeTask], noise_frac: f64, seed: u64, device: &Device) -> Vec<TreeAnswer> {
    let mut out: Vec<Option<TreeAnswer>> = vec![None; tasks.len()];
    let prompts: Vec<Vec<u32>> = tasks.iter().map(|t| t.input_tokens()).collect();
    let mut lengths: Vec<usize> = prompts.iter().map(|p| p.len()).collect();
    lengths.sort_unstable();
    lengths.dedup();
    for len in lengths {
        let idx: Vec<usize> = (0..tasks.len()).filter(|&i| prompts[i].len() == len).collect();
        for chunk in idx.chunks(256) {
            let batch: Vec<Vec<u32>> = chunk.iter().map(|&i| prompts[i].clone()).collect();
            let mut noise: Vec<NoiseSource> = chunk.iter().map(|&i| task_noise(seed, i)).collect();
            let latents = reason(&model.reasoner, &batch, ROUTE_LATENTS, noise_frac, &mut noise, device);
            let tokens = model.talker.decode(latents.clone(), ROUTE);
            let [b, r, d] = latents.dims();
            let flat: Vec<f32> = latents.floats().unwrap();
            for (k, &i) in chunk.iter().enumerate() {
                let lat = (0..r).map(|j| flat[(k * r + j) * d..(k * r + j + 1) * d].to_vec()).collect();
                out[i] = Some(TreeAnswer { route: tree::route_from_tokens(&tokens[k]), tokens: tokens[k].clone(), latents: lat });
            }
            debug_assert_eq!(b, chunk.len());
        }
    }
    out.into_iter().map(|a| a.expect("every task answered")).collect()
}

/// The vocabulary latents as rows.
pub fn vocab_rows(model: &Reasoner) -> Vec<Vec<f32>> {
    let v = model.vocab_latents();
    let [n, d] = v.dims();
    let flat: Vec<f32> = v.floats().unwrap();
    (0..n).map(|i| flat[i * d..(i + 1) * d].to_vec()).collect()
}

fn letter(c: u8) -> usize {
    (LETTER0 + (c - b'A') as u32) as usize
}

/// The sibling analysis of one route latent: the correct node at step `j` (j >= 1) and its
/// sibling. Returns (alpha, beta, rank, pairs).
pub fn sibling_figures(latent: &[f32], vocab: &[Vec<f32>], task: &TreeTask, j: usize) -> Option<(f64, f64, usize, usize)> {
    let route = task.route();
    let correct = *route.get(j)?;
    let sib = task.tree.sibling(correct)?;
    let (alpha, beta, _) = project_on_plane(latent, &vocab[letter(correct)], &vocab[letter(sib)]);
    let (rank, pairs) = pair_rank(latent, vocab, letter(correct), letter(sib));
    Some((alpha, beta, rank, pairs))
}

/// Held-out figures (the JEPA-Reasoner paper, section 5.1.4).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct TreeEval {
    pub tasks: usize,
    /// Exact match of the Talker's route, percent (paper: 99.87).
    pub exact_match: f64,
    /// (route length, tasks, exact match %).
    pub by_length: Vec<(usize, usize, f64)>,
    /// Route latents with a sibling analysed.
    pub sibling_latents: usize,
    /// alpha (correct) > beta (sibling), percent (paper: 99.89).
    pub major_contributor: f64,
    /// Mean rank of the sibling plane among all vocabulary pairs, percent (paper: top 1.72).
    pub sibling_rank_pct: f64,
    /// Share of sibling latents whose sibling plane is the closest of all pairs, percent.
    pub sibling_rank_first: f64,
    /// Mean |beta| / (|alpha| + |beta|): how much of the sibling the latent keeps (0 = none).
    pub mean_sibling_share: f64,
    /// Route latents whose nearest vocabulary latent is the right token, percent.
    pub nearest_token: f64,
}

pub fn evaluate_trees(model: &ReasonerModel, tasks: &[TreeTask], noise_frac: f64, seed: u64, device: &Device) -> TreeEval {
    let answers = solve_trees(model, tasks, noise_frac, seed, device);
    let vocab = vocab_rows(&model.reasoner);
    let mut by_len = std::collections::BTreeMap::<usize, (usize, usize)>::new();
    let (mut right, mut sib_n, mut major, mut rank_sum, mut first, mut share) = (0, 0, 0, 0.0, 0, 0.0);
    let (mut near_n, mut near_ok) = (0, 0);
    for (t, a) in tasks.iter().zip(&answers) {
        let ok = a.correct(t);
        right += ok as usize;
        let e = by_len.entry(t.route().len()).or_default();
        e.0 += 1;
        e.1 += ok as usize;
        let want = t.route_tokens();
        for (j, lat) in a.latents.iter().enumerate().take(want.len()) {
            let cos = cosines(lat, &vocab);
            let best = (0..cos.len()).max_by(|&x, &y| cos[x].total_cmp(&cos[y])).unwrap();
            near_n += 1;
            near_ok += (best as u32 == want[j]) as usize;
            if let Some((alpha, beta, rank, pairs)) = sibling_figures(lat, &vocab, t, j) {
                sib_n += 1;
                major += (alpha > beta) as usize;
                rank_sum += 100.0 * rank as f64 / pairs as f64;
                first += (rank == 1) as usize;
                share += beta.abs() / (alpha.abs() + beta.abs()).max(1e-12);
            }
        }
    }
    let pct = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    TreeEval {
        tasks: tasks.len(),
        exact_match: pct(right, tasks.len()),
        by_length: by_len.into_iter().map(|(l, (n, r))| (l, n, pct(r, n))).collect(),
        sibling_latents: sib_n,
        major_contributor: pct(major, sib_n),
        sibling_rank_pct: rank_sum / sib_n.max(1) as f64,
        sibling_rank_first: pct(first, sib_n),
        mean_sibling_share: share / sib_n.max(1) as f64,
        nearest_token: pct(near_ok, near_n),
    }
}

/// One route latent, explained for a person.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StepView {
    /// The Talker's token for this latent.
    pub token: String,
    /// The token the route needs here.
    pub expected: String,
    /// The five vocabulary tokens with the largest cosine to the latent.
    pub top: Vec<(String, f64)>,
    /// Correct node, its sibling, alpha, beta, plane rank, number of planes (steps after the root).
    pub sibling: Option<(String, String, f64, f64, usize, usize)>,
    /// PCA coordinates.
    pub pca: (f64, f64),
    /// Largest |component| of the latent (the noise scale's reference).
    pub max_abs: f64,
}

/// Everything the `/tree` page shows about one answer.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Explanation {
    pub route: Option<String>,
    pub correct: bool,
    pub steps: Vec<StepView>,
    /// Tree nodes' vocabulary latents in the same PCA plane: (letter, x, y).
    pub vocab_points: Vec<(String, f64, f64)>,
    pub explained_variance: [f64; 2],
}

/// What `/tree` shows for one question: the Reasoner's route with latent noise `noise_frac`
/// (seeded by `seed`) and its explanation. The page's worker and `native-trainer record` both
/// answer with this, so a recorded answer is the live one.
pub fn reason_and_explain(model: &ReasonerModel, task: &TreeTask, noise_frac: f64, seed: u64, device: &Device) -> Explanation {
    let answer = solve_trees(model, std::slice::from_ref(task), noise_frac, seed, device).remove(0);
    explain(&model.reasoner, task, &answer)
}

/// Explains an answer: for each route latent up to the route's end (and the Talker's end if it
/// wrote more), the decomposition onto the vocabulary, the sibling plane, and a PCA plane fitted
/// on the tree's node latents plus these latents.
pub fn explain(model: &Reasoner, task: &TreeTask, answer: &TreeAnswer) -> Explanation {
    let vocab = vocab_rows(model);
    let want = task.route_tokens();
    let written = answer.tokens.iter().position(|&t| t == EOS).map_or(answer.tokens.len(), |p| p + 1);
    let shown = want.len().max(written).min(answer.latents.len());
    let mut nodes: Vec<u8> = task.tree.edges().iter().map(|e| e.1).collect();
    nodes.insert(0, task.tree.root());
    let mut fit: Vec<Vec<f32>> = nodes.iter().map(|&c| vocab[letter(c)].clone()).collect();
    fit.extend(answer.latents[..shown].iter().cloned());
    let pca = Pca::fit(&fit);
    let steps = (0..shown)
        .map(|j| {
            let lat = &answer.latents[j];
            let cos = cosines(lat, &vocab);
            let mut order: Vec<usize> = (0..cos.len()).collect();
            order.sort_by(|&a, &b| cos[b].total_cmp(&cos[a]));
            StepView {
                token: tree::token_name(answer.tokens[j]),
                expected: want.get(j).map_or("-".into(), |&t| tree::token_name(t)),
                top: order.iter().take(5).map(|&i| (tree::token_name(i as u32), cos[i])).collect(),
                sibling: sibling_figures(lat, &vocab, task, j).map(|(a, b, r, p)| {
                    let c = task.route()[j];
                    let s = task.tree.sibling(c).unwrap();
                    ((c as char).to_string(), (s as char).to_string(), a, b, r, p)
                }),
                pca: pca.project(lat),
                max_abs: lat.iter().fold(0.0f64, |m, &v| m.max(v.abs() as f64)),
            }
        })
        .collect();
    Explanation {
        route: answer.route.clone(),
        correct: answer.correct(task),
        steps,
        vocab_points: nodes
            .iter()
            .map(|&c| {
                let (x, y) = pca.project(&vocab[letter(c)]);
                ((c as char).to_string(), x, y)
            })
            .collect(),
        explained_variance: pca.explained,
    }
}

/// Routes read from free-running latents by their nearest vocabulary latent (no Talker): what
/// the Reasoner alone means. Used while the Talker is not trained yet.
pub fn nearest_routes(model: &Reasoner, tasks: &[TreeTask], device: &Device) -> Vec<Option<String>> {
    let vocab = vocab_rows(model);
    let mut out = vec![None; tasks.len()];
    for (i, t) in tasks.iter().enumerate() {
        let mut noise = [task_noise(0, i)];
        let lat = reason(model, &[t.input_tokens()], ROUTE_LATENTS, 0.0, &mut noise, device);
        let [_, r, d] = lat.dims();
        let flat: Vec<f32> = lat.floats().unwrap();
        let toks: Vec<u32> = (0..r)
            .map(|j| {
                let c = cosines(&flat[j * d..(j + 1) * d], &vocab);
                (0..c.len()).max_by(|&a, &b| c[a].total_cmp(&c[b])).unwrap() as u32
            })
            .collect();
        out[i] = tree::route_from_tokens(&toks);
    }
    out
}

/// Routes written by pretraining's temporary LM head, greedily, token by token (the baseline
/// the latent phases start from).
pub fn lm_routes(model: &Reasoner, tasks: &[TreeTask], device: &Device) -> Vec<Option<String>> {
    tasks
        .iter()
        .map(|t| {
            let mut toks = t.input_tokens();
            let start = toks.len();
            for _ in 0..ROUTE_LATENTS {
                let l = toks.len();
                let x = Tensor::<2, Int>::from_data(TensorData::new(toks.iter().map(|&v| v as i64).collect::<Vec<_>>(), [1, l]), device);
                let logits = model.lm_logits(model.hidden(model.embed_tokens(x))); // [1, L, V]
                let v = logits.dims()[2];
                let next = logits.slice([0..1, l - 1..l, 0..v]).argmax(2).into_scalar::<i64>() as u32;
                toks.push(next);
                if next == EOS {
                    break;
                }
            }
            tree::route_from_tokens(&toks[start..])
        })
        .collect()
}
