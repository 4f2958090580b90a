//! `solve`: puzzles from stdin, one JSON object per line: every sample, the selected answer and
//! whether it is right by the task's rules.

use std::path::Path;
use std::process::ExitCode;

use burn::tensor::Device;
use engine::gram::{Gram, Selection};
use engine::solve::{solve as solve_puzzles, solve_on_copies, solve_verified};
use engine::tasks::{Task, TokenTask};
use serde_json::json;

use super::sampling::{check_ranges, named_task, parse_select, task_of, with_latent_noise, with_settle};
use crate::cli::SamplingArgs;
use crate::gram::weights::load_found;
use crate::lines::answer_lines;
use crate::weights_io::found;
use engine::tasks::registry::{TaskVisitor, visit};
use engine::weights::identity::Family;

/// What `solve` was asked.
pub struct SolveArgs<'a> {
    pub weights: &'a Path,
    pub task: Option<&'a str>,
    /// The flags as given; those left out take the task's defaults (its page's).
    pub sampling: &'a SamplingArgs,
    pub select: &'a str,
    pub latent_noise: f64,
    /// Grammar weights: which model completes (t, c, r, r-mono).
    pub model: &'a str,
    /// Grammar weights: share of each prefix's terminals replaced before the model reads it.
    pub corrupt: f64,
}

pub fn solve(args: SolveArgs, device: &Device) -> Result<ExitCode, String> {
    let what = found(args.weights)?;
    let family = what.family;
    match (args.task, family == Family::RegexLm) {
        (Some("regex") | None, true) => return crate::lm::commands::solve(args.weights, device),
        (Some(t), true) => return Err(format!("--task {t} but {} holds a regex model (--task regex)", args.weights.display())),
        (Some("regex"), false) => return Err(format!("--task regex but {} is not regex weights", args.weights.display())),
        _ => {}
    }
    match (args.task, family == Family::Grammar) {
        (Some("grammar" | "cfg") | None, true) => {
            let a = crate::grammar::commands::GrammarSolveArgs {
                weights: args.weights,
                model: args.model,
                corrupt: args.corrupt,
                latent_noise: args.latent_noise,
                steps: args.sampling.steps.unwrap_or(4),
                seed: args.sampling.seed,
            };
            return crate::grammar::commands::solve(a, device);
        }
        (Some(t), true) => {
            return Err(format!("--task {t} but {} holds the grammar study's models (--task grammar)", args.weights.display()));
        }
        (Some(t @ ("grammar" | "cfg")), false) => return Err(format!("--task {t} but {} is not grammar weights", args.weights.display())),
        _ => {}
    }
    if args.model != "r" || args.corrupt != 0.0 {
        return Err("--model and --corrupt are for grammar weights (--task grammar)".into());
    }
    match (args.task, family == Family::JepaReasoner) {
        (Some("tree") | None, true) => {
            return crate::reasoner::commands::solve(args.weights, args.latent_noise, args.sampling.seed, device);
        }
        (Some(t), true) => return Err(format!("--task {t} but {} holds a tree (JEPA-Reasoner) model", args.weights.display())),
        (Some("tree"), false) => return Err(format!("--task tree but {} is not JEPA-Reasoner weights", args.weights.display())),
        _ => {}
    }
    let select = parse_select(args.select, true)?;
    let (model, config, manifest) = load_found(args.weights, what.manifest.as_deref(), device)?;
    let found = task_of(&config, named_task(args.weights, manifest.as_ref()).as_deref())?;
    if let Some(expected) = args.task
        && found.id() != expected
    {
        return Err(format!("--task {expected} but {} holds a {} model", args.weights.display(), found.id()));
    }
    visit(found, GramSolve { model: &model, sampling: args.sampling, select, latent_noise: args.latent_noise, device })
}

struct GramSolve<'a> {
    model: &'a Gram,
    sampling: &'a SamplingArgs,
    select: Option<Selection>,
    latent_noise: f64,
    device: &'a Device,
}

impl TaskVisitor for GramSolve<'_> {
    type Output = Result<ExitCode, String>;

    /// `selected` is the task's default selection unless `--select` says otherwise (N-Queens:
    /// LPRM; Sudoku, one answer per puzzle: the vote); `verified` = it is right by the rules.
    /// With `--verified-stop`, `selected` is the first sample that passed the rules, and
    /// `verified_at` says where (`null` when none did: then `selected` is as without the stop).
    /// Flags left out take the task's inference defaults (Sudoku: the page's N 10, scale 3, the
    /// verified stop).
    fn gram<T: TokenTask>(self, task: &T) -> Self::Output {
        let (options, rounds) = self.sampling.plan(&task.inference_defaults())?;
        let copies = self.sampling.copies_without_stop(&task.inference_defaults());
        check_ranges(&options)?;
        let options = with_latent_noise(with_settle(options, self.sampling.settle, task)?, self.latent_noise)?;
        let select = self.select.unwrap_or(task.default_selection());
        answer_lines("puzzle", |text| {
            let puzzle = task.parse(text).map_err(|e| e.to_string())?;
            if let Some(rounds) = rounds {
                let run = solve_verified(task, self.model, &puzzle, &options, rounds, select, self.device);
                let s = &run.solved;
                return Ok(json!({
                    "samples": s.samples.iter().map(|a| task.answer_text(a)).collect::<Vec<_>>(),
                    "selected": task.answer_text(s.selected()),
                    "verified": task.is_valid(&puzzle, s.selected()),
                    "verified_at": run.verified.map(|v| json!({"round": v.round, "step": v.step, "sample": v.sample})),
                    "trajectory_steps": run.trajectory_steps,
                }));
            }
            let solved = if copies {
                solve_on_copies(task, self.model, &puzzle, &options, select, self.device)
                    .ok_or_else(|| crate::sampling_args::no_copies(&task.id()))?
            } else {
                solve_puzzles(task, self.model, std::slice::from_ref(&puzzle), &options, select, 1, self.device)
                    .pop()
                    .expect("one puzzle in, one out")
            };
            Ok(json!({
                "samples": solved.samples.iter().map(|a| task.answer_text(a)).collect::<Vec<_>>(),
                "selected": task.answer_text(solved.selected()),
                "verified": task.is_valid(&puzzle, solved.selected()),
            }))
        })
    }

    fn other<T: Task>(self, task: &T) -> Self::Output {
        Err(format!("{} is not solved by a GRAM/TRM model", task.id()))
    }
}
