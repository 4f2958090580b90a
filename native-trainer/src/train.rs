//! The training loop, flat and visible (DESIGN.md, style 5): TRM-style deep supervision with a
//! carried latent state. A batch holds B slots; each optimiser step runs one supervision step on
//! every slot, and a slot whose trajectory halted (Q-head says its answer is right) or used its
//! N_sup steps is refilled with a fresh (puzzle, solution) pair starting from z0.
//!
//! Checkpoints are written atomically (`ckpt-<step>/` fully written, then the `latest` pointer is
//! replaced by rename) every `--checkpoint-every` steps, at the end and on Ctrl-C; `--resume`
//! continues from `latest` with the optimiser state (the in-flight slots restart from z0).

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use burn::module::Module;
use burn::optim::grad_clipping::GradientClippingConfig;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::{Bytes, Device, Int, Tensor, TensorData};
use engine::gram::loss::supervision_step;
use engine::gram::noise::NoiseSource;
use engine::gram::{Gram, GramConfig, Latent, SupervisionBatch};
use engine::nn::ema_update;
use engine::weights::{gram_from_bytes, gram_to_bytes};
use serde::{Deserialize, Serialize};

use crate::data::{Pair, TrainData};
use crate::presets::Preset;

pub struct TrainArgs {
    pub preset: Preset,
    pub steps: usize,
    pub seed: u64,
    pub run_dir: PathBuf,
    pub resume: bool,
    pub eval_every: usize,
    pub eval_inputs: usize,
    pub checkpoint_every: usize,
    pub log_every: usize,
    pub command: String,
    /// Decay of the weights' EMA (seed 003, appendix D.2; 0 = no average). With an average, the
    /// quick evals, `export` and therefore the shipped file use the averaged weights.
    pub ema_decay: f64,
    /// Start from these weights (a `.bpk` with its manifest) with a fresh optimiser, instead of
    /// a fresh initialisation. The config must match the preset's (beta may differ).
    pub init_from: Option<PathBuf>,
}

/// Written beside each checkpoint's tensors.
#[derive(Serialize, Deserialize, Debug)]
pub struct RunState {
    pub preset: String,
    pub step: usize,
    pub total_steps: usize,
    pub seed: u64,
    pub seconds: f64,
    pub command: String,
    pub config: engine::gram::GramConfig,
    /// A run started `--init-from` shipped weights: how those were trained, so the export's
    /// manifest names the whole recipe, steps and time.
    #[serde(default)]
    pub parent: Option<Parent>,
}

/// The training behind the weights a run started from (their manifest's record).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Parent {
    pub command: String,
    pub steps: usize,
    pub seconds: f64,
    pub sha256: String,
}

fn lr_at(p: &Preset, step: usize, total: usize) -> f64 {
    warmup_cosine_lr(p.lr, p.warmup, step, total)
}

/// Linear warm-up over `warmup` steps, then cosine from `lr` to `lr / 10` over the rest of the run.
pub fn warmup_cosine_lr(lr: f64, warmup: usize, step: usize, total: usize) -> f64 {
    if step < warmup {
        return lr * (step + 1) as f64 / warmup as f64;
    }
    let t = (step - warmup) as f64 / (total.saturating_sub(warmup)).max(1) as f64;
    lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * t.min(1.0)).cos()))
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes)?;
    fs::rename(tmp, path)
}

/// Saves model, optimiser, the weights' average (if kept) and state as `ckpt-<step>/`, then
/// points `latest` at it.
fn save_checkpoint(
    dir: &Path,
    model: &Gram,
    ema: Option<&Gram>,
    optim: &ModuleOptimizer,
    state: &RunState,
) -> std::io::Result<()> {
    let optim_bytes = optim.into_bytes().map_err(|e| std::io::Error::other(e.to_string()))?;
    let (model, state_json) = (gram_to_bytes(model), serde_json::to_string_pretty(state)?);
    let mut files = vec![("model.bpk", &model[..]), ("optim.bpk", &optim_bytes[..]), ("state.json", state_json.as_bytes())];
    let ema = ema.map(gram_to_bytes);
    if let Some(ema) = &ema {
        files.push(("ema.bpk", &ema[..]));
    }
    write_checkpoint(dir, state.step, &files)
}

/// Writes `ckpt-<step>/` with the given files (model.bpk, optim.bpk, state.json, ...), then
/// points `latest` at it by an atomic rename, then removes all but the newest two checkpoints: an
/// interruption at any moment leaves a complete checkpoint that `latest` names.
pub fn write_checkpoint(dir: &Path, step: usize, files: &[(&str, &[u8])]) -> std::io::Result<()> {
    let ckpt = dir.join(format!("ckpt-{step:07}"));
    fs::create_dir_all(&ckpt)?;
    for (name, bytes) in files {
        fs::write(ckpt.join(name), bytes)?;
    }
    let previous = fs::read_to_string(dir.join("latest")).ok();
    write_atomic(&dir.join("latest"), ckpt.file_name().unwrap().to_string_lossy().as_bytes())?;
    if let Some(prev) = previous {
        let current = format!("ckpt-{step:07}");
        let old: Vec<_> = fs::read_dir(dir)?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().to_string())
            .filter(|n| n.starts_with("ckpt-") && *n != prev.trim() && *n != current)
            .collect();
        for o in old {
            let _ = fs::remove_dir_all(dir.join(o));
        }
    }
    Ok(())
}

/// The directory `latest` points at.
fn latest_checkpoint(dir: &Path) -> Result<PathBuf, String> {
    let name = fs::read_to_string(dir.join("latest"))
        .map_err(|e| format!("no checkpoint to resume in {}: {e}", dir.display()))?;
    Ok(dir.join(name.trim()))
}

/// The weights' average of the newest checkpoint, if the run keeps one.
pub fn load_ema(dir: &Path, config: &GramConfig, device: &Device) -> Result<Option<Gram>, String> {
    let path = latest_checkpoint(dir)?.join("ema.bpk");
    if !path.exists() {
        return Ok(None);
    }
    let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    gram_from_bytes(config, &bytes, device).map(Some).map_err(|e| format!("{}: {e}", path.display()))
}

/// The newest checkpoint of a run: (model, optimiser, state).
pub fn load_checkpoint(dir: &Path, device: &Device) -> Result<(Gram, ModuleOptimizer, RunState), String> {
    let ckpt = latest_checkpoint(dir)?;
    let state: RunState = serde_json::from_str(
        &fs::read_to_string(ckpt.join("state.json")).map_err(|e| format!("{}: {e}", ckpt.display()))?,
    )
    .map_err(|e| format!("{}/state.json: {e}", ckpt.display()))?;
    let bytes = fs::read(ckpt.join("model.bpk")).map_err(|e| format!("{}: {e}", ckpt.display()))?;
    let model = gram_from_bytes(&state.config, &bytes, device).map_err(|e| e.to_string())?;
    let optim_bytes = fs::read(ckpt.join("optim.bpk")).map_err(|e| format!("{}: {e}", ckpt.display()))?;
    Ok((model, optimizer_from(optim_bytes)?, state))
}

fn new_optimizer(p: &Preset) -> ModuleOptimizer {
    // Deviation: burn clips each parameter tensor's gradient to norm 1 (the paper clips the global
    // norm at 1.0); with ~30 tensors the two differ only for outlier steps.
    AdamWConfig::new()
        .with_weight_decay(p.weight_decay)
        .with_grad_clipping(Some(GradientClippingConfig::Norm(1.0)))
        .init()
}

fn optimizer_from(bytes: Vec<u8>) -> Result<ModuleOptimizer, String> {
    AdamWConfig::new()
        .with_grad_clipping(Some(GradientClippingConfig::Norm(1.0)))
        .init()
        .from_bytes(Bytes::from_bytes_vec(bytes))
        .map_err(|e| format!("optimizer state: {e}"))
}

/// One slot of the batch: the training pair it holds and how many supervision steps it ran.
struct Slot {
    pair: Pair,
    steps: usize,
}

fn fresh_slot(data: &TrainData, rng: &mut NoiseSource) -> Slot {
    Slot { pair: data.draw(rng), steps: 0 }
}

fn int_batch(rows: impl Iterator<Item = Vec<u32>>, b: usize, l: usize, device: &Device) -> Tensor<2, Int> {
    let flat: Vec<i64> = rows.flat_map(|r| r.into_iter().map(|t| t as i64)).collect();
    Tensor::from_data(TensorData::new(flat, [b, l]), device)
}

/// Replaces the state rows of refilled slots by z0. `reset[i]` = 1.0 for a refilled slot.
fn reset_rows(z: Latent, z0: &Latent, reset: &[f32], device: &Device) -> Latent {
    let b = reset.len();
    let m = Tensor::<3>::from_data(TensorData::new(reset.to_vec(), [b, 1, 1]), device); // [B, 1, 1]
    let keep = m.clone().neg() + 1.0;
    Latent {
        h: z.h * keep.clone() + z0.h.clone() * m.clone(),
        l: z.l * keep + z0.l.clone() * m,
    }
}

pub fn train(args: TrainArgs, device: Device) -> Result<(), String> {
    let p = &args.preset;
    let ad = device.clone().autodiff();
    fs::create_dir_all(&args.run_dir).map_err(|e| format!("{}: {e}", args.run_dir.display()))?;

    let mut parent: Option<Parent> = None;
    let mut command = args.command.clone();
    let (mut model, mut optim, start, mut seconds) = if args.resume {
        let (m, o, s) = load_checkpoint(&args.run_dir, &ad)?;
        if s.preset != p.name {
            return Err(format!("{} holds a {} run, not {}", args.run_dir.display(), s.preset, p.name));
        }
        parent = s.parent.clone();
        // The recipe is the first command plus every resumption (which may change flags).
        command = format!("{} ; resumed at step {}: {}", s.command, s.step, args.command);
        eprintln!("resuming {} from step {} ({:.0} s trained)", p.name, s.step, s.seconds);
        (m.train(), o, s.step, s.seconds)
    } else if let Some(w) = &args.init_from {
        // load_weights reads a run directory's weights off the autodiff device: they could not
        // be trained, and a run directory has no manifest to name their recipe.
        if w.is_dir() {
            return Err(format!(
                "--init-from takes a .bpk with its manifest, not the run directory {}: export it first, or continue it with --resume",
                w.display()
            ));
        }
        let (m, cfg, manifest) = crate::commands::load_weights(w, &ad)?;
        if (GramConfig { beta: p.config.beta, ..cfg }) != p.config {
            return Err(format!("{} does not have the {} preset's config", w.display(), p.name));
        }
        parent = manifest.map(|m| Parent {
            command: m.training_command,
            steps: m.train_steps,
            seconds: m.train_seconds,
            sha256: m.sha256,
        });
        eprintln!("starting {} from {} (fresh optimiser)", p.name, w.display());
        (m.train(), new_optimizer(p), 0, 0.0)
    } else {
        ad.seed(args.seed); // burn's lazy parameter initialisation draws from the device RNG
        (Gram::init(&p.config, &ad), new_optimizer(p), 0, 0.0)
    };
    // The weights' average lives off the autodiff graph; a resumed run continues its own.
    let mut ema: Option<Gram> = match args.ema_decay > 0.0 {
        false => None,
        true if args.resume => Some(load_ema(&args.run_dir, &p.config, &device)?.unwrap_or_else(|| model.valid())),
        true => Some(model.valid()),
    };
    let total = args.steps;
    let data_began = Instant::now();
    let data = TrainData::new(p.task, args.seed);
    eprintln!(
        "{}: {} params, {} (data ready in {:.1} s), {} steps x batch {}",
        p.name,
        model.num_params(),
        data.describe(),
        data_began.elapsed().as_secs_f64(),
        total,
        p.batch
    );

    let stop = ctrl_c_flag();

    // Resumed runs draw a different stream so they do not replay the first steps' data.
    let mut rng = NoiseSource::new(args.seed.wrapping_mul(31).wrapping_add(start as u64 + 1));
    let mut noise = NoiseSource::new(args.seed.wrapping_add(1_000_003 * (start as u64 + 1)));
    let (b, l) = (p.batch, p.config.seq_len);
    let mut slots: Vec<Slot> = (0..b).map(|_| fresh_slot(&data, &mut rng)).collect();
    let mut z = model.initial_state(b, l).detach();

    let header = "step,seconds,lr,loss,ce,kl,valid_frac,finished_valid_frac,eval_acc,eval_cov";
    let header = if ema.is_some() { format!("{header},raw_eval_acc,raw_eval_cov") } else { header.to_string() };
    let mut log = open_log(&args.run_dir, start == 0, &header)?;
    let tty = std::io::stderr().is_terminal();
    let began = Instant::now();
    let seconds_at_start = seconds;
    let (mut s_loss, mut s_ce, mut s_kl, mut s_valid, mut s_n) = (0.0, 0.0, 0.0, 0.0, 0usize);
    let (mut finished, mut finished_valid) = (0usize, 0usize);

    let state_at = |step: usize, seconds: f64| RunState {
        preset: p.name.to_string(),
        step,
        total_steps: total,
        seed: args.seed,
        seconds,
        command: command.clone(),
        config: p.config.clone(),
        parent: parent.clone(),
    };

    let mut step = start;
    while step < total {
        let x = int_batch(slots.iter().map(|s| s.pair.x.clone()), b, l, &ad);
        let y = int_batch(slots.iter().map(|s| s.pair.y.clone()), b, l, &ad);
        let reward = |row: usize, pred: &[u32]| data.reward(&slots[row].pair, pred);
        let out = supervision_step(&model, &p.config, SupervisionBatch { x, y, z }, &reward, &mut noise);
        let lr = lr_at(p, step, total);
        let loss_value: f32 = out.loss.clone().into_scalar();
        let grads = GradientsParams::from_grads(out.loss.backward(), &model);
        model = optim.step(lr, model, grads);
        ema = ema.map(|avg| ema_update(avg, &model, args.ema_decay));
        step += 1;

        // Halting: refill slots that halted or used their budget.
        let mut reset = vec![0.0f32; b];
        for (i, slot) in slots.iter_mut().enumerate() {
            slot.steps += 1;
            if slot.steps >= p.config.n_sup || out.halt_logits[i] > 0.0 {
                finished += 1;
                finished_valid += (out.rewards[i] > 0.5) as usize;
                *slot = fresh_slot(&data, &mut rng);
                reset[i] = 1.0;
            }
        }
        let z0 = model.initial_state(b, l).detach();
        z = reset_rows(out.z, &z0, &reset, &ad).detach();

        s_loss += loss_value as f64;
        s_ce += out.ce as f64;
        s_kl += out.kl as f64;
        s_valid += out.rewards.iter().sum::<f32>() as f64 / b as f64;
        s_n += 1;
        seconds = seconds_at_start + began.elapsed().as_secs_f64();

        let mut eval_cols = (String::new(), String::new());
        let mut raw_cols = String::new();
        if args.eval_every > 0 && (step % args.eval_every == 0 || step == total) {
            // With an average, it is what gets shipped, so it is what the curve follows; the raw
            // weights are scored beside it (the `raw_*` columns) to show what averaging buys.
            let (acc, cov, cov_name) = data.quick_eval(ema.as_ref().unwrap_or(&model), args.eval_inputs, &device);
            let raw = ema.as_ref().map(|_| data.quick_eval(&model, args.eval_inputs, &device));
            eprintln!(
                "{}eval @ step {step}: accuracy {acc:.2}%  {cov_name} {cov:.2}%  ({} validation inputs, 5 samples){}",
                if tty { "\n" } else { "" },
                args.eval_inputs,
                raw.map(|(a, c, _)| format!("; raw weights {a:.2}% / {c:.2}%")).unwrap_or_default()
            );
            eval_cols = (format!("{acc:.3}"), format!("{cov:.3}"));
            if let Some((a, c, _)) = raw {
                raw_cols = format!(",{a:.3},{c:.3}");
            }
        }
        if step % args.log_every == 0 || step == total || !eval_cols.0.is_empty() {
            let n = s_n.max(1) as f64;
            let fin = 100.0 * finished_valid as f64 / finished.max(1) as f64;
            let rate = (seconds - seconds_at_start) / (step - start) as f64;
            let eta = rate * (total - step) as f64;
            let bar_w = 24;
            let filled = bar_w * step / total;
            let bar: String = "#".repeat(filled) + &".".repeat(bar_w - filled);
            let line = format!(
                "[{bar}] {step}/{total} loss {:.4} ce {:.4} kl {:.4} valid {:.1}% finished-valid {fin:.1}% lr {lr:.1e} {:.2}s/step ETA {}",
                s_loss / n,
                s_ce / n,
                s_kl / n,
                100.0 * s_valid / n,
                rate,
                fmt_duration(eta)
            );
            if tty {
                eprint!("\r{line}\x1b[K");
            } else {
                eprintln!("{line}");
            }
            writeln!(
                log,
                "{step},{seconds:.1},{lr:.3e},{:.5},{:.5},{:.5},{:.4},{:.4},{},{}{raw_cols}",
                s_loss / n,
                s_ce / n,
                s_kl / n,
                s_valid / n,
                fin / 100.0,
                eval_cols.0,
                eval_cols.1
            )
            .ok();
            (s_loss, s_ce, s_kl, s_valid, s_n, finished, finished_valid) = (0.0, 0.0, 0.0, 0.0, 0, 0, 0);
        }
        let interrupted = stop.load(Ordering::SeqCst);
        if interrupted || step % args.checkpoint_every == 0 || step == total {
            save_checkpoint(&args.run_dir, &model, ema.as_ref(), &optim, &state_at(step, seconds))
                .map_err(|e| format!("checkpoint: {e}"))?;
        }
        if interrupted {
            eprintln!(
                "\ninterrupted at step {step}: checkpoint saved in {}; continue with --resume",
                args.run_dir.display()
            );
            std::process::exit(130);
        }
    }
    eprintln!("\ndone: {step} steps in {}", fmt_duration(seconds));
    Ok(())
}

/// Set when the user presses Ctrl-C: the training loops save a checkpoint and exit.
pub fn ctrl_c_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    stop
}

/// The run's learning curve, `log.csv`, appended to; a fresh run writes the `header` first.
pub fn open_log(run_dir: &Path, fresh: bool, header: &str) -> Result<fs::File, String> {
    let mut log = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(run_dir.join("log.csv"))
        .map_err(|e| format!("{}: {e}", run_dir.join("log.csv").display()))?;
    if fresh {
        writeln!(log, "{header}").map_err(|e| e.to_string())?;
    }
    Ok(log)
}

pub fn fmt_duration(s: f64) -> String {
    let s = s.max(0.0) as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

