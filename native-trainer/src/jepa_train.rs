//! Training JEPA-Reasoner + Talker on tree route search, in the paper's three phases
//! (seed 000, sections 4 and 5.1.3), one preset each:
//!
//! - `reasoner-tree-pretrain`: next-token cross-entropy through the tied LM head, all positions.
//! - `reasoner-tree-sst`: starts from the pretrain run; the EMA target encoder is copied from
//!   the embedding, then `k - k cos` on route positions, EMA update (0.98) after every step.
//! - `reasoner-tree-talker`: starts from the SST run; the Reasoner frozen, its free-running route
//!   latents (the ones the Talker reads at run time) decoded back to the route by cross-entropy.
//!
//! Same conventions as GRAM's loop: atomic checkpoints (`ckpt-<step>/` then the `latest`
//! pointer), `--resume`, Ctrl-C saves and exits, log.csv, quick evals on validation trees.

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use burn::module::Module;
use burn::optim::grad_clipping::GradientClippingConfig;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{Bytes, Device, Int, Tensor, TensorData};
use engine::gram::noise::NoiseSource;
use engine::jepa::loss::{EMA_MOMENTUM, LossOut, SST_K, pretrain_loss, sst_loss, talker_loss};
use engine::jepa::tree::{lm_routes, nearest_routes, reason, seq_batch, solve_trees};
use engine::jepa::weights::{jepa_from_bytes, jepa_to_bytes};
use engine::jepa::{Jepa, JepaConfig};
use engine::tasks::tree::{self, PAD, Part, ROUTE, ROUTE_LATENTS, TreeTask};
use serde::{Deserialize, Serialize};

use crate::train::{ctrl_c_flag, fmt_duration, open_log, warmup_cosine_lr, write_checkpoint};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Pretrain,
    Sst,
    Talker,
}

#[derive(Clone, Debug)]
pub struct JepaPreset {
    pub name: &'static str,
    pub phase: Phase,
    /// The run whose final model this phase starts from.
    pub from: Option<&'static str>,
    pub config: JepaConfig,
    pub batch: usize,
    pub lr: f64,
    pub warmup: usize,
    pub weight_decay: f32,
    pub steps: usize,
}

pub const JEPA_NAMES: [&str; 3] = ["reasoner-tree-pretrain", "reasoner-tree-sst", "reasoner-tree-talker"];

pub fn jepa_preset(name: &str) -> Option<JepaPreset> {
    let base = |name, phase, from, lr, steps| JepaPreset {
        name,
        phase,
        from,
        config: JepaConfig::tree(),
        batch: 64,
        lr,
        warmup: 100,
        weight_decay: 0.01,
        steps,
    };
    Some(match name {
        "reasoner-tree-pretrain" => base("reasoner-tree-pretrain", Phase::Pretrain, None, 1e-3, 6000),
        "reasoner-tree-sst" => base("reasoner-tree-sst", Phase::Sst, Some("reasoner-tree-pretrain"), 3e-4, 1500),
        "reasoner-tree-talker" => base("reasoner-tree-talker", Phase::Talker, Some("reasoner-tree-sst"), 1e-3, 500),
        _ => return None,
    })
}

pub struct JepaTrainArgs {
    pub preset: JepaPreset,
    pub steps: usize,
    pub seed: u64,
    pub run_dir: PathBuf,
    /// Run directory of the previous phase (default: runs/<preset.from>).
    pub from_dir: Option<PathBuf>,
    pub resume: bool,
    pub eval_every: usize,
    pub eval_inputs: usize,
    pub checkpoint_every: usize,
    pub log_every: usize,
    pub command: String,
}

/// Written beside each checkpoint's tensors; carries the history of earlier phases.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct JepaRunState {
    pub preset: String,
    pub phase: Phase,
    pub step: usize,
    pub total_steps: usize,
    pub seed: u64,
    /// Seconds of this phase.
    pub seconds: f64,
    pub command: String,
    pub config: JepaConfig,
    /// Earlier phases: (command, steps, seconds), oldest first.
    pub history: Vec<(String, usize, f64)>,
}

fn lr_at(p: &JepaPreset, step: usize, total: usize) -> f64 {
    warmup_cosine_lr(p.lr, p.warmup, step, total)
}

fn optimizer(p: &JepaPreset) -> ModuleOptimizer {
    AdamWConfig::new()
        .with_weight_decay(p.weight_decay)
        .with_grad_clipping(Some(GradientClippingConfig::Norm(1.0)))
        .init()
}

fn save(dir: &Path, model: &Jepa, optim: &ModuleOptimizer, state: &JepaRunState) -> std::io::Result<()> {
    let ob = optim.into_bytes().map_err(|e| std::io::Error::other(e.to_string()))?;
    let (model, state_json) = (jepa_to_bytes(model), serde_json::to_string_pretty(state)?);
    write_checkpoint(dir, state.step, &[("model.bpk", &model[..]), ("optim.bpk", &ob[..]), ("state.json", state_json.as_bytes())])
}

/// The newest checkpoint of a JEPA run: model, optimiser bytes, state.
pub fn load_jepa_checkpoint(dir: &Path, device: &Device) -> Result<(Jepa, Vec<u8>, JepaRunState), String> {
    let name = fs::read_to_string(dir.join("latest"))
        .map_err(|e| format!("no checkpoint in {}: {e}", dir.display()))?;
    let ckpt = dir.join(name.trim());
    let read = |f: &str| fs::read(ckpt.join(f)).map_err(|e| format!("{}/{f}: {e}", ckpt.display()));
    let state: JepaRunState = serde_json::from_slice(&read("state.json")?)
        .map_err(|e| format!("{}/state.json: {e}", ckpt.display()))?;
    let model = jepa_from_bytes(&state.config, &read("model.bpk")?, device).map_err(|e| e.to_string())?;
    Ok((model, read("optim.bpk")?, state))
}

/// A fresh batch of training-part tasks.
fn draw(rng: &mut NoiseSource, n: usize) -> Vec<TreeTask> {
    (0..n).map(|_| tree::draw(rng, Part::Train)).collect()
}

/// Talker data: the frozen Reasoner's free-running route latents `[B, R, D]` (detached), the
/// decoder's previous tokens, the route tokens, and the mask of real route positions.
fn talker_batch(model: &Jepa, tasks: &[TreeTask], device: &Device, plain: &Device) -> (Tensor<3>, Tensor<2, Int>, Tensor<2, Int>, Tensor<2>) {
    let reasoner = model.reasoner.valid();
    let inner = plain.clone();
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (i, t) in tasks.iter().enumerate() {
        groups.entry(t.input_tokens().len()).or_default().push(i);
    }
    let mut rows: Vec<Option<Vec<f32>>> = vec![None; tasks.len()];
    let mut d = 0;
    for idx in groups.values() {
        let prompts: Vec<Vec<u32>> = idx.iter().map(|&i| tasks[i].input_tokens()).collect();
        let mut noise: Vec<NoiseSource> = idx.iter().map(|&i| NoiseSource::new(i as u64)).collect();
        let lat = reason(&reasoner, &prompts, ROUTE_LATENTS, 0.0, &mut noise, &inner);
        d = lat.dims()[2];
        let flat: Vec<f32> = lat.into_data().convert::<f32>().try_to_vec::<f32>().unwrap();
        for (k, &i) in idx.iter().enumerate() {
            rows[i] = Some(flat[k * ROUTE_LATENTS * d..(k + 1) * ROUTE_LATENTS * d].to_vec());
        }
    }
    let b = tasks.len();
    let flat: Vec<f32> = rows.into_iter().flat_map(|r| r.unwrap()).collect();
    let latents = Tensor::<3>::from_data(TensorData::new(flat, [b, ROUTE_LATENTS, d]), device);
    let (mut prev, mut tgt, mut mask) = (Vec::new(), Vec::new(), Vec::new());
    for t in tasks {
        let mut r = t.route_tokens();
        let n = r.len();
        r.resize(ROUTE_LATENTS, PAD);
        for j in 0..ROUTE_LATENTS {
            prev.push(if j == 0 { ROUTE } else { r[j - 1] } as i64);
            tgt.push(r[j] as i64);
            mask.push((j < n) as u8 as f32);
        }
    }
    let shape = [b, ROUTE_LATENTS];
    (
        latents,
        Tensor::from_data(TensorData::new(prev, shape), device),
        Tensor::from_data(TensorData::new(tgt, shape), device),
        Tensor::from_data(TensorData::new(mask, shape), device),
    )
}

/// Validation-part exact match for the phase: LM head (pretrain), nearest vocabulary latent
/// (SST), Talker (talker).
fn quick_eval(model: &Jepa, phase: Phase, n: usize, device: &Device) -> f64 {
    let tasks = tree::validation_set(n);
    let m = model.valid();
    let inner = device.clone();
    let routes: Vec<Option<String>> = match phase {
        Phase::Pretrain => lm_routes(&m.reasoner, &tasks, &inner),
        Phase::Sst => nearest_routes(&m.reasoner, &tasks, &inner),
        Phase::Talker => solve_trees(&m, &tasks, 0.0, 0, &inner).into_iter().map(|a| a.route).collect(),
    };
    let right = tasks.iter().zip(&routes).filter(|(t, r)| r.as_deref() == Some(t.route_text().as_str())).count();
    100.0 * right as f64 / n.max(1) as f64
}

pub fn train_jepa(args: JepaTrainArgs, device: Device) -> Result<(), String> {
    let p = &args.preset;
    let ad = device.clone().autodiff();
    fs::create_dir_all(&args.run_dir).map_err(|e| format!("{}: {e}", args.run_dir.display()))?;
    let (mut model, mut optim, start, mut seconds, history) = if args.resume {
        let (m, ob, s) = load_jepa_checkpoint(&args.run_dir, &ad)?;
        if s.preset != p.name {
            return Err(format!("{} holds a {} run, not {}", args.run_dir.display(), s.preset, p.name));
        }
        let o = optimizer(p).from_bytes(Bytes::from_bytes_vec(ob)).map_err(|e| format!("optimizer state: {e}"))?;
        eprintln!("resuming {} from step {} ({:.0} s trained)", p.name, s.step, s.seconds);
        (m, o, s.step, s.seconds, s.history)
    } else if let Some(from) = p.from {
        let dir = args.from_dir.clone().unwrap_or_else(|| PathBuf::from("runs").join(from));
        let (mut m, _, s) = load_jepa_checkpoint(&dir, &ad)
            .map_err(|e| format!("{} starts from the {from} run: {e}", p.name))?;
        if s.preset != from {
            return Err(format!("{} holds a {} run; {} starts from {from}", dir.display(), s.preset, p.name));
        }
        if s.step < s.total_steps {
            eprintln!("warning: {from} stopped at step {} of {}", s.step, s.total_steps);
        }
        if p.phase == Phase::Sst {
            // SST's target encoder starts as a copy of the pretrained embedding.
            m.reasoner = m.reasoner.reset_target();
        }
        let mut history = s.history.clone();
        history.push((s.command.clone(), s.step, s.seconds));
        (m, optimizer(p), 0, 0.0, history)
    } else {
        ad.seed(args.seed);
        (Jepa::init(&p.config, &ad), optimizer(p), 0, 0.0, Vec::new())
    };
    let total = args.steps;
    eprintln!(
        "{}: {} params (Reasoner {}, Talker {}), {} steps x batch {}",
        p.name,
        model.num_params(),
        model.reasoner.num_params(),
        model.talker.num_params(),
        total,
        p.batch
    );
    let stop = ctrl_c_flag();
    let mut rng = NoiseSource::new(args.seed.wrapping_mul(7919).wrapping_add(start as u64 + 17 * p.phase as u64));
    let mut log = open_log(&args.run_dir, start == 0, "step,seconds,lr,loss,value,route_acc,eval_exact")?;
    let tty = std::io::stderr().is_terminal();
    let began = Instant::now();
    let seconds_at_start = seconds;
    let (mut s_loss, mut s_val, mut s_acc, mut s_n) = (0.0, 0.0, 0.0, 0usize);
    let mut step = start;
    while step < total {
        let tasks = draw(&mut rng, p.batch);
        let out: LossOut = match p.phase {
            Phase::Pretrain => pretrain_loss(&model.reasoner, &seq_batch(&tasks, &ad)),
            Phase::Sst => sst_loss(&model.reasoner, &seq_batch(&tasks, &ad), SST_K),
            Phase::Talker => {
                let (lat, prev, tgt, mask) = talker_batch(&model, &tasks, &ad, &device);
                talker_loss(&model.talker, lat, prev, tgt, mask)
            }
        };
        let lr = lr_at(p, step, total);
        let loss_value: f32 = out.loss.clone().into_scalar();
        let grads = GradientsParams::from_grads(out.loss.backward(), &model);
        model = optim.step(lr, model, grads);
        if p.phase == Phase::Sst {
            model.reasoner = model.reasoner.ema_update(EMA_MOMENTUM);
        }
        step += 1;
        s_loss += loss_value as f64;
        s_val += out.value as f64;
        s_acc += out.route_acc as f64;
        s_n += 1;
        seconds = seconds_at_start + began.elapsed().as_secs_f64();
        let mut eval_col = String::new();
        if args.eval_every > 0 && (step % args.eval_every == 0 || step == total) {
            let ex = quick_eval(&model, p.phase, args.eval_inputs, &device);
            eprintln!(
                "{}eval @ step {step}: exact match {ex:.2}% ({} validation trees, {})",
                if tty { "\n" } else { "" },
                args.eval_inputs,
                match p.phase {
                    Phase::Pretrain => "LM head, greedy tokens",
                    Phase::Sst => "free-running latents read by their nearest vocabulary latent",
                    Phase::Talker => "Reasoner latents + Talker",
                }
            );
            eval_col = format!("{ex:.3}");
        }
        if step % args.log_every == 0 || step == total || !eval_col.is_empty() {
            let n = s_n.max(1) as f64;
            let rate = (seconds - seconds_at_start) / (step - start) as f64;
            let bar_w = 24;
            let filled = bar_w * step / total;
            let value_name = if p.phase == Phase::Sst { "cos" } else { "ce" };
            let line = format!(
                "[{}{}] {step}/{total} loss {:.4} {value_name} {:.4} route-acc {:.1}% lr {lr:.1e} {rate:.2}s/step ETA {}",
                "#".repeat(filled),
                ".".repeat(bar_w - filled),
                s_loss / n,
                s_val / n,
                100.0 * s_acc / n,
                fmt_duration(rate * (total - step) as f64)
            );
            if tty {
                eprint!("\r{line}\x1b[K");
            } else {
                eprintln!("{line}");
            }
            writeln!(log, "{step},{seconds:.1},{lr:.3e},{:.5},{:.5},{:.4},{eval_col}", s_loss / n, s_val / n, s_acc / n).ok();
            (s_loss, s_val, s_acc, s_n) = (0.0, 0.0, 0.0, 0);
        }
        let interrupted = stop.load(Ordering::SeqCst);
        if interrupted || step % args.checkpoint_every == 0 || step == total {
            let state = JepaRunState {
                preset: p.name.into(),
                phase: p.phase,
                step,
                total_steps: total,
                seed: args.seed,
                seconds,
                command: args.command.clone(),
                config: p.config.clone(),
                history: history.clone(),
            };
            save(&args.run_dir, &model, &optim, &state).map_err(|e| format!("checkpoint: {e}"))?;
        }
        if interrupted {
            eprintln!("\ninterrupted at step {step}: checkpoint saved in {}; continue with --resume", args.run_dir.display());
            std::process::exit(130);
        }
    }
    eprintln!("\ndone: {step} steps in {}", fmt_duration(seconds));
    Ok(())
}
