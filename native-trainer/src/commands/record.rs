//! `record`: a run of shipped weights as a page would compute it (the engine's `LiveRun`, the
//! browser's own path), written as JSON for the page to show the moment it opens, while its
//! model's worker and weights load (`public/runs/`, README "Recorded runs").

use std::path::Path;
use std::process::ExitCode;

use burn::tensor::Device;
use engine::gram::SampleOptions;
use engine::solve::live::RunSpec;
use engine::solve::recorded::record;
use engine::solve::step_answers::PuzzleKind;

use crate::weights_io::load_weights;

pub struct RecordArgs<'a> {
    pub weights: &'a Path,
    pub puzzle: &'a str,
    pub samples: usize,
    pub steps: usize,
    pub seed: u64,
    pub guidance_scale: f64,
    /// The verified stop with this many restarts; none: every step, as the paper.
    pub stop_restarts: Option<usize>,
    pub out: &'a Path,
}

pub fn record_run(args: RecordArgs, device: &Device) -> Result<ExitCode, String> {
    let (model, _, manifest) = load_weights(args.weights, device)?;
    let manifest = manifest.ok_or("record takes shipped weights (a .bpk with its manifest), not a run directory")?;
    let kind = PuzzleKind::of_task(&manifest.task)?;
    let options = SampleOptions {
        samples: args.samples,
        guidance_scale: args.guidance_scale,
        max_steps: args.steps,
        seed: args.seed,
        // What the page's worker runs with.
        settle: kind.settle(),
        ..Default::default()
    };
    let spec = RunSpec { options, verified_stop: args.stop_restarts.is_some(), restarts: args.stop_restarts.unwrap_or(0), interventions: Vec::new() };
    let name = args.weights.file_stem().and_then(|s| s.to_str()).ok_or("the weights file has no name")?;
    let run = record(&model, kind, (name, &manifest.sha256), args.puzzle, spec, device)?;
    let text = serde_json::to_string(&run).map_err(|e| format!("cannot write the run as JSON: {e}"))?;
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(args.out, &text).map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    eprintln!(
        "recorded {name}: {} steps of {} samples{} -> {} ({} bytes)",
        run.steps_recorded.len(),
        run.samples,
        run.verified.map_or(String::new(), |v| format!(", verified at step {} of round {}", v.step, v.round)),
        args.out.display(),
        text.len()
    );
    Ok(ExitCode::SUCCESS)
}
