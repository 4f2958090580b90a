//! `train`'s command line for every family's presets: GRAM/TRM (`gram/train.rs`), the JEPA-Reasoner
//! phases (`reasoner/train.rs`), the grammar study (`grammar/train.rs`) and the JEPA-LMs
//! (`lm/train.rs`). The flags one family takes stand under its heading in `train --help`; a flag
//! given to another family's preset is refused (exit 2) by that heading, naming the flag and
//! the family (`misapplied`).

use std::path::PathBuf;
use std::process::ExitCode;

use burn::tensor::Device;
use clap::Args;

use engine::tasks::TaskId;

use crate::gram::data::{SUDOKU_MIN_TARGET, SUDOKU_TRAIN_GIVENS};
use crate::gram::{full_presets, presets, train};
use crate::run::course::RunFlags;
use crate::{grammar, lm, reasoner};

#[derive(Args)]
pub struct TrainCli {
    #[arg(long)]
    pub preset: String,
    /// Train one of the GRAM paper's Table 10 ablations of the preset: no-guide, no-stochasticity,
    /// direct-prediction (of a GRAM preset) or random-init (of a TRM preset). Default run
    /// directory: runs/<preset>-<variant>.
    #[arg(long, help_heading = GRAM)]
    pub variant: Option<String>,
    /// Optimiser steps of the whole run (default: the preset's; on --resume, the run's own).
    #[arg(long)]
    pub steps: Option<usize>,
    /// Seed of initialisation, data order and noise (default 0; a resumed run keeps its own).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run directory for checkpoints and log.csv (default: runs/<preset>).
    #[arg(long)]
    pub run_dir: Option<PathBuf>,
    /// Continue from the run directory's latest checkpoint, exactly where it stopped (its
    /// settings too; --steps, --lr, --beta, --ema given here change them from now on).
    #[arg(long)]
    pub resume: bool,
    /// Stop this invocation after this many steps, with a checkpoint (continue with --resume).
    #[arg(long)]
    pub stop_after: Option<usize>,
    /// Override the preset's KL weight beta (recorded in the checkpoint's config).
    #[arg(long, help_heading = GRAM)]
    pub beta: Option<f64>,
    /// GRAM presets: free bits, nats of KL per position (summed over the T transitions) that cost
    /// nothing, so beta cannot squeeze the posterior below them (0 = the plain ELBO). Recorded
    /// in the checkpoint's config; a resumed run may change it.
    #[arg(long, help_heading = GRAM)]
    pub free_bits: Option<f64>,
    /// GRAM presets: the share (0-1) of each supervision step's rows that draw eps from the
    /// prior instead of the posterior, their cross-entropy taken on the prior's draw as at
    /// inference (not in the GRAM paper; 0 = the plain ELBO). Recorded in the checkpoint's
    /// config; a resumed run may change it.
    #[arg(long, help_heading = GRAM)]
    pub prior_rows: Option<f64>,
    /// Override the preset's peak learning rate.
    #[arg(long, help_heading = GRAM)]
    pub lr: Option<f64>,
    /// JEPA-LM presets: the JEPA term's weight (LLM-JEPA's lambda; for T-decoder-JEPA, the LM
    /// loss's weight in L_JEPA + lambda * L_LM). Recorded in the checkpoint's config.
    #[arg(long, help_heading = LM)]
    pub jepa_lambda: Option<f64>,
    /// LLM-JEPA presets: the number k of [PRED] tokens (0-4).
    #[arg(long, help_heading = LM)]
    pub pred_tokens: Option<usize>,
    /// Keep an exponential moving average of the weights with this decay (the GRAM paper: 0.9999);
    /// quick evals and `export` then use the average. Default 0 = none (on --resume, the run's own).
    #[arg(long, help_heading = GRAM)]
    pub ema: Option<f64>,
    /// Start from these weights (`.bpk` + manifest) with a fresh optimiser instead of a fresh
    /// initialisation; the config must be the preset's.
    #[arg(long, help_heading = INIT)]
    pub init_from: Option<PathBuf>,
    /// Sudoku only: generate the training pool with target givens drawn from LO-HI (e.g.
    /// `17-31`: hard, expert and, for targets the generator cannot reach, minimal puzzles);
    /// default 22-40. Recorded in the checkpoint; a resumed run keeps it.
    #[arg(long, value_parser = parse_givens, help_heading = GRAM_DATA)]
    pub givens: Option<(usize, usize)>,
    /// Sudoku only: make each pool puzzle the hardest of K generated for the same target givens,
    /// rated by the exact solver's search effort (guesses); 1 (default) is the plain generator.
    /// Recorded in the checkpoint; a resumed run keeps it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64), help_heading = GRAM_DATA)]
    pub hardest_of: Option<u64>,
    /// GRAM/TRM presets of a task that makes them (graph colouring): train on random
    /// answer-preserving copies of the pairs (colouring: the vertices relabelled, the answer
    /// with them), drawn afresh each time, instead of the fixed train part. Recorded in the
    /// checkpoint; a resumed run keeps it.
    #[arg(long, help_heading = GRAM)]
    pub augment: bool,
    /// GRAM/TRM presets, fresh runs: the model width D (a multiple of the preset's heads).
    #[arg(long, help_heading = GRAM)]
    pub d_model: Option<usize>,
    /// GRAM/TRM presets: the core's MLP hidden units. A fresh run is sized with it; beside
    /// `--init-from` the weights' MLPs are widened to it (at least what they have), keeping
    /// their function exactly: the new units start from a fresh initialisation with a zero
    /// output row (Net2Net's widening).
    #[arg(long, help_heading = GRAM)]
    pub d_hidden: Option<usize>,
    /// The same for the mixer core's token-mixing MLP (Sudoku presets).
    #[arg(long, help_heading = GRAM)]
    pub d_token_hidden: Option<usize>,
    /// GRAM/TRM presets, fresh runs: low-level steps K per transition.
    #[arg(long, help_heading = GRAM)]
    pub k_inner: Option<usize>,
    /// GRAM/TRM presets, fresh runs: high-level steps T per supervision step.
    #[arg(long, help_heading = GRAM)]
    pub t_outer: Option<usize>,
    /// GRAM/TRM presets, fresh runs: deep-supervision steps N_sup.
    #[arg(long, help_heading = GRAM)]
    pub n_sup: Option<usize>,
    /// GRAM/TRM presets, fresh runs: trajectories per optimiser step (the full-size presets:
    /// 768, the paper's).
    #[arg(long, help_heading = GRAM)]
    pub batch: Option<usize>,
    /// GRAM/TRM presets, fresh runs: split each optimiser step's batch into this many
    /// micro-batches and sum their gradients (a smaller GPU reaching batch 768). Must divide
    /// the batch.
    #[arg(long, help_heading = GRAM)]
    pub grad_accum: Option<usize>,
    /// GRAM/TRM presets: spread each optimiser step over this many devices of the backend (data
    /// parallel, `gram/data_parallel.rs`): the batch is cut into devices x grad-accum micro-batches,
    /// their gradients summed on the first device. Not recorded: a run may resume on another
    /// number of devices.
    #[arg(long, default_value_t = 1, help_heading = GRAM)]
    pub devices: usize,
    /// Sudoku presets: train on an import directory (`data import --format sudoku-csv`), its
    /// train part as written, quick evals on its validation part; ARC presets (gram-arc-tiny):
    /// an `arc` import, which they need. Recorded in the checkpoint; a resumed run keeps it.
    #[arg(long, conflicts_with_all = ["givens", "hardest_of"], help_heading = GRAM_DATA)]
    pub data: Option<PathBuf>,
    /// JEPA phases after the first: the previous phase's run directory (default:
    /// runs/<previous preset>).
    #[arg(long, help_heading = REASONER)]
    pub from: Option<PathBuf>,
    /// Steps between quick evaluations on the validation part of the split (0 = never).
    #[arg(long, default_value_t = 500)]
    pub eval_every: usize,
    /// Validation inputs in each quick evaluation.
    #[arg(long, default_value_t = 128)]
    pub eval_inputs: usize,
    #[arg(long, default_value_t = 250)]
    pub checkpoint_every: usize,
    #[arg(long, default_value_t = 10)]
    pub log_every: usize,
    #[command(flatten, next_help_heading = GRAMMAR)]
    pub grammar: grammar::recipe::GrammarFlags,
}

/// The headings of `train --help`: the flags under each apply to those families' presets only.
const GRAM: &str = "GRAM/TRM presets";
const GRAM_DATA: &str = "GRAM/TRM presets: the training data (Sudoku, ARC)";
const INIT: &str = "GRAM/TRM and grammar presets";
const LM: &str = "JEPA-LM presets";
const REASONER: &str = "JEPA-Reasoner phases";
const GRAMMAR: &str = "Grammar presets";

/// The families whose presets `train` takes (`train --preset`), each with its preset.
pub enum Preset {
    GramTrm(presets::Preset),
    Reasoner(reasoner::presets::ReasonerPreset),
    Grammar(grammar::presets::GrammarPreset),
    Lm(lm::presets::LmPreset),
}

impl Preset {
    pub fn named(name: &str) -> Result<Preset, String> {
        if let Some(p) = reasoner::presets::reasoner_preset(name) {
            return Ok(Preset::Reasoner(p));
        }
        if let Some(p) = grammar::presets::grammar_preset(name) {
            return Ok(Preset::Grammar(p));
        }
        if let Some(p) = lm::presets::lm_preset(name) {
            return Ok(Preset::Lm(p));
        }
        presets::preset(name).map(|p| Preset::GramTrm(p.clone())).ok_or_else(|| unknown_preset(name))
    }

    /// The family's name, as the headings say it.
    pub fn family(&self) -> &'static str {
        match self {
            Preset::GramTrm(_) => "GRAM/TRM",
            Preset::Reasoner(_) => "JEPA-Reasoner",
            Preset::Grammar(_) => "grammar",
            Preset::Lm(_) => "JEPA-LM",
        }
    }

    /// Whether the flags under `heading` apply to this family (no heading: every family).
    fn takes(&self, heading: Option<&str>) -> bool {
        match (self, heading) {
            (_, None) => true,
            (Preset::GramTrm(_), Some(h)) => [GRAM, GRAM_DATA, INIT].contains(&h),
            (Preset::Grammar(_), Some(h)) => [GRAMMAR, INIT].contains(&h),
            (Preset::Lm(_), Some(h)) => h == LM,
            (Preset::Reasoner(_), Some(h)) => h == REASONER,
        }
    }
}

/// The ids of the flags given on the command line (not left to their defaults), from
/// `train`'s matches.
pub fn given_flags(matches: &clap::ArgMatches) -> Vec<String> {
    let given = |id: &&clap::Id| matches.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine);
    matches.ids().filter(given).map(|id| id.to_string()).collect()
}

/// The first of `given` (flag ids) whose heading is not `preset`'s family: its error, naming
/// the flag and the family. Derived from the headings of `train --help`.
fn misapplied(preset: &Preset, name: &str, given: &[String]) -> Result<(), String> {
    let command = TrainCli::augment_args(clap::Command::new("train"));
    for arg in command.get_arguments().filter(|arg| given.iter().any(|g| g == arg.get_id().as_str())) {
        let heading = arg.get_help_heading();
        if !preset.takes(heading) {
            let flag = arg.get_long().map_or_else(|| arg.get_id().to_string(), |l| format!("--{l}"));
            return Err(format!("{flag} is for {}; {name} is a {} preset", heading.unwrap_or_default(), preset.family()));
        }
    }
    Ok(())
}

/// The flags whose values no family takes.
fn check_values(a: &TrainCli) -> Result<(), String> {
    if a.devices == 0 || a.stop_after == Some(0) {
        return Err("--devices and --stop-after must be at least 1".into());
    }
    Ok(())
}

/// An ARC preset sized to the import in `dir` (`full_presets::fit_to_arc_import`).
fn fit_to_import(p: presets::Preset, dir: &std::path::Path) -> Result<presets::Preset, String> {
    let tasks = crate::gram::imports::read_arc(dir)?;
    let largest = tasks.iter().map(|t| t.puzzle_id).max().unwrap_or(0);
    let pairs = engine::studies::arc::dataset::examples(&tasks, engine::tasks::split::Part::Train).len();
    Ok(full_presets::fit_to_arc_import(p, largest, pairs))
}

/// The refusal of a preset no family knows, listing every preset.
fn unknown_preset(name: &str) -> String {
    format!(
        "unknown preset {name:?}; presets: {}, {}, {}, {}, {}",
        presets::names().join(", "),
        full_presets::full_names().join(", "),
        reasoner::presets::REASONER_NAMES.join(", "),
        grammar::presets::GRAMMAR_NAMES.join(", "),
        lm::presets::LM_NAMES.join(", ")
    )
}

/// The GRAM/TRM size flags given.
fn size_overrides(a: &TrainCli) -> full_presets::SizeOverrides {
    full_presets::SizeOverrides {
        d_model: a.d_model,
        d_hidden: a.d_hidden,
        d_token_hidden: a.d_token_hidden,
        k_inner: a.k_inner,
        t_outer: a.t_outer,
        n_sup: a.n_sup,
        batch: a.batch,
        grad_accum: a.grad_accum,
    }
}

/// `train`: the flags `given` on the command line (`given_flags`) are checked against the
/// preset's family first, then the family trains.
pub fn train(a: TrainCli, given: &[String], command: String, devices: Vec<Device>) -> Result<ExitCode, String> {
    let preset = Preset::named(&a.preset)?;
    misapplied(&preset, &a.preset, given)?;
    check_values(&a)?;
    match preset {
        Preset::Reasoner(p) => train_reasoner(a, p, command, devices[0].clone()),
        Preset::Grammar(p) => train_grammar(a, p, command, devices[0].clone()),
        Preset::Lm(p) => train_lm(a, p, command, devices[0].clone()),
        Preset::GramTrm(p) => train_gram(a, p, command, devices),
    }
}

fn train_gram(a: TrainCli, p: presets::Preset, command: String, devices: Vec<Device>) -> Result<ExitCode, String> {
    if let Some(ema) = a.ema.filter(|e| !(0.0..1.0).contains(e)) {
        return Err(format!("--ema must be in [0, 1), not {ema}"));
    }
    let (p, dir_name) = match &a.variant {
        None => {
            let name = p.name.to_string();
            (p, name)
        }
        Some(v) => {
            let name = format!("{}-{v}", p.name);
            (p.with_variant(v)?, name)
        }
    };
    let sizes = size_overrides(&a);
    if a.resume && sizes.any() {
        return Err("a resumed run keeps its size: no --d-model, --d-hidden, --d-token-hidden, --k-inner, --t-outer, --n-sup, --batch or --grad-accum with --resume".into());
    }
    if a.init_from.is_some() && sizes.changes_model() {
        return Err("--init-from weights fix the model: no --d-model, --k-inner, --t-outer or --n-sup beside them".into());
    }
    let p = sizes.apply(p)?;
    if (a.givens.is_some() || a.hardest_of.is_some()) && p.task != Some(TaskId::Sudoku) {
        return Err(format!("--givens and --hardest-of are for Sudoku presets; {} trains {:?}", p.name, p.task));
    }
    if a.data.is_some() && p.task.is_some_and(|t| t != TaskId::Sudoku) {
        return Err(format!("--data is for Sudoku and ARC presets; {} trains {:?} on its own data", p.name, p.task));
    }
    if a.data.is_none() && p.task.is_none() && !a.resume {
        return Err(format!("{} trains on an ARC import: give --data DIR (`native-trainer data import --format arc`)", p.name));
    }
    let p = match (&a.data, a.resume) {
        (Some(dir), false) if p.task.is_none() => fit_to_import(p, dir)?,
        _ => p,
    };
    let run_dir = a.run_dir.unwrap_or_else(|| PathBuf::from("runs").join(dir_name));
    let args = train::TrainArgs {
        preset: p,
        flags: train::Flags {
            steps: a.steps,
            seed: a.seed,
            lr: a.lr,
            beta: a.beta,
            free_bits: a.free_bits,
            prior_rows: a.prior_rows,
            ema: a.ema,
            givens: a.givens,
            hardest_of: a.hardest_of.map(|k| k as usize),
            data: a.data,
            augment: a.augment,
        },
        run_dir,
        resume: a.resume,
        init_from: a.init_from,
        eval_every: a.eval_every,
        eval_inputs: a.eval_inputs,
        checkpoint_every: a.checkpoint_every.max(1),
        log_every: a.log_every.max(1),
        stop_after: a.stop_after,
        command,
    };
    train::train(args, devices).map(|_| ExitCode::SUCCESS)
}

/// `LO-HI`, inclusive, from the fewest givens worth asking for to the default range's most.
fn parse_givens(text: &str) -> Result<(usize, usize), String> {
    let most = SUDOKU_TRAIN_GIVENS.1;
    let bad = || format!("--givens takes LO-HI with {SUDOKU_MIN_TARGET} <= LO <= HI <= {most}, e.g. 17-31; not {text:?}");
    let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
    let (lo, hi): (usize, usize) = (lo.trim().parse().map_err(|_| bad())?, hi.trim().parse().map_err(|_| bad())?);
    if lo < SUDOKU_MIN_TARGET || lo > hi || hi > most {
        return Err(bad());
    }
    Ok((lo, hi))
}

fn train_reasoner(a: TrainCli, p: reasoner::presets::ReasonerPreset, command: String, device: Device) -> Result<ExitCode, String> {
    let run = run_flags(&a, p.name, command);
    let args = reasoner::train::ReasonerTrainArgs { preset: p, from_dir: a.from, run };
    reasoner::train::train_reasoner(args, device).map(|_| ExitCode::SUCCESS)
}

fn train_grammar(mut a: TrainCli, p: grammar::presets::GrammarPreset, command: String, device: Device) -> Result<ExitCode, String> {
    let init_from = a.init_from.take();
    let run = run_flags(&a, p.name, command);
    let args = grammar::train::GrammarTrainArgs { run, preset: p, init_from, flags: a.grammar };
    grammar::train::train_grammar(args, device).map(|_| ExitCode::SUCCESS)
}

fn train_lm(a: TrainCli, p: lm::presets::LmPreset, command: String, device: Device) -> Result<ExitCode, String> {
    if a.resume && (a.jepa_lambda.is_some() || a.pred_tokens.is_some()) {
        return Err("a resumed run keeps its objective: no --jepa-lambda or --pred-tokens with --resume".into());
    }
    let p = p.with_objective(a.jepa_lambda, a.pred_tokens)?;
    let args = lm::train::LmTrainArgs { run: run_flags(&a, p.name, command), preset: p };
    lm::train::train_lm(args, device).map(|_| ExitCode::SUCCESS)
}

/// The flags the JEPA and grammar loops share; the run directory defaults to runs/<preset>.
fn run_flags(a: &TrainCli, preset: &str, command: String) -> RunFlags {
    RunFlags {
        steps: a.steps,
        seed: a.seed,
        run_dir: a.run_dir.clone().unwrap_or_else(|| PathBuf::from("runs").join(preset)),
        resume: a.resume,
        eval_every: a.eval_every,
        eval_inputs: a.eval_inputs,
        checkpoint_every: a.checkpoint_every.max(1),
        log_every: a.log_every.max(1),
        stop_after: a.stop_after,
        command,
    }
}
