//! `eval`: a task's metrics on one part of its split (the test part unless told otherwise),
//! printed as the task's tables and a machine line, and optionally recorded in the manifest.

use std::fs;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::Selection;
use engine::gram::sample::Decoding;
use engine::gram::{Gram, SampleOptions};
use engine::solve::{Restarts, SelectedTally, VerifiedStats, evaluate_on_copies, evaluate_selected, evaluate_verified};
use engine::tasks::{InferenceDefaults, Part, Report, Task, TokenTask, spread};
use engine::weights::{EvalRecord, Manifest};

use super::eval_summary::{SummaryRow, summary_table};
use super::eval_tables::{compute_line, per_input, verified_table};
use super::sampling::{named_task, parse_select, settle_note, task_of, with_latent_noise, with_settle};
use crate::cli::EvalCli;
use crate::gram::weights::load_found;
use crate::run::log::fmt_duration;
use crate::weights_io::{Found, found};
use engine::tasks::registry::{TaskVisitor, visit};
use engine::weights::identity::Family;

/// What `eval` was asked.
pub struct EvalArgs<'a> {
    pub weights: &'a Path,
    /// What `weights` holds, its manifest read once ([`found`]).
    pub found: &'a Found,
    pub options: SampleOptions,
    pub settle: Option<f64>,
    /// `--verified-stop` and its restarts, or the paper's plain run.
    pub rounds: Option<Restarts>,
    /// `--copies samples` without `--verified-stop`: each sample on its own copy of the input.
    pub copies: bool,
    pub limit: Option<usize>,
    pub part: &'a str,
    pub record: bool,
    /// GRAM/TRM: PTRM's sigma; tree weights: a fraction of max |h|.
    pub latent_noise: f64,
    /// `--select`: also score the answers these pick (GRAM/TRM weights only).
    pub select: &'a [String],
    pub command: &'a str,
    pub csv: Option<&'a Path>,
    /// `--data`: a Sudoku or colouring test import scored instead of `part`.
    pub data: Option<&'a Path>,
    /// `--hardest-of K`: `part`'s rated Sudoku set scored instead of the part.
    pub hardest_of: Option<usize>,
}

/// `eval`: each `--weights` in turn with the same options, then a summary table when several.
pub fn eval_all(a: EvalCli, command_line: &str, device: &Device) -> Result<ExitCode, String> {
    let founds = a.weights.iter().map(|w| found(w)).collect::<Result<Vec<_>, _>>()?;
    let regex = founds.iter().filter(|f| f.family == Family::RegexLm).count();
    if regex > 0 {
        if regex < a.weights.len() {
            return Err("regex weights are evaluated together with regex weights only".into());
        }
        return crate::lm::commands::eval_many(&a.weights, &a.part, a.record, a.csv.as_deref(), command_line, device);
    }
    if a.weights.len() > 1 && (a.record || a.csv.is_some()) {
        return Err("--record and --csv take one --weights".into());
    }
    if (a.data.is_some() || a.hardest_of.is_some()) && a.record {
        return Err("--record stores a score on our test split in the manifest; an import's or a rated set's is yours to keep".into());
    }
    // eval measures the GRAM paper's sampler unless told otherwise, whatever the task's page uses.
    let (options, rounds) = a.sampling.plan(&InferenceDefaults::PAPER)?;
    let mut rows = Vec::new();
    for (w, found) in a.weights.iter().zip(&founds) {
        let args = EvalArgs {
            weights: w,
            found,
            options: options.clone(),
            settle: a.sampling.settle,
            rounds,
            copies: a.sampling.copies_without_stop(&InferenceDefaults::PAPER),
            limit: a.limit,
            part: &a.part,
            record: a.record,
            latent_noise: a.latent_noise,
            select: &a.select,
            command: command_line,
            csv: a.csv.as_deref(),
            data: a.data.as_deref(),
            hardest_of: a.hardest_of.map(|k| k as usize),
        };
        rows.push(eval(args, device)?);
    }
    if rows.len() > 1 {
        print!("{}", summary_table(&rows));
    }
    Ok(ExitCode::SUCCESS)
}

/// One `--weights`, dispatched by its family (regex weights are scored together, `eval_all`).
pub fn eval(args: EvalArgs, device: &Device) -> Result<SummaryRow, String> {
    let name = args.weights.file_stem().map_or_else(|| args.weights.display().to_string(), |s| s.to_string_lossy().into_owned());
    if !args.select.is_empty() && matches!(args.found.family, Family::Grammar | Family::JepaReasoner) {
        return Err("--select picks among a GRAM/TRM model's samples; these weights have none".into());
    }
    match args.found.family {
        Family::Grammar => {
            let a = &args;
            let asked = crate::grammar::commands::GrammarEvalArgs {
                path: a.weights,
                part: a.part,
                limit: a.limit,
                seed: a.options.seed,
                record: a.record,
                csv: a.csv,
                command: a.command,
            };
            crate::grammar::commands::eval(asked, device)?;
            Ok(SummaryRow::plain(name, "T, C, R", "greedy", "the tables above"))
        }
        Family::JepaReasoner => {
            if args.part != "test" {
                return Err("tree weights are scored on the test part only".into());
            }
            crate::reasoner::commands::eval(
                args.weights,
                args.limit,
                args.latent_noise,
                args.options.seed,
                args.record,
                args.command,
                device,
            )?;
            Ok(SummaryRow::plain(name, "JEPA-Reasoner", "-", "its TABLE line above"))
        }
        Family::Gram | Family::Trm | Family::RegexLm => eval_gram(name, args, device),
    }
}

/// GRAM/TRM weights on their task's part, a test import or a rated set.
fn eval_gram(name: String, args: EvalArgs, device: &Device) -> Result<SummaryRow, String> {
    let (model, config, manifest) = load_found(args.weights, args.found.manifest.as_deref(), device)?;
    let part = Part::parse(args.part).ok_or_else(|| format!("--part must be train, validation or test, not {:?}", args.part))?;
    let row = SummaryRow {
        weights: name,
        model: (if model.has_guidance() { "GRAM" } else { "TRM" }).into(),
        variant: config.ablation.map_or("-", |a| a.name()).into(),
        decoding: (if args.options.decoding == Decoding::Sample { "sample" } else { "greedy" }).into(),
        result: String::new(),
    };
    let task = task_of(&config, named_task(args.weights, manifest.as_ref()).as_deref())?;
    let result = visit(task, GramEval { model: &model, manifest, part, args, device })?;
    Ok(SummaryRow { result, ..row })
}

struct GramEval<'a> {
    model: &'a Gram,
    manifest: Option<Manifest>,
    part: Part,
    args: EvalArgs<'a>,
    device: &'a Device,
}

impl TaskVisitor for GramEval<'_> {
    /// The report's machine line.
    type Output = Result<String, String>;

    fn gram<T: TokenTask>(self, task: &T) -> Self::Output {
        let options = with_settle(self.args.options.clone(), self.args.settle, task)?;
        let options = with_latent_noise(options, self.args.latent_noise)?;
        let selects =
            self.args.select.iter().map(|s| parse_select(s, false).map(|s| s.expect("no auto"))).collect::<Result<Vec<_>, _>>()?;
        // What is scored: a test import (`--data`), a rated set (`--hardest-of`), or the part.
        let all = match (self.args.data, self.args.hardest_of) {
            (Some(dir), _) => {
                let Some(import) = task.test_import() else {
                    let nouns = engine::tasks::test_import::nouns().join(" or ");
                    return Err(format!("--data scores {nouns} weights on a test import; these are {} weights", task.id()));
                };
                crate::gram::imports::read_test(dir, &import)?
            }
            (None, Some(k)) => task
                .rated_set(self.part, k)
                .ok_or_else(|| format!("--hardest-of scores Sudoku weights on a rated set; these are {} weights", task.id()))?,
            (None, None) => task.instances(self.part),
        };
        let part = match (self.args.data, self.args.hardest_of) {
            (Some(d), _) => format!("imported test {}", d.display()),
            (None, Some(k)) => format!("{}, rated: each the hardest of {k}", self.args.part),
            (None, None) => self.args.part.to_string(),
        };
        let instances = match self.args.limit {
            Some(k) => spread(&all, k),
            None => all,
        };
        refusals(&self.args, task, &options, &selects, &instances)?;
        let began = Instant::now();
        let (report, stats, picked) =
            score(task, self.model, &instances, &options, (self.args.rounds, self.args.copies), &selects, self.device, &began);
        print_header(task, self.model, &options, &part, report.inputs());
        if self.args.copies {
            println!(
                "Each sample on its own copy of the input (--copies samples; the first on the input as given): not the paper's sampler"
            );
        }
        print!("{}", report.to_text());
        for t in &picked {
            println!(
                "Selected by {} among the {} samples: {:.2}% right ({} of {})",
                t.select.name(),
                options.samples,
                t.accuracy(),
                t.right,
                t.inputs
            );
        }
        if let (Some(s), Some(rounds)) = (&stats, self.args.rounds) {
            print!("{}", verified_table(s, &options, self.model, rounds));
        }
        if self.args.data.is_none() && self.args.hardest_of.is_none() {
            supplementary(task, self.model, &options, (self.args.rounds, self.args.copies), self.device);
        }
        let mut line = report.table_line();
        for t in &picked {
            line += &format!(" selected({})={:.2}", t.select.name(), t.accuracy());
        }
        if let Some(s) = &stats {
            let o = &s.overall;
            line += &format!(
                " verified={:.2} trajectory_steps_per_input={:.2}",
                100.0 * per_input(o.verified, o),
                per_input(o.trajectory_steps, o)
            );
        }
        println!("{line} params={} time={:.1}s", self.model.num_params(), began.elapsed().as_secs_f64());
        if let Some(path) = self.args.csv {
            let csv = report.figures_csv().ok_or_else(|| format!("{} has no figures to write as CSV", task.id()))?;
            fs::write(path, csv).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            eprintln!("figures written to {}", path.display());
        }
        if self.args.record {
            let manifest = self.manifest.ok_or("--record needs a .bpk weights file with a manifest")?;
            record(task, manifest, &report, &options, self.args.part, self.args.command, self.args.weights)?;
        }
        Ok(line)
    }

    fn other<T: Task>(self, task: &T) -> Self::Output {
        Err(format!("{} weights are JEPA-Reasoner weights, not GRAM/TRM", task.id()))
    }
}

/// Refuses the flag sets `eval` cannot honour, before anything is scored.
fn refusals<T: TokenTask>(
    args: &EvalArgs,
    task: &T,
    options: &SampleOptions,
    selects: &[Selection],
    instances: &[T::Instance],
) -> Result<(), String> {
    if args.record && (args.rounds.is_some() || options.latent_noise > 0.0 || !selects.is_empty()) {
        return Err("--record stores the paper's sampler (every sample, the whole budget, the vote); drop --verified-stop, --latent-noise and --select".into());
    }
    if args.record && args.copies {
        return Err("--record stores the paper's sampler, each sample on the input as given; drop --copies samples".into());
    }
    if args.copies {
        let first = instances.first().ok_or("nothing to score")?;
        if task.restart_copy(&task.tokens(task.puzzle_of(first)), &mut engine::gram::noise::NoiseSource::new(0)).is_none() {
            return Err(crate::sampling_args::no_copies(&task.id()));
        }
    }
    if args.rounds.is_some() && !selects.is_empty() {
        return Err("--select scores the plain run's samples; with --verified-stop the answer is the verified sample".into());
    }
    Ok(())
}

/// The task's supplementary set (Sudoku's famous puzzles), scored the same way, on one line.
fn supplementary<T: TokenTask>(
    task: &T,
    model: &Gram,
    options: &SampleOptions,
    (rounds, copies): (Option<Restarts>, bool),
    device: &Device,
) {
    let Some((name, set)) = task.supplementary() else { return };
    let (extra, stats) = match rounds {
        Some(r) => {
            let (report, s) = evaluate_verified(task, model, &set, options, r, Selection::Vote, device, |_, _| {});
            (report, Some(s))
        }
        None if copies => (evaluate_on_copies(task, model, &set, options, &[], device, |_, _| {}).0, None),
        None => (evaluate_selected(task, model, &set, options, &[], task.eval_batch(), device, |_, _| {}).0, None),
    };
    let spent = stats.map(|s| format!("; {}", compute_line(&s.overall, options, model))).unwrap_or_default();
    println!("{name}: {}{spent}", extra.brief());
}

/// The report (and, with the verified stop, what it spent), with a running progress line on
/// stderr, and how often each of `selects` picks a right answer. With the verified stop the
/// answer is the verified sample (else the vote, as the plain run's), whatever `selects` says.
// The scoring loop's inputs, passed through from the eval command's flags.
#[allow(clippy::too_many_arguments)]
fn score<T: TokenTask>(
    task: &T,
    model: &Gram,
    instances: &[T::Instance],
    options: &SampleOptions,
    (rounds, copies): (Option<Restarts>, bool),
    selects: &[Selection],
    device: &Device,
    began: &Instant,
) -> (T::Report, Option<VerifiedStats>, Vec<SelectedTally>) {
    let total = instances.len();
    let noun = task.input_noun();
    let progress = |done: usize, r: &T::Report| {
        eprint!("\r{}/{total} {noun}  {}  {}\x1b[K", done.min(total), r.progress(), fmt_duration(began.elapsed().as_secs_f64()));
    };
    let out = match rounds {
        Some(r) => {
            let (report, stats) = evaluate_verified(task, model, instances, options, r, Selection::Vote, device, progress);
            (report, Some(stats), Vec::new())
        }
        None if copies => {
            let (report, picked) = evaluate_on_copies(task, model, instances, options, selects, device, progress);
            (report, None, picked)
        }
        None => {
            let (report, picked) = evaluate_selected(task, model, instances, options, selects, task.eval_batch(), device, progress);
            (report, None, picked)
        }
    };
    eprintln!();
    out
}

fn print_header<T: TokenTask>(task: &T, model: &Gram, options: &SampleOptions, part: &str, inputs: usize) {
    let SampleOptions { samples, guidance_scale, max_steps: steps, seed, latent_noise, .. } = *options;
    println!(
        "{} on {}/{part}: {inputs} {}, {samples} samples, guidance scale {guidance_scale}, {steps} supervision steps{}{}{}, seed {seed}",
        if model.has_guidance() { "GRAM" } else { "TRM" },
        task.id(),
        task.input_noun(),
        // PTRM's noise runs through the settled steps: only the guidance noise stops there.
        if latent_noise > 0.0 { settle_note(options).replace("without noise", "without guidance noise") } else { settle_note(options) },
        if options.halting { " (halting on)" } else { "" },
        if latent_noise > 0.0 { format!(", PTRM latent noise sigma {latent_noise}") } else { String::new() }
    );
}

/// Stores the measured row in the manifest beside the weights.
fn record<T: TokenTask>(
    task: &T,
    mut manifest: Manifest,
    report: &T::Report,
    options: &SampleOptions,
    part: &str,
    command: &str,
    weights: &Path,
) -> Result<(), String> {
    let (accuracy, coverage, extra) = report.record();
    let round = |x: f64| (x * 100.0).round() / 100.0;
    // The sampler's knobs, kept for GRAM (TRM draws no noise).
    let gram = manifest.model == Family::Gram.model_name();
    manifest.eval = Some(EvalRecord {
        split: format!("{}/{part}", task.id()),
        inputs: report.inputs(),
        samples: options.samples,
        accuracy: round(accuracy),
        coverage: round(coverage),
        command: command.to_string(),
        guidance_scale: gram.then_some(options.guidance_scale),
        steps: Some(options.max_steps),
        settle: gram.then_some(options.settle),
        extra,
    });
    let path = weights.with_extension("json");
    fs::write(&path, manifest.to_json() + "\n").map_err(|e| e.to_string())?;
    eprintln!("recorded in {}", path.display());
    Ok(())
}
