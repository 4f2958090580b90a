//! The JEPA study's training loop: SFT on the training part of the preset's task
//! ((description, regex) pairs, or arithmetic chains and their answers), plus the preset's JEPA
//! term. Same conventions as the other loops: atomic checkpoints,
//! `--resume` continues exactly (each step's batch, JEPA dropout and spans are a pure function
//! of (seed, step)), `--stop-after`, Ctrl-C saves and exits, a non-finite loss or weight stops
//! the run unsaved, log.csv, quick evaluations on validation descriptions with the best kept in
//! `best/`.

use std::fs;
use std::path::Path;

use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::Device;
use engine::lm::Lm;
use engine::lm::objective::{ContextStart, objective_loss};
use engine::lm::sft::{Example, Layout};
use engine::nn::ema_update;
use engine::studies::arith;
use engine::studies::regex::language::training_subset;
use engine::studies::regex::model::{LAYOUT, Objective, RegexModel, example};
use engine::studies::regex::pairs;
use engine::studies::regex::score::score_model;
use engine::tasks::split::{Part, spread};

use crate::gram::train::BEST;
use crate::lm::presets::{LmPreset, LmRunState, LmTask, load_lm_checkpoint, save_lm};
use crate::run::checkpoint::{adamw, restore_optimizer};
use crate::run::course::{RunFlags, Stopper, all_finite, check_resumable, diverged, halt, step_rng, warmup_cosine_lr};
use crate::run::lineage;
use crate::run::log::{Clock, bar, fmt_duration, log_row, open_log, show_event, show_progress};

/// The data stream of regex runs.
const REGEX_STREAM: u64 = 23;

pub struct LmTrainArgs {
    pub preset: LmPreset,
    pub run: RunFlags,
}

struct LmRun {
    model: RegexModel,
    /// T-decoder-JEPA's EMA target encoder (inner backend).
    target: Option<Lm>,
    optim: ModuleOptimizer,
    state: LmRunState,
}

/// A regex preset's training examples (`tenths` of the training meanings), once; arithmetic
/// chains are drawn fresh each step.
pub fn training_examples(task: LmTask) -> Vec<Example> {
    match task {
        LmTask::Regex { tenths } => {
            training_subset(tenths).iter().map(|p| example(&p.description, &p.regex).expect("the task's pairs tokenize")).collect()
        }
        LmTask::Arith => Vec::new(),
    }
}

/// The task's special tokens, and where T-decoder-JEPA's context may end at the earliest: after
/// the description (the targets are the regex's future), or after BOS and the first digit (the
/// targets are the chain's future and its answer).
fn task_layout(task: LmTask) -> (Layout, ContextStart) {
    match task {
        LmTask::Regex { .. } => (LAYOUT, ContextStart::AfterPrompt),
        LmTask::Arith => (arith::LAYOUT, ContextStart::At(2)),
    }
}

pub fn train_lm(args: LmTrainArgs, device: Device) -> Result<(), String> {
    let ad = device.clone().autodiff();
    fs::create_dir_all(&args.run.run_dir).map_err(|e| format!("{}: {e}", args.run.run_dir.display()))?;
    crate::run::family::record(&args.run.run_dir, engine::weights::identity::Family::RegexLm)?;
    let mut run = if args.run.resume { resume(&args, &ad, &device)? } else { start(&args, &ad) };
    let data = training_examples(args.preset.task);
    let total = run.state.steps;
    eprintln!(
        "{}: {} params ({}), {total} steps x batch {} over {}",
        args.preset.name,
        run.model.num_params(),
        run.state.config.objective.name(),
        args.preset.batch,
        if data.is_empty() { "arithmetic chains drawn fresh each step".to_string() } else { format!("{} training pairs", data.len()) }
    );
    let mut log = open_log(&args.run.run_dir, run.state.step == 0, "step,seconds,lr,loss,ce,acc,jepa,eval")?;
    let stopper = Stopper::new(run.state.step, args.run.stop_after);
    let clock = Clock::new(run.state.seconds, run.state.step);
    // loss, ce, acc, steps; the JEPA value and the steps that computed it (LLM-JEPA's dropout skips some).
    let mut meter = [0f64; 6];
    while run.state.step < total {
        let (out, lr) = lm_step(&mut run, &args.preset, &data, &ad, &args.run.run_dir)?;
        let jepa = if out[3].is_finite() { [out[3] as f64, 1.0] } else { [0.0, 0.0] };
        for (m, v) in meter.iter_mut().zip([out[0] as f64, out[1] as f64, out[2] as f64, 1.0, jepa[0], jepa[1]]) {
            *m += v;
        }
        run.state.seconds = clock.seconds();
        let step = run.state.step;
        let eval_due = args.run.eval_every > 0 && (step % args.run.eval_every == 0 || step == total);
        let eval = eval_due.then(|| quick_eval(&run, args.preset.task, args.run.eval_inputs, &device));
        if step % args.run.log_every == 0 || step == total || eval.is_some() {
            log_row(&mut log, &progress(&run.state, std::mem::take(&mut meter), lr, &clock, eval));
        }
        let halted = stopper.check(step).filter(|_| step < total);
        if let Some(acc) = eval.filter(|&acc| run.state.best_eval.is_none_or(|(best, _)| acc > best)) {
            run.state.best_eval = Some((acc, step));
            save(&run, &args.run.run_dir.join(BEST), lr)?;
        }
        if halted.is_some() || step % args.run.checkpoint_every == 0 || step == total {
            save(&run, &args.run.run_dir, lr)?;
        }
        if let Some(h) = halted {
            halt(h, step, total, &args.run.run_dir);
            return Ok(());
        }
    }
    eprintln!("\ndone: {total} steps in {}", fmt_duration(run.state.seconds));
    Ok(())
}

fn start(args: &LmTrainArgs, ad: &Device) -> LmRun {
    let p = &args.preset;
    let seed = args.run.seed.unwrap_or(0);
    ad.seed(seed);
    let optimizer = adamw(p.weight_decay);
    let model = engine::nn::fresh::fresh(seed, ad, |d| p.config.init(d));
    let target = matches!(p.config.objective, Objective::TJepa(_)).then(|| model.lm.valid());
    let state = LmRunState {
        preset: p.name.into(),
        config: p.config.clone(),
        seed,
        step: 0,
        steps: args.run.steps.unwrap_or(p.steps),
        seconds: 0.0,
        command: args.run.command.clone(),
        optimizer: optimizer.clone(),
        best_eval: None,
    };
    LmRun { model, target, optim: optimizer.init(), state }
}

fn resume(args: &LmTrainArgs, ad: &Device, plain: &Device) -> Result<LmRun, String> {
    let (model, target, optim_bytes, mut state) = load_lm_checkpoint(&args.run.run_dir, ad, plain)?;
    check_resumable(&args.run.run_dir, (&state.preset, state.seed), args.preset.name, args.run.seed)?;
    if let Some(s) = args.run.steps {
        state.steps = s;
    }
    let optim = restore_optimizer(&state.optimizer, optim_bytes)?;
    eprintln!("resuming {} at step {} of {}", args.preset.name, state.step, state.steps);
    state.command = lineage::resumed(&state.command, state.step, &args.run.command);
    Ok(LmRun { model, target, optim, state })
}

/// One optimiser step: (loss, SFT cross-entropy, answer-token accuracy, JEPA value), lr.
fn lm_step(run: &mut LmRun, p: &LmPreset, data: &[Example], ad: &Device, run_dir: &Path) -> Result<([f32; 4], f64), String> {
    let mut rng = step_rng(run.state.seed, run.state.step, REGEX_STREAM);
    let batch: Vec<Example> = match p.task {
        LmTask::Regex { .. } => (0..p.batch).map(|_| data[rng.index(data.len())].clone()).collect(),
        LmTask::Arith => (0..p.batch).map(|_| arith::draw(&mut rng, Part::Train).example()).collect(),
    };
    let objective = run.state.config.objective;
    let (layout, context) = task_layout(p.task);
    let (loss, figures) = objective_loss(&run.model, run.target.as_ref(), &batch, &layout, objective, context, &mut rng, ad);
    let lr = warmup_cosine_lr(p.lr, p.warmup, run.state.step, run.state.steps);
    let value: f32 = loss.clone().into_scalar();
    if !value.is_finite() {
        return Err(diverged(run.state.step + 1, &format!("the loss is {value}"), run_dir, lr));
    }
    let grads = GradientsParams::from_grads(loss.backward(), &run.model);
    run.model = run.optim.step(lr, run.model.clone(), grads);
    if let (Objective::TJepa(t), Some(target)) = (objective, run.target.take()) {
        run.target = Some(ema_update(target, &run.model.lm, t.ema));
    }
    run.state.step += 1;
    Ok(([value, figures.ce, figures.acc, figures.jepa.unwrap_or(f32::NAN)], lr))
}

fn progress(s: &LmRunState, m: [f64; 6], lr: f64, clock: &Clock, eval: Option<f64>) -> String {
    let n = m[3].max(1.0);
    let (loss, ce, acc, jepa) = (m[0] / n, m[1] / n, m[2] / n, m[4] / m[5].max(1.0));
    let (rate, eta) = clock.rate_and_eta(s.step, s.steps);
    show_progress(&format!(
        "{} loss {loss:.4} ce {ce:.4} acc {:.1}% jepa {jepa:.4} lr {lr:.1e} {rate:.2}s/step ETA {eta}",
        bar(s.step, s.steps),
        100.0 * acc
    ));
    let eval = eval.map(|e| format!("{e:.3}")).unwrap_or_default();
    format!("{},{:.1},{lr:.3e},{loss:.5},{ce:.5},{acc:.4},{jepa:.5},{eval}", s.step, s.seconds)
}

fn save(run: &LmRun, dir: &Path, lr: f64) -> Result<(), String> {
    if !all_finite(&run.model) {
        return Err(diverged(run.state.step, "a weight is not finite", dir, lr));
    }
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    save_lm(dir, &run.model, run.target.as_ref(), &run.optim, &run.state).map_err(|e| format!("checkpoint: {e}"))
}

/// Accuracy (%) of greedy answers on `n` validation inputs: regexes right in meaning, or
/// chains' final digits.
fn quick_eval(run: &LmRun, task: LmTask, n: usize, device: &Device) -> f64 {
    if task == LmTask::Arith {
        let chains = arith::fixed_set(Part::Validation, n);
        let (all, by) = arith::accuracy(&arith::answers(&run.model.lm.valid(), &chains, run.state.config.objective.k(), device), &chains);
        show_event(&format!(
            "eval @ step {}: {:.1}% of {n} validation chains right (2-5 operations: {:.0} / {:.0} / {:.0} / {:.0}%)",
            run.state.step,
            100.0 * all,
            100.0 * by[0],
            100.0 * by[1],
            100.0 * by[2],
            100.0 * by[3]
        ));
        return 100.0 * all;
    }
    let set = spread(&pairs(Part::Validation), n);
    let s = score_model(&run.model.lm.valid(), &set, run.state.config.objective.k(), device);
    show_event(&format!(
        "eval @ step {}: semantic {:.1}%, exact {:.1}% ({} validation descriptions)",
        run.state.step,
        100.0 * s.semantic,
        100.0 * s.exact,
        s.n
    ));
    100.0 * s.semantic
}
