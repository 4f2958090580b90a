//! `record`: a run of shipped weights as a page would compute it, written as JSON for the page
//! to show the moment it opens, while its model's worker and weights load (`public/runs/`,
//! docs/playground.md, "Instant start"). The manifest says which page's run: GRAM/TRM weights
//! through the engine's `LiveRun` (the GRAM pages' path), the JEPA-Reasoner through
//! `reason_and_explain` (`/tree`'s), the grammar study's weights through `explore` and its curve
//! (`/grammar`'s). Each takes its own flags; a flag of another family is refused. With `--task
//! jepa`, `/jepa`'s training session instead (the engine's `studies::regex::session`, the worker's
//! own path).

use std::path::Path;
use std::process::ExitCode;

use burn::tensor::Device;
use engine::gram::SampleOptions;
use engine::solve::Copies;
use engine::solve::lane::Lane;
use engine::solve::live::RunSpec;
use engine::solve::recorded::record as record_gram;
use engine::solve::step_answers::step_task;
use engine::studies::grammar::recorded::record_grammar;
/// `--task jepa`'s default steps: those of the committed recording.
pub use engine::studies::regex::session::RECORDED_STEPS as JEPA_STEPS;
use engine::studies::regex::session::record_session;
use engine::tasks::tree::recorded::record_tree;

use crate::gram::weights::load_found;
use crate::grammar::weights::load_grammar_weights;
use crate::reasoner::weights::load_reasoner_weights;
use crate::weights_io::found;
use engine::weights::identity::Family;

/// The flags as given (`None`: left out; each family applies its own defaults).
pub struct RecordArgs<'a> {
    pub weights: &'a Path,
    /// GRAM/TRM: the puzzle; tree: the tree line.
    pub puzzle: Option<&'a str>,
    pub samples: Option<usize>,
    pub steps: Option<usize>,
    pub seed: u64,
    pub guidance_scale: Option<f64>,
    /// The verified stop with this many restarts; none: every step, as the paper.
    pub stop_restarts: Option<usize>,
    /// Tree and grammar: sigma as a fraction of max |h|.
    pub latent_noise: Option<f64>,
    /// Grammar: the held-out sequence and the share of its prefix corrupted.
    pub sequence: Option<usize>,
    pub corrupt: Option<f64>,
    pub out: &'a Path,
}

/// Records the run the weights' family computes, refusing flags of another family.
pub fn record(args: RecordArgs, device: &Device) -> Result<ExitCode, String> {
    if args.weights.is_dir() {
        return Err("record takes shipped weights (a .bpk with its manifest), not a run directory".into());
    }
    let name = args.weights.file_stem().and_then(|s| s.to_str()).ok_or("the weights file has no name")?;
    let what = found(args.weights)?;
    let (text, summary) = if what.family == Family::JepaReasoner {
        only(
            &args,
            "tree (JEPA-Reasoner)",
            "--puzzle, --latent-noise and --seed",
            &["--samples", "--steps", "--guidance-scale", "--stop-restarts", "--sequence", "--corrupt"],
        )?;
        tree(&args, name, device)?
    } else if what.family == Family::Grammar {
        only(
            &args,
            "grammar",
            "--sequence, --corrupt, --latent-noise and --seed",
            &["--puzzle", "--samples", "--steps", "--guidance-scale", "--stop-restarts"],
        )?;
        grammar(&args, name, device)?
    } else {
        only(
            &args,
            "GRAM/TRM",
            "--puzzle, --samples, --steps, --seed, --guidance-scale and --stop-restarts (recordings are noise-free)",
            &["--latent-noise", "--sequence", "--corrupt"],
        )?;
        gram(&args, name, what.manifest.as_deref(), device)?
    };
    write_out(args.out, &text)?;
    eprintln!("recorded {name}: {summary} -> {} ({} bytes)", args.out.display(), text.len());
    Ok(ExitCode::SUCCESS)
}

/// Refuses the flags in `foreign` that were given: they belong to another family of weights.
fn only(args: &RecordArgs, family: &str, takes: &str, foreign: &[&str]) -> Result<(), String> {
    let given = |flag: &str| match flag {
        "--puzzle" => args.puzzle.is_some(),
        "--samples" => args.samples.is_some(),
        "--steps" => args.steps.is_some(),
        "--guidance-scale" => args.guidance_scale.is_some(),
        "--stop-restarts" => args.stop_restarts.is_some(),
        "--latent-noise" => args.latent_noise.is_some(),
        "--sequence" => args.sequence.is_some(),
        "--corrupt" => args.corrupt.is_some(),
        _ => false,
    };
    let extra: Vec<&str> = foreign.iter().copied().filter(|f| given(f)).collect();
    match extra.as_slice() {
        [] => Ok(()),
        [one] => Err(format!("{one} does not apply to {family} weights; their recording takes {takes}")),
        many => Err(format!("{} do not apply to {family} weights; their recording takes {takes}", many.join(", "))),
    }
}

fn to_json<T: serde::Serialize>(run: &T) -> Result<String, String> {
    serde_json::to_string(run).map_err(|e| format!("cannot write the run as JSON: {e}"))
}

/// GRAM/TRM: the page's `LiveRun`, every step.
fn gram(args: &RecordArgs, name: &str, manifest_text: Option<&str>, device: &Device) -> Result<(String, String), String> {
    let puzzle = args.puzzle.ok_or("--puzzle is required for GRAM/TRM weights (the page's default puzzle)")?;
    let (model, _, manifest) = load_found(args.weights, manifest_text, device)?;
    let manifest = manifest.ok_or("record takes shipped weights (a .bpk with its manifest), not a run directory")?;
    let id = engine::tasks::TaskId::parse(&manifest.task).map_err(|e| e.to_string())?;
    let task = step_task(id).map_err(|e| e.to_string())?;
    let options = SampleOptions {
        samples: args.samples.unwrap_or(20),
        guidance_scale: args.guidance_scale.unwrap_or(1.0),
        max_steps: args.steps.unwrap_or(16),
        seed: args.seed,
        // What the page's worker runs with.
        settle: task.settle(),
        ..Default::default()
    };
    // Copies as the page's worker runs them (the task's default).
    let copies = engine::tasks::registry::visit(id, DefaultCopies);
    let spec = RunSpec {
        options,
        verified_stop: args.stop_restarts.is_some(),
        restarts: args.stop_restarts.unwrap_or(0),
        copies,
        interventions: Vec::new(),
        lane: Lane::ALONE,
        share: engine::solve::share::Share::ALL,
    };
    let run = record_gram(&model, &*task, (name, &manifest.sha256), puzzle, spec, device).map_err(|e| e.to_string())?;
    let summary = format!(
        "{} steps of {} samples{}",
        run.steps_recorded.len(),
        run.samples,
        run.verified.map_or(String::new(), |v| format!(", verified at step {} of round {}", v.step, v.round))
    );
    Ok((to_json(&run)?, summary))
}

/// The JEPA-Reasoner: `/tree`'s answer and its explanation.
fn tree(args: &RecordArgs, name: &str, device: &Device) -> Result<(String, String), String> {
    let puzzle = args.puzzle.ok_or("--puzzle is required for tree weights (the tree line up to [ROUTE], the page's default question)")?;
    let (model, manifest) = load_reasoner_weights(args.weights, device)?;
    let manifest = manifest.ok_or("record takes shipped weights (a .bpk with its manifest)")?;
    let run = record_tree(&model, (name, &manifest.sha256), puzzle, args.latent_noise.unwrap_or(0.0), args.seed, device)?;
    let e = &run.explanation;
    let summary = format!(
        "route {} ({}), {} latents explained",
        e.route.as_deref().unwrap_or("(none)"),
        if e.correct { "correct" } else { "wrong" },
        e.steps.len()
    );
    Ok((to_json(&run)?, summary))
}

/// The grammar study: `/grammar`'s completions and the sequence's curve.
fn grammar(args: &RecordArgs, name: &str, device: &Device) -> Result<(String, String), String> {
    let (models, config, manifest) = load_grammar_weights(args.weights, device)?;
    let manifest = manifest.ok_or("record takes shipped weights (a .bpk with its manifest)")?;
    let (sequence, corrupt, noise) = (args.sequence.unwrap_or(0), args.corrupt.unwrap_or(0.0), args.latent_noise.unwrap_or(0.0));
    let run = record_grammar(&models, config.variant, (name, &manifest.sha256), sequence, corrupt, noise, args.seed, device)?;
    let v = &run.view;
    let summary = format!(
        "sequence {sequence}, {} completions, a curve of {} corruption levels ({} draws each)",
        v.answers.len(),
        v.curve.len(),
        v.draws
    );
    Ok((to_json(&run)?, summary))
}

pub struct JepaArgs<'a> {
    pub lambda: f64,
    pub k: usize,
    pub seed: u64,
    pub steps: usize,
    pub out: &'a Path,
}

/// Records `/jepa`'s session with these settings: the figures the page shows, as it trains
/// them when Train is pressed (fresh models, the page's batches and snapshots).
pub fn record_jepa(args: JepaArgs, device: &Device) -> Result<ExitCode, String> {
    // The worker's limits (app/src/worker/live.rs).
    if !(args.lambda.is_finite() && (0.0..=4.0).contains(&args.lambda)) || args.k > 4 || !(1..=100_000).contains(&args.steps) {
        return Err(format!("--lambda is 0 to 4, --k 0 to 4 and --steps 1 to 100000 (got {}, {}, {})", args.lambda, args.k, args.steps));
    }
    let started = std::time::Instant::now();
    let session = record_session(args.lambda, args.k, args.seed, args.steps, device, |step| {
        if step % 100 == 0 {
            eprintln!("step {step} of {} ({:.0} s)", args.steps, started.elapsed().as_secs_f64());
        }
    });
    let text = serde_json::to_string(&session).map_err(|e| format!("cannot write the session as JSON: {e}"))?;
    write_out(args.out, &text)?;
    let (lm, jepa) = session.snapshots.last().expect("a session has its step-0 snapshots");
    eprintln!(
        "recorded /jepa (lambda {}, k {}, seed {}): {} steps, {} progress points, {} snapshots; at step {}: held-out {:.0}% vs {:.0}%, cos {:.2} vs {:.2} -> {} ({} bytes, {:.0} s)",
        args.lambda,
        args.k,
        args.seed,
        args.steps,
        session.progress.len(),
        session.snapshots.len(),
        lm.step,
        lm.semantic,
        jepa.semantic,
        lm.cosine,
        jepa.cosine,
        args.out.display(),
        text.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn write_out(out: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))
}

/// The task's default copies ([`engine::tasks::InferenceDefaults::copies`]).
struct DefaultCopies;

impl engine::tasks::TaskVisitor for DefaultCopies {
    type Output = Copies;

    fn gram<T: engine::tasks::TokenTask>(self, task: &T) -> Copies {
        task.inference_defaults().copies
    }

    fn other<T: engine::tasks::Task>(self, _task: &T) -> Copies {
        Copies::None
    }
}
