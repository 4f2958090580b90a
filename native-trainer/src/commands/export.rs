//! `export`: a run's latest checkpoint as shipped weights, `<name>.bpk` + `<name>.json` (config,
//! lineage, sha256 and a known output that the shipped-weights test reproduces).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::{Gram, SampleOptions};
use engine::solve::solve;
use engine::tasks::{Part, Task, TokenTask};
use engine::weights::{FORMAT_VERSION, Manifest, ReferenceOutput, gram_to_bytes, sha256_hex};

use super::sampling::task_of;
use crate::gram::state::{RunState, load_checkpoint, load_ema};
use crate::run::lineage::program_relative;
use crate::weights_io::found;
use engine::tasks::registry::{TaskVisitor, visit};
use engine::weights::identity::Family;

pub fn export(run_dir: Option<PathBuf>, name: &str, out_dir: &Path, device: &Device) -> Result<ExitCode, String> {
    let run_dir = run_dir.or_else(|| crate::reasoner::commands::default_run_dir(name)).unwrap_or_else(|| PathBuf::from("runs").join(name));
    // A path that is no directory gets load_checkpoint's error below.
    let family = if run_dir.is_dir() { found(&run_dir)?.family } else { Family::Gram };
    match family {
        Family::Grammar => return crate::grammar::commands::export(&run_dir, name, out_dir, device),
        Family::RegexLm => return crate::lm::commands::export(&run_dir, name, out_dir, device),
        Family::JepaReasoner => return crate::reasoner::commands::export(&run_dir, name, out_dir, device),
        Family::Gram | Family::Trm => {}
    }
    let (model, _, state) = load_checkpoint(&run_dir, device)?;
    // A run that keeps the weights' average ships the average (the GRAM paper, appendix D.2).
    let model = load_ema(&run_dir, &state.config, device)?.unwrap_or(model).valid();
    let bytes = gram_to_bytes(&model);
    let task = task_of(&state.config, crate::gram::presets::preset(&state.preset).and_then(|p| p.task).map(|t| t.id()).as_deref())?;
    let mut manifest = manifest_for(&model, &state, name, task.id(), &bytes);
    manifest.reference = Some(visit(task, Reference { model: &model, device })?);
    let bpk = crate::run::shipped::write_weights(out_dir, name, &bytes, &manifest.to_json())?;
    println!("wrote {} ({} bytes, {} params, step {})", bpk.display(), bytes.len(), manifest.params, state.step);
    Ok(ExitCode::SUCCESS)
}

fn manifest_for(model: &Gram, state: &RunState, name: &str, task: String, bytes: &[u8]) -> Manifest {
    let parent = state.parent.as_ref();
    Manifest {
        format_version: FORMAT_VERSION,
        name: name.to_string(),
        model: Family::of_gram_config(&state.config).model_name().to_string(),
        task,
        params: model.num_params(),
        config: state.config.clone(),
        // A run that started from shipped weights names their recipe first, then its own.
        training_command: match parent {
            Some(p) => format!("{} ; then, from those weights (sha256 {}): {}", p.command, p.sha256, program_relative(&state.command)),
            None => program_relative(&state.command),
        },
        data_seed: state.seed,
        train_steps: state.step + parent.map_or(0, |p| p.steps),
        train_seconds: ((state.seconds + parent.map_or(0.0, |p| p.seconds)) * 10.0).round() / 10.0,
        eval: None,
        reference: None,
        sha256: sha256_hex(bytes),
        bytes: bytes.len(),
        curve: None,
    }
}

/// The known output recorded at export: the first test puzzle, 8 samples, seed 7.
pub struct Reference<'a> {
    pub model: &'a Gram,
    pub device: &'a Device,
}

impl TaskVisitor for Reference<'_> {
    type Output = Result<ReferenceOutput, String>;

    fn gram<T: TokenTask>(self, task: &T) -> Self::Output {
        let puzzle = task.puzzle_of(&task.instances(Part::Test)[0]).clone();
        let options = SampleOptions { samples: 8, seed: 7, ..SampleOptions::default() };
        let solved = solve(task, self.model, std::slice::from_ref(&puzzle), &options, task.default_selection(), 1, self.device).remove(0);
        Ok(ReferenceOutput {
            puzzle: task.puzzle_text(&puzzle),
            samples: options.samples,
            seed: options.seed,
            guidance_scale: options.guidance_scale,
            steps: options.max_steps,
            halting: options.halting,
            settle: options.settle,
            outputs: solved.samples.iter().map(|a| task.answer_text(a)).collect(),
        })
    }

    fn other<T: Task>(self, task: &T) -> Self::Output {
        Err(format!("{} weights are not GRAM/TRM weights", task.id()))
    }
}
