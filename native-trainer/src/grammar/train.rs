//! The grammar study's training loop: the six phases of a preset (`grammar/presets.rs`) in one run
//! directory. Same conventions as the other loops: atomic checkpoints (at every phase boundary
//! too), `--resume` continues exactly (each step's sequences are a pure function of (seed,
//! global step)), `--stop-after`, Ctrl-C saves and exits, a non-finite loss or weight stops the
//! run unsaved, log.csv with the phase of each row, quick evaluations on validation completions.

use std::fs;
use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::{Device, Tensor, TensorData};
use engine::reasoner::coconut::{THOUGHTS, coconut_loss};
use engine::reasoner::latent_loop::{latent_loop, token_tensor};
use engine::reasoner::loss::{EMA_MOMENTUM, LossOut, SST_K, pretrain_loss, rollout_loss, sst_loss, talker_loss};
use engine::studies::grammar::batch::{CutBatch, denoising_batch, seen_cut_batch};
use engine::studies::grammar::complete::{complete, nearest_tokens, offset};
use engine::studies::grammar::data::{WINDOW, completions, corrupt, draw};
use engine::studies::grammar::models::{GrammarConfig, GrammarModel, GrammarModels};
use engine::studies::grammar::sweep::{STEPS, step_accuracy};
use engine::studies::grammar::{Grammar, Symbol};
use engine::tasks::split::Part;

use crate::grammar::phases::phase_steps;
use crate::grammar::presets::{
    GrammarParent, GrammarPhase, GrammarPreset, GrammarRunState, PHASES, canonical_name, load_grammar_checkpoint, save_grammar,
};
use crate::grammar::recipe::{GrammarFlags, GrammarRecipe};
use crate::run::checkpoint::{adamw, restore_optimizer};
use crate::run::course::{RunFlags, Stopper, all_finite, check_resumable, diverged, halt, step_rng, warmup_cosine_lr};
use crate::run::lineage::{self, program_relative};
use crate::run::log::{Clock, bar, fmt_duration, log_row, open_log, show_event, show_progress};
use engine::transfer::ReadBack;

/// The data stream of grammar runs.
const GRAMMAR_STREAM: u64 = 22;

pub struct GrammarTrainArgs {
    pub preset: GrammarPreset,
    /// `steps`: the total over all phases, split in the preset's proportions.
    pub run: RunFlags,
    /// Start from these grammar weights (`.bpk` with its manifest, or a run directory) instead
    /// of a fresh initialisation.
    pub init_from: Option<PathBuf>,
    /// Phases, their steps and the recipe's additions (`grammar/recipe.rs`).
    pub flags: GrammarFlags,
}

struct GrammarRun {
    models: GrammarModels,
    optim: ModuleOptimizer,
    state: GrammarRunState,
    grammar: Grammar,
}

/// The preset's phase steps scaled to `total` (each phase at least 1).
fn scaled(steps: [usize; 6], total: usize) -> [usize; 6] {
    let sum: usize = steps.iter().sum();
    steps.map(|s| (s * total / sum).max(1))
}

pub fn train_grammar(args: GrammarTrainArgs, device: Device) -> Result<(), String> {
    let (p, ad) = (&args.preset, device.clone().autodiff());
    fs::create_dir_all(&args.run.run_dir).map_err(|e| format!("{}: {e}", args.run.run_dir.display()))?;
    crate::run::family::record(&args.run.run_dir, engine::weights::identity::Family::Grammar)?;
    let mut run = if args.run.resume { resume(&args, &ad)? } else { start(&args, &ad)? };
    let total = run.state.total_steps();
    eprintln!(
        "{}: {} params (T {}, R {}, Dual-Talker {}), phases {:?} x batch {}",
        p.name,
        run.models.num_params(),
        run.models.t.num_params(),
        run.models.r.num_params(),
        run.models.dual.num_params(),
        run.state.steps,
        p.batch
    );
    if !run.state.recipe.is_paper() {
        eprintln!("beyond the paper's recipe: {:?}", run.state.recipe);
    }
    let mut log = open_log(&args.run.run_dir, run.state.global_step() == 0, "step,phase,seconds,lr,loss,value,acc,eval")?;
    let stopper = Stopper::new(run.state.global_step(), args.run.stop_after);
    let mut clock = Clock::new(run.state.seconds, run.state.step);
    let mut meter = [0f64; 4];
    while run.state.phase < PHASES.len() {
        let phase = PHASES[run.state.phase];
        let (out, lr) = grammar_step(&mut run, p, &ad, &device, &args.run.run_dir)?;
        meter = [meter[0] + out.0 as f64, meter[1] + out.1 as f64, meter[2] + out.2 as f64, meter[3] + 1.0];
        run.state.seconds = clock.seconds();
        let (step, steps) = (run.state.step, run.state.steps[run.state.phase]);
        let eval_due = args.run.eval_every > 0 && (step % args.run.eval_every == 0 || step == steps);
        let eval = eval_due.then(|| quick_eval(&run, phase, args.run.eval_inputs, &device));
        if step % args.run.log_every == 0 || step == steps || eval.is_some() {
            log_row(&mut log, &progress(&run.state, phase, std::mem::take(&mut meter), lr, &clock, eval.as_deref()));
        }
        if step == steps {
            next_phase(&mut run);
            clock = Clock::new(0.0, 0);
        }
        let g = run.state.global_step();
        let halted = stopper.check(g).filter(|_| g < total);
        if halted.is_some() || step % args.run.checkpoint_every == 0 || step == steps {
            save(&run, &args.run.run_dir, lr)?;
        }
        if let Some(h) = halted {
            halt(h, g, total, &args.run.run_dir);
            return Ok(());
        }
    }
    eprintln!("\ndone: {total} steps in {}", fmt_duration(run.state.total_seconds()));
    Ok(())
}

fn start(args: &GrammarTrainArgs, ad: &Device) -> Result<GrammarRun, String> {
    let p = &args.preset;
    let seed = args.run.seed.unwrap_or(0);
    ad.seed(seed);
    let optimizer = adamw(p.weight_decay);
    let mut steps = phase_steps(p.steps, &args.flags, args.init_from.is_some())?;
    if let Some(total) = args.run.steps {
        if !args.flags.phases.is_empty() || !args.flags.phase_steps.is_empty() {
            return Err("--steps scales the preset's phases; give --phase-steps instead".into());
        }
        steps = scaled(p.steps, total);
    }
    let depth = args.flags.reasoner_layers;
    if let Some(n) = depth
        && !(1..=p.config.coupled.n_layers).contains(&n)
    {
        return Err(format!("--reasoner-layers is 1 to {} (T's layers), not {n}", p.config.coupled.n_layers));
    }
    let (models, config, parent) = match &args.init_from {
        None => {
            let config = GrammarConfig { reasoner_layers: depth.unwrap_or(p.config.reasoner_layers), ..p.config.clone() };
            (engine::nn::fresh::fresh(seed, ad, |d| config.init(d)), config, None)
        }
        Some(w) => {
            // A run directory through its checkpoint reader, which keeps the models on the
            // autodiff device (`load_grammar_weights` hands a directory's models over for
            // inference only).
            let (models, config, parent) = if w.is_dir() {
                let (models, _, state) = load_grammar_checkpoint(w, ad)?;
                let parent = GrammarParent { command: program_relative(&state.lineage()), phases: state.lineage_phases(), sha256: None };
                (models, state.config, parent)
            } else {
                let (models, config, manifest) = crate::grammar::weights::load_grammar_weights(w, ad)?;
                let m = manifest.ok_or_else(|| format!("{} has no manifest", w.display()))?;
                (models, config, GrammarParent { command: m.training_command, phases: m.phases, sha256: Some(m.sha256) })
            };
            // T, C and the Talkers have the preset's shape; R may have another depth.
            if (GrammarConfig { reasoner_layers: p.config.reasoner_layers, ..config.clone() }) != p.config {
                return Err(format!("{} holds models of another shape than {}'s", w.display(), p.name));
            }
            match depth {
                None => (models, config, Some(parent)),
                Some(n) => {
                    // R branched anew is untrained until SST trains it.
                    if PHASES.iter().position(|&ph| ph == GrammarPhase::Sst).is_some_and(|i| steps[i] == 0) {
                        return Err("--reasoner-layers with --init-from branches R anew from T: --phases must train sst".into());
                    }
                    (models.rebranch_reasoner(n), GrammarConfig { reasoner_layers: n, ..config }, Some(parent))
                }
            }
        }
    };
    let state = GrammarRunState {
        preset: p.name.into(),
        config,
        seed,
        phase: steps.iter().position(|&s| s > 0).unwrap_or(PHASES.len()),
        step: 0,
        steps,
        done: Vec::new(),
        seconds: 0.0,
        command: args.run.command.clone(),
        optimizer: optimizer.clone(),
        recipe: GrammarRecipe::from_flags(&args.flags)?,
        parent,
    };
    Ok(GrammarRun { models, optim: optimizer.init(), state, grammar: p.config.variant.grammar() })
}

fn resume(args: &GrammarTrainArgs, ad: &Device) -> Result<GrammarRun, String> {
    let p = &args.preset;
    let (models, optim_bytes, mut state) = load_grammar_checkpoint(&args.run.run_dir, ad)?;
    check_resumable(&args.run.run_dir, (&canonical_name(&state.preset), state.seed), p.name, args.run.seed)?;
    if args.run.steps.is_some() || args.flags.any() || args.init_from.is_some() {
        return Err("a resumed grammar run keeps its phases, their steps, its recipe and its start".into());
    }
    let optim = restore_optimizer(&state.optimizer, optim_bytes)?;
    eprintln!("resuming {} in phase {} at step {}", p.name, PHASES.get(state.phase).map_or("done", |ph| ph.name()), state.step);
    state.command = lineage::resumed(&state.command, state.global_step(), &args.run.command);
    let grammar = state.config.variant.grammar();
    Ok(GrammarRun { models, optim, state, grammar })
}

/// Closes the phase: records it, branches C and R off T after pretraining, fresh optimiser.
fn next_phase(run: &mut GrammarRun) {
    let s = &mut run.state;
    let phase = PHASES[s.phase];
    s.done.push((phase.name().into(), s.step, s.seconds));
    if phase == GrammarPhase::Pretrain {
        run.models = run.models.clone().branch_after_pretraining(&s.config);
    }
    s.phase += 1;
    while s.phase < PHASES.len() && s.steps[s.phase] == 0 {
        s.phase += 1;
    }
    s.step = 0;
    s.seconds = 0.0;
    run.optim = s.optimizer.init();
    let next = PHASES.get(s.phase).map_or("done", |ph| ph.name());
    show_event(&format!("phase {} done; next: {next}", phase.name()));
}

/// One optimiser step of the phase in progress on fresh training-part sequences.
fn grammar_step(
    run: &mut GrammarRun,
    p: &GrammarPreset,
    ad: &Device,
    plain: &Device,
    run_dir: &Path,
) -> Result<((f32, f32, f32), f64), String> {
    let phase = PHASES[run.state.phase];
    let mut rng = step_rng(run.state.seed, run.state.global_step(), GRAMMAR_STREAM);
    let seqs: Vec<Vec<Symbol>> = (0..p.batch).map(|_| draw(&run.grammar, &mut rng, Part::Train)).collect();
    let (lo, hi) = p.config.variant.train_cuts();
    let cut = lo + rng.index(hi - lo + 1);
    let seen = seen_sequences(&seqs, run.grammar.terminals(), run.state.recipe.train_corrupt, &mut rng);
    let m = &run.models;
    let out: LossOut = match phase {
        GrammarPhase::Pretrain | GrammarPhase::TPost => pretrain_loss(&m.t, &denoising_batch(&seqs, &seen, ad)),
        GrammarPhase::Sst => {
            let tf = sst_loss(&m.r, &denoising_batch(&seqs, &seen, ad), SST_K);
            match run.state.recipe.sst_rollout {
                0 => tf,
                n => {
                    let cb = seen_cut_batch(&seqs, &seen, cut);
                    let roll = rollout_loss(&m.r, token_tensor(&cb.prefix, ad), cb.window_from(0, ad), n, SST_K);
                    LossOut { loss: tf.loss + roll.loss, ..tf }
                }
            }
        }
        GrammarPhase::Coconut => {
            let cb = seen_cut_batch(&seqs, &seen, cut);
            coconut_loss(&m.c, token_tensor(&cb.prefix, ad), cb.window_from(THOUGHTS, ad))
        }
        GrammarPhase::DualTalker | GrammarPhase::MonoTalker => {
            let cb = seen_cut_batch(&seqs, &seen, cut);
            let latents = frozen_latents(m, &cb, ad, plain);
            let talker = if phase == GrammarPhase::DualTalker { &m.dual } else { &m.mono };
            let mask = Tensor::<2>::ones([p.batch, WINDOW], ad);
            talker_loss(talker, latents, cb.talker_previous(ad), cb.window_from(0, ad), mask)
        }
    };
    let lr = warmup_cosine_lr(p.lr, p.warmup, run.state.step, run.state.steps[run.state.phase]);
    let loss: f32 = out.loss.clone().into_scalar();
    if !loss.is_finite() {
        return Err(diverged(run.state.global_step() + 1, &format!("the loss is {loss}"), run_dir, lr));
    }
    let grads = out.loss.backward();
    let m = &mut run.models;
    match phase {
        GrammarPhase::Pretrain | GrammarPhase::TPost => {
            let g = GradientsParams::from_grads(grads, &m.t);
            m.t = run.optim.step(lr, m.t.clone(), g);
        }
        GrammarPhase::Coconut => {
            let g = GradientsParams::from_grads(grads, &m.c);
            m.c = run.optim.step(lr, m.c.clone(), g);
        }
        GrammarPhase::Sst => {
            let g = GradientsParams::from_grads(grads, &m.r);
            m.r = run.optim.step(lr, m.r.clone(), g).ema_update(EMA_MOMENTUM);
        }
        GrammarPhase::DualTalker => {
            let g = GradientsParams::from_grads(grads, &m.dual);
            m.dual = run.optim.step(lr, m.dual.clone(), g);
        }
        GrammarPhase::MonoTalker => {
            let g = GradientsParams::from_grads(grads, &m.mono);
            m.mono = run.optim.step(lr, m.mono.clone(), g);
        }
    }
    run.state.step += 1;
    Ok(((loss, out.value, out.route_acc), lr))
}

/// What the models read of each training sequence: itself, or under `--train-corrupt X` a copy
/// with a share drawn from 0-X of its terminals corrupted (the evaluation's corruption).
fn seen_sequences(seqs: &[Vec<Symbol>], terminals: usize, most: f64, rng: &mut engine::gram::noise::NoiseSource) -> Vec<Vec<Symbol>> {
    if most <= 0.0 {
        return seqs.to_vec();
    }
    seqs.iter().map(|s| corrupt(s, terminals, most * rng.uniform(), rng).0).collect()
}

/// The frozen Reasoner's [`WINDOW`] free-running latents after each prefix, detached, on `ad`.
fn frozen_latents(m: &GrammarModels, cb: &CutBatch, ad: &Device, plain: &Device) -> Tensor<3> {
    let r = m.r.valid();
    let (_, lat) = latent_loop(&r, r.embed_tokens(token_tensor(&cb.prefix, plain)), WINDOW, 0.0, &mut []);
    let dims = lat.dims();
    let flat: Vec<f32> = lat.floats().unwrap();
    Tensor::from_data(TensorData::new(flat, dims), ad)
}

fn progress(s: &GrammarRunState, phase: GrammarPhase, m: [f64; 4], lr: f64, clock: &Clock, eval: Option<&str>) -> String {
    let n = m[3].max(1.0);
    let (loss, value, acc) = (m[0] / n, m[1] / n, m[2] / n);
    let steps = s.steps[s.phase.min(5)];
    let (rate, eta) = clock.rate_and_eta(s.step, steps);
    let value_name = if phase == GrammarPhase::Sst { "cos" } else { "ce" };
    show_progress(&format!(
        "{} {} loss {loss:.4} {value_name} {value:.4} acc {:.1}% lr {lr:.1e} {rate:.2}s/step phase ETA {eta}",
        phase.name(),
        bar(s.step, steps),
        100.0 * acc
    ));
    format!("{},{},{:.1},{lr:.3e},{loss:.5},{value:.5},{acc:.4},{}", s.global_step(), phase.name(), s.total_seconds(), eval.unwrap_or(""))
}

fn save(run: &GrammarRun, run_dir: &Path, lr: f64) -> Result<(), String> {
    if !all_finite(&run.models) {
        return Err(diverged(run.state.global_step(), "a weight is not finite", run_dir, lr));
    }
    save_grammar(run_dir, &run.models, &run.optim, &run.state).map_err(|e| format!("checkpoint: {e}"))
}

/// Token accuracy (%) on validation completions of the phase's model: T's first 4 tokens
/// (pretrain, t-post), C's 4 tokens after its thoughts, R's latents read by their nearest
/// vocabulary latent (SST), R with each Talker.
fn quick_eval(run: &GrammarRun, phase: GrammarPhase, n: usize, device: &Device) -> String {
    let set = completions(run.state.config.variant, Part::Validation, n);
    let prefixes: Vec<Vec<Symbol>> = set.iter().map(|c| c.prefix().to_vec()).collect();
    let m = run.models.valid();
    let model = match phase {
        GrammarPhase::Pretrain | GrammarPhase::TPost => GrammarModel::T,
        GrammarPhase::Coconut => GrammarModel::C,
        GrammarPhase::Sst | GrammarPhase::DualTalker => GrammarModel::R,
        GrammarPhase::MonoTalker => GrammarModel::RMono,
    };
    let written = if phase == GrammarPhase::Sst {
        nearest_tokens(&m, &prefixes, STEPS, device)
    } else {
        complete(&m, model, &prefixes, STEPS, 0.0, 0, device)
    };
    let skip = offset(model);
    let right: f64 = set.iter().zip(&written).map(|(c, w)| step_accuracy(w, &c.continuation()[skip..])[STEPS - 1]).sum();
    let acc = 100.0 * right / n.max(1) as f64;
    show_event(&format!(
        "eval @ {} step {}: {acc:.2}% of 4 tokens right ({n} validation completions, {})",
        phase.name(),
        run.state.step,
        model.name()
    ));
    format!("{acc:.3}")
}
