//! The GRAM/TRM training loop, flat and visible: each optimiser step runs
//! one supervision step on every slot of the in-flight batch (`batch.rs`) and refills the slots
//! that finished. Quick evals score the validation part only (`data.rs`).
//!
//! Checkpoints (`state.rs`) every `--checkpoint-every` steps, at the end, on Ctrl-C and at
//! `--stop-after`. `--resume` continues exactly where the checkpoint left off: weights, optimiser
//! state and config, the weights' average, the batch slots and their carried state, and each
//! step's randomness, a pure function of (seed, step) (`run/course.rs`). Stopping at step k and resuming
//! gives the parameters of the uninterrupted run, bit for bit. A non-finite loss or weight stops
//! the run before anything of it is saved.

use std::fs;
use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::{Gram, GramConfig};
use engine::training::batch::InFlight;
use engine::training::{Learner, StepOut, StepPlan};
use engine::weights::identity::Family;

use super::weights::load_weights;
use crate::gram::data::TrainData;
use crate::gram::meter::Meter;
use crate::gram::presets::Preset;
use crate::gram::state::{BatchState, Parent, RunState, Schedule, Snapshot, load_checkpoint, load_ema, load_latent, save_checkpoint};
use crate::run::checkpoint::adamw;
use crate::run::course::{DATA, Stopper, all_finite, diverged, halt, step_rng};
use crate::run::lineage;
use crate::run::log::{Clock, fmt_duration, log_row, open_log, show_event};

pub struct TrainArgs {
    pub preset: Preset,
    pub flags: Flags,
    pub run_dir: PathBuf,
    pub resume: bool,
    /// Start from these weights (a `.bpk` with its manifest) with a fresh optimiser, instead of
    /// a fresh initialisation. The config must match the preset's (beta may differ).
    pub init_from: Option<PathBuf>,
    pub eval_every: usize,
    pub eval_inputs: usize,
    pub checkpoint_every: usize,
    pub log_every: usize,
    /// Stop this invocation after this many steps, with a checkpoint (`--stop-after`).
    pub stop_after: Option<usize>,
    pub command: String,
}

/// Settings the command line gave. A fresh run takes the preset's for those not given; a
/// resumed run keeps its own, and each one given changes it from the resumption on.
#[derive(Default)]
pub struct Flags {
    pub steps: Option<usize>,
    pub seed: Option<u64>,
    pub lr: Option<f64>,
    pub beta: Option<f64>,
    /// The KL's free bits (`GramConfig::free_bits`), recorded in the config like beta.
    pub free_bits: Option<f64>,
    /// The share of rows trained on the prior's draw (`GramConfig::prior_rows`), recorded in the
    /// config like beta.
    pub prior_rows: Option<f64>,
    /// Decay of the weights' EMA (the GRAM paper, appendix D.2; 0 = no average). With an average, the
    /// quick evals, `export` and therefore the shipped file use the averaged weights.
    pub ema: Option<f64>,
    /// Sudoku: the generated pool's target givens (`--givens LO-HI`), or an import (`--data DIR`).
    pub givens: Option<(usize, usize)>,
    /// Sudoku: each generated puzzle the hardest of K by the solver's rating (`--hardest-of K`).
    pub hardest_of: Option<usize>,
    pub data: Option<PathBuf>,
    /// `--augment`: train on random answer-preserving copies of the pairs (graph colouring).
    pub augment: bool,
}

/// The state of a run between steps (the in-flight batch apart).
pub(super) struct Run {
    /// The weights, the optimiser's state and the weights' average (off the autodiff graph).
    pub(super) learner: Learner,
    pub(super) state: RunState,
    pub(super) schedule: Schedule,
}

/// `devices`: the backend's devices for this run, the first holding the model and optimiser
/// (more than one: data parallel, `data_parallel.rs`).
pub fn train(args: TrainArgs, devices: Vec<Device>) -> Result<(), String> {
    let ads: Vec<Device> = devices.iter().map(|d| d.clone().autodiff()).collect();
    let ad = ads[0].clone();
    fs::create_dir_all(&args.run_dir).map_err(|e| format!("{}: {e}", args.run_dir.display()))?;
    let (mut run, restored) = if args.resume { resume(&args, &ad)? } else { (start(&args, &ad)?, None) };
    crate::run::family::record(&args.run_dir, Family::of_gram_config(&run.state.config))?;
    let rows = if run.schedule.batch > 0 { run.schedule.batch } else { args.preset.batch }; // 0: an older checkpoint
    let cut = crate::gram::data_parallel::describe_cut(run.schedule.grad_accum, ads.len(), rows)?;
    let data = prepare_data(&run, &args, rows, &cut)?;
    let (seed, l) = (run.state.seed, run.state.config.seq_len);
    let mut batch = match restored {
        Some(batch) => batch,
        None => InFlight::fresh(&run.learner.model, &data, rows, l, &mut step_rng(seed, run.state.step, DATA)),
    };
    let mut meter = Meter::new(run.learner.ema.is_some());
    let mut log = open_log(&args.run_dir, run.state.step == 0, &meter.header())?;
    let (stopper, clock) = (Stopper::new(run.state.step, args.stop_after), Clock::new(run.state.seconds, run.state.step));
    let total = run.state.total_steps;
    while run.state.step < total {
        let before = engine::transfer::traffic();
        let out = train_step(&mut run, &mut batch, &data, &ads, &args.run_dir)?;
        let traffic = engine::transfer::traffic() - before;
        let lr = out.lr;
        meter.add(out);
        run.state.seconds = clock.seconds();
        let step = run.state.step;
        let eval_due = args.eval_every > 0 && (step % args.eval_every == 0 || step == total);
        let eval = eval_due.then(|| quick_eval(&run, &data, args.eval_inputs, &devices[0]));
        if let Some((acc, _)) = eval.as_ref().filter(|(acc, _)| run.state.best_eval.is_none_or(|(best, _)| *acc > best)) {
            // The best on validation so far: kept in <run>/best/, which `export` and `eval` read
            // as a run directory (the run's own checkpoints keep only the newest two).
            run.state.best_eval = Some((*acc, step));
            save(&run, &batch, &args.run_dir.join(BEST), lr)?;
        }
        if step % args.log_every == 0 || step == total || eval.is_some() {
            let row = meter.take(&run.state, lr, &clock, eval.as_ref().map(|(_, cols)| cols.as_str()), traffic);
            log_row(
                &mut log,
                &row.map_err(|loss| diverged(step, &format!("the mean loss since the last log row is {loss}"), &args.run_dir, lr))?,
            );
        }
        let halted = stopper.check(step).filter(|_| step < total);
        if halted.is_some() || step % args.checkpoint_every == 0 || step == total {
            save(&run, &batch, &args.run_dir, lr)?;
        }
        if let Some(h) = halted {
            halt(h, step, total, &args.run_dir);
            return Ok(());
        }
    }
    eprintln!("\ndone: {} steps in {}", run.state.step, fmt_duration(run.state.seconds));
    Ok(())
}

/// A fresh run: the preset with the command's settings, from a fresh initialisation or
/// `--init-from` weights, with a fresh optimiser.
pub(super) fn start(args: &TrainArgs, ad: &Device) -> Result<Run, String> {
    let (p, f) = (&args.preset, &args.flags);
    let config = GramConfig {
        beta: f.beta.unwrap_or(p.config.beta),
        free_bits: f.free_bits.or(p.config.free_bits),
        prior_rows: f.prior_rows.or(p.config.prior_rows),
        ..p.config.clone()
    };
    let seed = f.seed.unwrap_or(0);
    let (model, parent) = match &args.init_from {
        Some(weights) => init_from(weights, p, &config, ad)?,
        None => {
            ad.seed(seed);
            (engine::nn::fresh::fresh(seed, ad, |d| Gram::init(&config, d)), None)
        }
    };
    let schedule =
        Schedule { lr: f.lr.unwrap_or(p.lr), warmup: p.warmup, ema: f.ema.unwrap_or(p.ema), grad_accum: p.grad_accum, batch: p.batch };
    let optimizer = adamw(p.weight_decay);
    let state = RunState {
        preset: p.name.to_string(),
        step: 0,
        total_steps: f.steps.unwrap_or(p.steps),
        seed,
        seconds: 0.0,
        command: args.command.clone(),
        config,
        parent,
        schedule: Some(schedule),
        optimizer: Some(optimizer.clone()),
        batch: None,
        best_eval: None,
        train_givens: f.givens,
        train_hardest_of: f.hardest_of,
        train_data: f.data.clone(),
        train_augment: f.augment,
    };
    let ema = (schedule.ema > 0.0).then(|| model.valid());
    Ok(Run { learner: Learner { model, optim: optimizer.init(), ema }, state, schedule })
}

/// Shipped weights to start from, and the record of how they were trained.
fn init_from(weights: &Path, p: &Preset, config: &GramConfig, ad: &Device) -> Result<(Gram, Option<Parent>), String> {
    // load_weights reads a run directory's weights off the autodiff device: they could not be
    // trained, and a run directory has no manifest to name their recipe.
    if weights.is_dir() {
        return Err(format!(
            "--init-from takes a .bpk with its manifest, not the run directory {}: export it first, or continue it with --resume",
            weights.display()
        ));
    }
    let (model, found, manifest) = load_weights(weights, ad)?;
    // The preset's config up to the loss's settings (beta, free bits, prior rows), the
    // ablation (a variant may start from the model it ablates) and MLP widths at least the
    // weights' (`--d-hidden`, `--d-token-hidden`: the weights are widened to them).
    let (d_hidden, d_token_hidden) = (config.d_hidden, config.d_token_hidden);
    let same = GramConfig {
        beta: config.beta,
        free_bits: config.free_bits,
        prior_rows: config.prior_rows,
        ablation: config.ablation,
        d_hidden,
        d_token_hidden,
        ..found
    };
    if same != *config {
        return Err(format!("{} does not have the {} preset's config", weights.display(), p.name));
    }
    if d_hidden < found.d_hidden || d_token_hidden < found.d_token_hidden {
        return Err(format!(
            "{} has MLPs of {} (token {}) hidden units; --d-hidden/--d-token-hidden widen them, not narrow them to {d_hidden} ({d_token_hidden})",
            weights.display(),
            found.d_hidden,
            found.d_token_hidden
        ));
    }
    let model = model.widened(d_hidden, d_token_hidden, ad)?;
    if (d_hidden, d_token_hidden) != (found.d_hidden, found.d_token_hidden) {
        eprintln!(
            "widened the core's MLPs from {} (token {}) to {d_hidden} ({d_token_hidden}) hidden units, its function unchanged",
            found.d_hidden, found.d_token_hidden
        );
    }
    let parent = manifest.map(|m| Parent { command: m.training_command, steps: m.train_steps, seconds: m.train_seconds, sha256: m.sha256 });
    eprintln!("starting {} from {} (fresh optimiser)", p.name, weights.display());
    // The weights were built with their own config; the run's ablation (if any) applies from now.
    Ok((model.with_ablation(config.ablation).train(), parent))
}

/// The run in the latest checkpoint, with the settings given now applied, and its in-flight
/// batch (none in checkpoints written before it was saved: the batch then restarts from z0).
fn resume(args: &TrainArgs, ad: &Device) -> Result<(Run, Option<InFlight>), String> {
    let p = &args.preset;
    let (model, optim, mut state) = load_checkpoint(&args.run_dir, ad)?;
    if state.preset != p.name {
        return Err(format!("{} holds a {} run, not {}", args.run_dir.display(), state.preset, p.name));
    }
    let recorded = state.schedule.unwrap_or(Schedule { lr: p.lr, warmup: p.warmup, ema: 0.0, grad_accum: 1, batch: 0 });
    let schedule = apply_flags(&mut state, recorded, &args.flags)?;
    eprintln!("resuming {} from step {} ({:.0} s trained)", p.name, state.step, state.seconds);
    state.command = lineage::resumed(&state.command, state.step, &args.command);
    let ema = match schedule.ema > 0.0 {
        true => Some(load_ema(&args.run_dir, &state.config, ad)?.map(|m| m.valid()).unwrap_or_else(|| model.valid())),
        false => None,
    };
    let batch = match (&state.batch, load_latent(&args.run_dir)?) {
        (Some(b), Some(bytes)) => Some(InFlight::restore(b.slots.clone(), &bytes, b.latent_shape, ad)?),
        _ => {
            eprintln!("note: this checkpoint has no in-flight batch (written before it was saved): the batch restarts from z0");
            None
        }
    };
    Ok((Run { learner: Learner { model: model.train(), optim, ema }, state, schedule }, batch))
}

/// Applies the settings given to a resumed run, saying what changes; the seed cannot.
fn apply_flags(state: &mut RunState, mut schedule: Schedule, flags: &Flags) -> Result<Schedule, String> {
    if let Some(seed) = flags.seed.filter(|&s| s != state.seed) {
        return Err(format!("--seed {seed}: this run was seeded with {}; a resumed run keeps its seed", state.seed));
    }
    let changes_data = (flags.givens.is_some() && flags.givens != state.train_givens)
        || (flags.hardest_of.is_some() && flags.hardest_of != state.train_hardest_of)
        || (flags.data.is_some() && flags.data != state.train_data);
    if changes_data || (flags.augment && !state.train_augment) {
        return Err("--givens, --hardest-of, --data, --augment: a resumed run keeps the training data it started with".into());
    }
    let mut changes = Vec::new();
    if let Some(lr) = flags.lr.filter(|&x| x != schedule.lr) {
        changes.push(format!("peak lr {} -> {lr}", schedule.lr));
        schedule.lr = lr;
    }
    if let Some(beta) = flags.beta.filter(|&x| x != state.config.beta) {
        changes.push(format!("beta {} -> {beta}", state.config.beta));
        state.config.beta = beta;
    }
    if let Some(free_bits) = flags.free_bits.filter(|&x| Some(x) != state.config.free_bits) {
        changes.push(format!("free bits {} -> {free_bits}", state.config.free_bits.unwrap_or(0.0)));
        state.config.free_bits = Some(free_bits);
    }
    if let Some(prior_rows) = flags.prior_rows.filter(|&x| Some(x) != state.config.prior_rows) {
        changes.push(format!("prior rows {} -> {prior_rows}", state.config.prior_rows.unwrap_or(0.0)));
        state.config.prior_rows = Some(prior_rows);
    }
    if let Some(ema) = flags.ema.filter(|&x| x != schedule.ema) {
        changes.push(format!("EMA decay {} -> {ema}", schedule.ema));
        schedule.ema = ema;
    }
    if let Some(steps) = flags.steps.filter(|&x| x != state.total_steps) {
        changes.push(format!("total steps {} -> {steps} (the lr schedule follows)", state.total_steps));
        state.total_steps = steps;
    }
    if !changes.is_empty() {
        eprintln!("note: from step {} this run changes: {}", state.step, changes.join(", "));
    }
    Ok(schedule)
}

/// The task's data or the run's import (train and validation parts), with the description line.
fn prepare_data(run: &Run, args: &TrainArgs, rows: usize, cut: &str) -> Result<TrainData, String> {
    let (began, state) = (std::time::Instant::now(), &run.state);
    let puzzle_ids = state.config.puzzle_prefix() > 0;
    let pool = (state.train_givens.is_some() || state.train_hardest_of.is_some()).then(|| engine::tasks::sudoku::PoolSpec {
        givens: state.train_givens.unwrap_or(crate::gram::data::SUDOKU_TRAIN_GIVENS),
        hardest_of: state.train_hardest_of.unwrap_or(1),
    });
    let data = TrainData::for_run(args.preset.task, state.seed, pool, state.train_data.as_deref(), puzzle_ids, state.train_augment)?;
    eprintln!(
        "{}: {} params, {} (data ready in {:.1} s), {} steps x batch {}{}",
        args.preset.name,
        run.learner.model.num_params(),
        data.describe(),
        began.elapsed().as_secs_f64(),
        run.state.total_steps,
        rows,
        cut
    );
    Ok(data)
}

/// One optimiser step (`engine::training::step`, the page's too), data parallel over
/// `ads` when there are several. A non-finite loss is an error before the update.
pub(super) fn train_step(run: &mut Run, batch: &mut InFlight, data: &TrainData, ads: &[Device], run_dir: &Path) -> Result<StepOut, String> {
    let (state, schedule) = (&run.state, &run.schedule);
    let plan = StepPlan { config: &state.config, schedule, seed: state.seed, step: state.step, total_steps: state.total_steps };
    let spread: engine::training::accumulate::Spread = crate::gram::data_parallel::spread;
    let out = engine::training::train_step(&mut run.learner, batch, data, plan, ads, Some(spread))
        .map_err(|d| diverged(state.step + 1, &format!("the loss is {}", d.value), run_dir, d.lr))?;
    run.state.step += 1;
    Ok(out)
}

/// Subdirectory of a run directory holding the checkpoint that scored best on validation.
pub const BEST: &str = "best";

/// Scores the validation part: the weights' average if kept (it is what gets shipped, so it is
/// what the curve follows), the raw weights beside it. Returns the shipped side's accuracy and
/// the log.csv eval columns.
fn quick_eval(run: &Run, data: &TrainData, inputs: usize, device: &Device) -> (f64, String) {
    let (acc, cov, cov_name) = data.quick_eval(run.learner.ema.as_ref().unwrap_or(&run.learner.model), inputs, device);
    let raw = run.learner.ema.as_ref().map(|_| data.quick_eval(&run.learner.model, inputs, device));
    show_event(&format!(
        "eval @ step {}: accuracy {acc:.2}%  {cov_name} {cov:.2}%  ({inputs} validation inputs, 5 samples){}",
        run.state.step,
        raw.map(|(a, c, _)| format!("; raw weights {a:.2}% / {c:.2}%")).unwrap_or_default()
    ));
    let raw_cols = raw.map(|(a, c, _)| format!(",{a:.3},{c:.3}")).unwrap_or_default();
    (acc, format!("{acc:.3},{cov:.3}{raw_cols}"))
}

/// Writes the checkpoint of the run as it is now, unless a weight is not finite.
fn save(run: &Run, batch: &InFlight, run_dir: &Path, lr: f64) -> Result<(), String> {
    if !all_finite(&run.learner.model) || !run.learner.ema.as_ref().is_none_or(all_finite) || !batch.is_finite() {
        return Err(diverged(run.state.step, "a weight or the carried state is not finite", run_dir, lr));
    }
    let (latent, latent_shape) = batch.latent_bytes();
    let state = RunState {
        schedule: Some(run.schedule),
        batch: Some(BatchState { slots: batch.slots.clone(), latent_shape }),
        ..run.state.clone()
    };
    let snapshot =
        Snapshot { model: &run.learner.model, ema: run.learner.ema.as_ref(), optim: &run.learner.optim, state: &state, latent: &latent };
    save_checkpoint(run_dir, &snapshot).map_err(|e| format!("checkpoint: {e}"))
}
