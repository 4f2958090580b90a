//! The JEPA training loop, one phase per run (presets and checkpoints: `reasoner/presets.rs`). Same
//! conventions as GRAM's loop: atomic checkpoints, `--resume` continues exactly (optimiser state
//! and config; each step's trees are a pure function of (seed, step, phase); the SST target
//! encoder is part of the weights), `--stop-after`, Ctrl-C saves and exits, a non-finite loss
//! or weight stops the run unsaved, log.csv, quick evals on validation trees.

use std::fs;
use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Int, Tensor, TensorData};
use engine::gram::noise::NoiseSource;
use engine::reasoner::ReasonerModel;
use engine::reasoner::loss::{EMA_MOMENTUM, LossOut, SST_K, pretrain_loss, sst_loss, talker_loss};
use engine::tasks::tree::reasoner::{lm_routes, nearest_routes, reason, seq_batch, solve_trees};
use engine::tasks::tree::{self, PAD, Part, ROUTE, ROUTE_LATENTS, TreeTask};

pub use crate::reasoner::presets::{Phase, ReasonerPreset, ReasonerRunState, load_reasoner_checkpoint};
use crate::reasoner::presets::{restore_reasoner_optimizer, save_reasoner};
use crate::run::checkpoint::adamw;
use crate::run::course::{RunFlags, Stopper, TREES, all_finite, check_resumable, diverged, halt, step_rng, warmup_cosine_lr};
use crate::run::lineage;
use crate::run::log::{Clock, bar, fmt_duration, log_row, open_log, show_event, show_progress};
use engine::transfer::ReadBack;

pub struct ReasonerTrainArgs {
    pub preset: ReasonerPreset,
    /// Run directory of the previous phase (default: runs/<preset.from>).
    pub from_dir: Option<PathBuf>,
    pub run: RunFlags,
}

struct ReasonerRun {
    model: ReasonerModel,
    optim: ModuleOptimizer,
    state: ReasonerRunState,
}

pub fn train_reasoner(args: ReasonerTrainArgs, device: Device) -> Result<(), String> {
    let (p, ad) = (&args.preset, device.clone().autodiff());
    fs::create_dir_all(&args.run.run_dir).map_err(|e| format!("{}: {e}", args.run.run_dir.display()))?;
    crate::run::family::record(&args.run.run_dir, engine::weights::identity::Family::JepaReasoner)?;
    let mut run = match (args.run.resume, p.from) {
        (true, _) => resume(&args, &ad)?,
        (false, Some(from)) => start(&args, load_phase(&args, from, &ad)?),
        (false, None) => {
            let seed = args.run.seed.unwrap_or(0);
            ad.seed(seed);
            start(&args, (engine::nn::fresh::fresh(seed, &ad, |d| ReasonerModel::init(&p.config, d)), Vec::new()))
        }
    };
    let (m, total) = (&run.model, run.state.total_steps);
    let (all, reasoner, talker) = (m.num_params(), m.reasoner.num_params(), m.talker.num_params());
    eprintln!("{}: {all} params (Reasoner {reasoner}, Talker {talker}), {total} steps x batch {}", p.name, p.batch);
    let mut log = open_log(&args.run.run_dir, run.state.step == 0, "step,seconds,lr,loss,value,route_acc,eval_exact")?;
    let (stopper, clock) = (Stopper::new(run.state.step, args.run.stop_after), Clock::new(run.state.seconds, run.state.step));
    let mut meter = [0f64; 4]; // loss, value, route accuracy, steps
    while run.state.step < total {
        let (out, lr) = reasoner_step(&mut run, p, &ad, &device, &args.run.run_dir)?;
        meter = [meter[0] + out.0 as f64, meter[1] + out.1 as f64, meter[2] + out.2 as f64, meter[3] + 1.0];
        run.state.seconds = clock.seconds();
        let step = run.state.step;
        let eval_due = args.run.eval_every > 0 && (step % args.run.eval_every == 0 || step == total);
        let eval = eval_due.then(|| quick_eval(&run, args.run.eval_inputs, &device));
        if step % args.run.log_every == 0 || step == total || eval.is_some() {
            log_row(&mut log, &progress(&run.state, std::mem::take(&mut meter), lr, &clock, eval.as_deref()));
        }
        let halted = stopper.check(step).filter(|_| step < total);
        if halted.is_some() || step % args.run.checkpoint_every == 0 || step == total {
            save(&run, &args.run.run_dir, lr)?;
        }
        if let Some(h) = halted {
            halt(h, step, total, &args.run.run_dir);
            return Ok(());
        }
    }
    eprintln!("\ndone: {} steps in {}", run.state.step, fmt_duration(run.state.seconds));
    Ok(())
}

/// A new phase: from a fresh model (pretrain) or the previous phase's, with its history.
fn start(args: &ReasonerTrainArgs, (model, history): (ReasonerModel, Vec<(String, usize, f64)>)) -> ReasonerRun {
    let p = &args.preset;
    let optimizer = adamw(p.weight_decay);
    let state = ReasonerRunState {
        preset: p.name.into(),
        phase: p.phase,
        step: 0,
        total_steps: args.run.steps.unwrap_or(p.steps),
        seed: args.run.seed.unwrap_or(0),
        seconds: 0.0,
        command: args.run.command.clone(),
        config: p.config.clone(),
        history,
        optimizer: Some(optimizer.clone()),
    };
    ReasonerRun { model, optim: optimizer.init(), state }
}

/// The previous phase's final model and the history so far, its own run included.
/// Finished phases: (name, steps, seconds).
type History = Vec<(String, usize, f64)>;

fn load_phase(args: &ReasonerTrainArgs, from: &str, ad: &Device) -> Result<(ReasonerModel, History), String> {
    let p = &args.preset;
    let dir = args.from_dir.clone().unwrap_or_else(|| PathBuf::from("runs").join(from));
    let (mut m, _, s) = load_reasoner_checkpoint(&dir, ad).map_err(|e| format!("{} starts from the {from} run: {e}", p.name))?;
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
    Ok((m, history))
}

/// The run in the latest checkpoint; `--steps` given changes its length, `--seed` cannot change.
fn resume(args: &ReasonerTrainArgs, ad: &Device) -> Result<ReasonerRun, String> {
    let p = &args.preset;
    let (model, optim_bytes, mut state) = load_reasoner_checkpoint(&args.run.run_dir, ad)?;
    check_resumable(&args.run.run_dir, (&state.preset, state.seed), p.name, args.run.seed)?;
    let optim = restore_reasoner_optimizer(&mut state, p, optim_bytes)?;
    eprintln!("resuming {} from step {} ({:.0} s trained)", p.name, state.step, state.seconds);
    if let Some(steps) = args.run.steps.filter(|&s| s != state.total_steps) {
        eprintln!("note: from step {} this run changes: total steps {} -> {steps}", state.step, state.total_steps);
        state.total_steps = steps;
    }
    state.command = lineage::resumed(&state.command, state.step, &args.run.command);
    Ok(ReasonerRun { model, optim, state })
}

/// One optimiser step of the phase on a fresh batch of training-part trees; returns (loss,
/// value, route accuracy) and the lr. A non-finite loss is an error before the update.
fn reasoner_step(
    run: &mut ReasonerRun,
    p: &ReasonerPreset,
    ad: &Device,
    plain: &Device,
    run_dir: &Path,
) -> Result<((f32, f32, f32), f64), String> {
    let step = run.state.step;
    let tasks = draw(&mut step_rng(run.state.seed, step, TREES + p.phase as u64), p.batch);
    let model = &run.model;
    let out: LossOut = match p.phase {
        Phase::Pretrain => pretrain_loss(&model.reasoner, &seq_batch(&tasks, ad)),
        Phase::Sst => sst_loss(&model.reasoner, &seq_batch(&tasks, ad), SST_K),
        Phase::Talker => {
            let (lat, prev, tgt, mask) = talker_batch(model, &tasks, ad, plain);
            talker_loss(&model.talker, lat, prev, tgt, mask)
        }
    };
    let lr = warmup_cosine_lr(p.lr, p.warmup, step, run.state.total_steps);
    let loss: f32 = out.loss.clone().into_scalar();
    if !loss.is_finite() {
        return Err(diverged(step + 1, &format!("the loss is {loss}"), run_dir, lr));
    }
    let grads = GradientsParams::from_grads(out.loss.backward(), &run.model);
    run.model = run.optim.step(lr, run.model.clone(), grads);
    if p.phase == Phase::Sst {
        run.model.reasoner = run.model.reasoner.clone().ema_update(EMA_MOMENTUM);
    }
    run.state.step += 1;
    Ok(((loss, out.value, out.route_acc), lr))
}

/// Shows the progress line for the steps summed in `m` (loss, value, accuracy, count) and
/// returns the log.csv row.
fn progress(s: &ReasonerRunState, m: [f64; 4], lr: f64, clock: &Clock, eval: Option<&str>) -> String {
    let n = m[3].max(1.0);
    let (loss, value, acc) = (m[0] / n, m[1] / n, m[2] / n);
    let (rate, eta) = clock.rate_and_eta(s.step, s.total_steps);
    let value_name = if s.phase == Phase::Sst { "cos" } else { "ce" };
    show_progress(&format!(
        "{} loss {loss:.4} {value_name} {value:.4} route-acc {:.1}% lr {lr:.1e} {rate:.2}s/step ETA {eta}",
        bar(s.step, s.total_steps),
        100.0 * acc
    ));
    format!("{},{:.1},{lr:.3e},{loss:.5},{value:.5},{acc:.4},{}", s.step, s.seconds, eval.unwrap_or(""))
}

/// Writes the checkpoint of the run as it is now, unless a weight is not finite.
fn save(run: &ReasonerRun, run_dir: &Path, lr: f64) -> Result<(), String> {
    if !all_finite(&run.model) {
        return Err(diverged(run.state.step, "a weight is not finite", run_dir, lr));
    }
    save_reasoner(run_dir, &run.model, &run.optim, &run.state).map_err(|e| format!("checkpoint: {e}"))
}

/// Validation-part exact match for the phase: LM head (pretrain), nearest vocabulary latent
/// (SST), Talker (talker). Returns the log.csv column.
fn quick_eval(run: &ReasonerRun, n: usize, device: &Device) -> String {
    let tasks = tree::validation_set(n);
    let m = run.model.valid();
    let routes: Vec<Option<String>> = match run.state.phase {
        Phase::Pretrain => lm_routes(&m.reasoner, &tasks, device),
        Phase::Sst => nearest_routes(&m.reasoner, &tasks, device),
        Phase::Talker => solve_trees(&m, &tasks, 0.0, 0, device).into_iter().map(|a| a.route).collect(),
    };
    let right = tasks.iter().zip(&routes).filter(|(t, r)| r.as_deref() == Some(t.route_text().as_str())).count();
    let exact = 100.0 * right as f64 / n.max(1) as f64;
    let how = match run.state.phase {
        Phase::Pretrain => "LM head, greedy tokens",
        Phase::Sst => "free-running latents read by their nearest vocabulary latent",
        Phase::Talker => "Reasoner latents + Talker",
    };
    show_event(&format!("eval @ step {}: exact match {exact:.2}% ({n} validation trees, {how})", run.state.step));
    format!("{exact:.3}")
}

/// A fresh batch of training-part tasks.
fn draw(rng: &mut NoiseSource, n: usize) -> Vec<TreeTask> {
    (0..n).map(|_| tree::draw(rng, Part::Train)).collect()
}

/// Talker data: the frozen Reasoner's free-running route latents `[B, R, D]` (detached), the
/// decoder's previous tokens, the route tokens, and the mask of real route positions.
fn talker_batch(
    model: &ReasonerModel,
    tasks: &[TreeTask],
    device: &Device,
    plain: &Device,
) -> (Tensor<3>, Tensor<2, Int>, Tensor<2, Int>, Tensor<2>) {
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
        let flat: Vec<f32> = lat.floats().unwrap();
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
