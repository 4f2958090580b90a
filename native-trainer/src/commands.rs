//! The non-training subcommands: eval, split, solve, export, bench.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::{Gram, GramConfig, SampleOptions, Trajectories, default_settle};
use engine::solve::{Selection, evaluate_nqueens, solve_nqueens};
use engine::tasks::nqueens::{Board, Part, completions, split as split_of, spread};
use engine::weights::{EvalRecord, FORMAT_VERSION, Manifest, ReferenceOutput, gram_to_bytes, sha256_hex};
use serde_json::json;

use crate::checkpoint::{load_checkpoint, load_ema, load_weights};
use crate::lineage::program_relative;
use crate::output::{answer_lines, settle_note};
use crate::presets::Task;
use crate::runlog::fmt_duration;

/// The task a model's config was built for.
pub fn task_of(config: &GramConfig) -> Task {
    if config.seq_len == engine::tasks::sudoku::CELLS && config.vocab == engine::tasks::sudoku::VOCAB {
        Task::Sudoku
    } else {
        Task::NQueens(side_of(config))
    }
}

fn side_of(config: &GramConfig) -> usize {
    (config.seq_len as f64).sqrt().round() as usize
}

pub fn eval(
    weights: &Path,
    options: SampleOptions,
    settle: Option<f64>,
    limit: Option<usize>,
    part: &str,
    record: bool,
    latent_noise: f64,
    command: &str,
    device: &Device,
) -> Result<ExitCode, String> {
    if crate::tree_cmd::is_jepa(weights) {
        if part != "test" {
            return Err("tree weights are scored on the test part only".into());
        }
        return crate::tree_cmd::eval(weights, limit, latent_noise, options.seed, record, command, device);
    }
    let (model, config, manifest) = load_weights(weights, device)?;
    let n = side_of(&config);
    let part_v = Part::parse(part).ok_or_else(|| format!("--part must be train, validation or test, not {part:?}"))?;
    let options = with_settle(options, settle, &config)?;
    if task_of(&config) == Task::Sudoku {
        return crate::sudoku_cmd::eval(&model, &config, manifest, weights, options, limit, part_v, record, command, device);
    }
    let all = split_of(n, part_v);
    let instances = match limit {
        Some(k) => spread(&all, k),
        None => all,
    };
    let SampleOptions { samples, guidance_scale, max_steps: steps, seed, .. } = options;
    let settle = settle_note(&options);
    let began = Instant::now();
    let total = instances.len();
    let report = evaluate_nqueens(&model, &instances, &options, 16, device, |done, r| {
        eprint!(
            "\r{}/{} inputs  accuracy {:.2}%  coverage@{} {:.2}%  {}\x1b[K",
            done.min(total),
            total,
            r.overall.accuracy(),
            samples,
            r.overall.coverage(),
            fmt_duration(began.elapsed().as_secs_f64())
        );
    });
    eprintln!();
    let model_name = if config.guidance { "GRAM" } else { "TRM" };
    println!(
        "{model_name} on nqueens{n}/{part}: {} inputs, {samples} samples, guidance scale {guidance_scale}, {steps} supervision steps{settle}{}, seed {seed}",
        report.overall.inputs,
        if options.halting { " (halting on)" } else { "" }
    );
    print!("{}", report.to_table("k"));
    println!(
        "TABLE1 accuracy={:.2} coverage@{samples}={:.2} params={} time={:.1}s",
        report.overall.accuracy(),
        report.overall.coverage(),
        model.num_params(),
        began.elapsed().as_secs_f64()
    );
    if record {
        let mut m = manifest.ok_or("--record needs a .bpk weights file with a manifest")?;
        m.eval = Some(EvalRecord {
            split: format!("nqueens{n}/{part}"),
            inputs: report.overall.inputs,
            samples,
            accuracy: (report.overall.accuracy() * 100.0).round() / 100.0,
            coverage: (report.overall.coverage() * 100.0).round() / 100.0,
            command: command.to_string(),
            extra: Default::default(),
        });
        fs::write(weights.with_extension("json"), m.to_json() + "\n").map_err(|e| e.to_string())?;
        eprintln!("recorded in {}", weights.with_extension("json").display());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn split(task: &str, part: &str) -> Result<ExitCode, String> {
    let part = Part::parse(part).ok_or_else(|| format!("--part must be train, validation or test, not {part:?}"))?;
    let n = match task {
        "nqueens8" => 8,
        "nqueens10" => 10,
        "sudoku" => return crate::sudoku_cmd::split(part),
        "tree" => return crate::tree_cmd::split(match part {
            Part::Train => engine::tasks::tree::Part::Train,
            Part::Validation => engine::tasks::tree::Part::Validation,
            Part::Test => engine::tasks::tree::Part::Test,
        }),
        _ => return Err(format!("unknown task {task:?}; tasks: nqueens8, nqueens10, sudoku, tree")),
    };
    let mut out = std::io::stdout().lock();
    for inst in split_of(n, part) {
        writeln!(out, "{}", inst.puzzle.to_text()).map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Why a parsed board cannot be completed, in words.
fn impossible_reason(board: &Board) -> Option<String> {
    if let Some(((r1, c1), (r2, c2))) = board.conflicts().first().copied() {
        return Some(format!(
            "impossible puzzle: the queens at row {}, column {} and row {}, column {} attack each other",
            r1 + 1,
            c1 + 1,
            r2 + 1,
            c2 + 1
        ));
    }
    completions(board).is_empty().then(|| "impossible puzzle: no placement of the remaining queens completes it".to_string())
}

/// `--settle`, a fraction of the step budget, or the task's default.
fn with_settle(options: SampleOptions, settle: Option<f64>, config: &GramConfig) -> Result<SampleOptions, String> {
    let settle = settle.unwrap_or_else(|| default_settle(task_of(config) == Task::Sudoku));
    if !(0.0..=1.0).contains(&settle) {
        return Err(format!("--settle must be a fraction between 0 and 1, not {settle}"));
    }
    Ok(SampleOptions { settle, ..options })
}

pub fn solve(
    weights: &Path,
    task: Option<&str>,
    options: SampleOptions,
    settle: Option<f64>,
    select: &str,
    latent_noise: f64,
    device: &Device,
) -> Result<ExitCode, String> {
    let jepa = crate::tree_cmd::is_jepa(weights);
    match (task, jepa) {
        (Some("tree") | None, true) => return crate::tree_cmd::solve(weights, latent_noise, options.seed, device),
        (Some(t), true) => return Err(format!("--task {t} but {} holds a tree (JEPA-Reasoner) model", weights.display())),
        (Some("tree"), false) => {
            return Err(format!("--task tree but {} is not JEPA-Reasoner weights", weights.display()));
        }
        _ => {}
    }
    let SampleOptions { samples, guidance_scale, max_steps: steps, .. } = options;
    let select = match select {
        "auto" => None,
        other => Some(Selection::parse(other).ok_or_else(|| format!("--select must be auto, lprm or vote, not {other:?}"))?),
    };
    if !(1..=1024).contains(&samples) {
        return Err(format!("--samples must be between 1 and 1024, not {samples}"));
    }
    if !(1..=256).contains(&steps) {
        return Err(format!("--steps must be between 1 and 256, not {steps}"));
    }
    if !(guidance_scale.is_finite() && guidance_scale >= 0.0) {
        return Err(format!("--guidance-scale must be a number >= 0, not {guidance_scale}"));
    }
    let (model, config, _) = load_weights(weights, device)?;
    let options = with_settle(options, settle, &config)?;
    if let Some(expected) = task {
        let found = task_of(&config);
        if found.id() != expected {
            return Err(format!("--task {expected} but {} holds a {} model", weights.display(), found.id()));
        }
    }
    if task_of(&config) == Task::Sudoku {
        // One answer per puzzle: the vote (eq. 15) unless asked otherwise.
        return crate::sudoku_cmd::solve(&model, &options, select.unwrap_or(Selection::Vote), device);
    }
    let select = select.unwrap_or(Selection::Lprm);
    let n = side_of(&config);
    answer_lines(|text| {
        let board = Board::parse(text, n).map_err(|e| e.to_string())?;
        if let Some(reason) = impossible_reason(&board) {
            return Err(reason);
        }
        let solved = solve_nqueens(&model, std::slice::from_ref(&board), &options, select, 1, device)
            .pop()
            .expect("one puzzle in, one out");
        Ok(json!({
            "samples": solved.samples.iter().map(Board::to_text).collect::<Vec<_>>(),
            "selected": solved.samples[solved.selected].to_text(),
        }))
    })
}

pub fn export(run_dir: Option<PathBuf>, name: &str, out_dir: &Path, device: &Device) -> Result<ExitCode, String> {
    let run_dir = run_dir
        .or_else(|| crate::tree_cmd::default_run_dir(name))
        .unwrap_or_else(|| PathBuf::from("runs").join(name));
    if crate::tree_cmd::is_jepa(&run_dir) {
        return crate::tree_cmd::export(&run_dir, name, out_dir, device);
    }
    let (model, _, state) = load_checkpoint(&run_dir, device)?;
    // A run that keeps the weights' average ships the average (seed 003, appendix D.2).
    let model = load_ema(&run_dir, &state.config, device)?.unwrap_or(model);
    let bytes = gram_to_bytes(&model);
    fs::create_dir_all(out_dir).map_err(|e| e.to_string())?;
    let n = side_of(&state.config);
    let task = task_of(&state.config);
    let manifest = Manifest {
        format_version: FORMAT_VERSION,
        name: name.to_string(),
        model: if state.config.guidance { "gram" } else { "trm" }.to_string(),
        task: task.id(),
        params: model.num_params(),
        config: state.config.clone(),
        // A run that started from shipped weights names their recipe first, then its own.
        training_command: match &state.parent {
            Some(p) => format!("{} ; then, from those weights (sha256 {}): {}", p.command, p.sha256, program_relative(&state.command)),
            None => program_relative(&state.command),
        },
        data_seed: state.seed,
        train_steps: state.step + state.parent.as_ref().map_or(0, |p| p.steps),
        train_seconds: ((state.seconds + state.parent.as_ref().map_or(0.0, |p| p.seconds)) * 10.0).round() / 10.0,
        eval: None,
        reference: None,
        sha256: sha256_hex(&bytes),
        bytes: bytes.len(),
    };
    let mut manifest = manifest;
    manifest.reference = Some(match task {
        Task::Sudoku => crate::sudoku_cmd::reference_output(&model.valid(), device),
        Task::NQueens(_) => reference_output(&model.valid(), n, device),
    });
    let bpk = out_dir.join(format!("{name}.bpk"));
    fs::write(&bpk, &bytes).map_err(|e| e.to_string())?;
    fs::write(out_dir.join(format!("{name}.json")), manifest.to_json() + "\n").map_err(|e| e.to_string())?;
    println!("wrote {} ({} bytes, {} params, step {})", bpk.display(), bytes.len(), manifest.params, state.step);
    Ok(ExitCode::SUCCESS)
}

/// The known output recorded at export: the first test puzzle, 8 samples, seed 7.
pub fn reference_output(model: &Gram, n: usize, device: &Device) -> ReferenceOutput {
    let puzzle = split_of(n, Part::Test)[0].puzzle.clone();
    let options = SampleOptions { samples: 8, seed: 7, ..SampleOptions::default() };
    let solved = solve_nqueens(model, std::slice::from_ref(&puzzle), &options, Selection::Lprm, 1, device).remove(0);
    ReferenceOutput {
        puzzle: puzzle.to_text(),
        samples: options.samples,
        seed: options.seed,
        guidance_scale: options.guidance_scale,
        steps: options.max_steps,
        halting: options.halting,
        settle: options.settle,
        outputs: solved.samples.iter().map(Board::to_text).collect(),
    }
}

pub fn bench(weights: &Path, repeats: usize, device: &Device) -> Result<ExitCode, String> {
    let (model, config, _) = load_weights(weights, device)?;
    let puzzle = match task_of(&config) {
        Task::Sudoku => engine::tasks::sudoku::test_set(1).remove(0).puzzle.tokens(),
        Task::NQueens(n) => split_of(n, Part::Test)[0].puzzle.tokens(),
    };
    println!("| what | batch | ms per supervision step | ratio to N=1 |");
    println!("| --- | --- | --- | --- |");
    let mut base = 0.0;
    for samples in [1usize, 5, 20, 64] {
        let options = SampleOptions { samples, max_steps: 4, halting: false, ..SampleOptions::default() };
        let mut best = f64::MAX;
        for _ in 0..repeats.max(1) {
            let mut t = Trajectories::new(&model, std::slice::from_ref(&puzzle), options.clone(), device);
            t.step(); // warm-up
            let began = Instant::now();
            for _ in 0..3 {
                t.step();
            }
            best = best.min(began.elapsed().as_secs_f64() * 1000.0 / 3.0);
        }
        if samples == 1 {
            base = best;
        }
        println!("| sample N={samples} (1 puzzle) | {samples} | {best:.1} | {:.2} |", best / base);
    }
    Ok(ExitCode::SUCCESS)
}

/// Text rendering of boards side by side, for the demo.
fn side_by_side(boards: &[(String, &Board)]) -> String {
    let n = boards.first().map_or(0, |(_, b)| b.n());
    let mut s = String::new();
    for (title, _) in boards {
        s.push_str(&format!("{title:<w$}  ", w = 2 * n));
    }
    s.push('\n');
    for r in 0..n {
        for (_, b) in boards {
            for c in 0..n {
                s.push_str(if b.has_queen(r, c) { "Q " } else { ". " });
            }
            s.push_str("  ");
        }
        s.push('\n');
    }
    s
}

/// The playground in a terminal (until the browser app lands): a few held-out puzzles solved by
/// the shipped GRAM and TRM weights, with the distinct valid completions each found.
pub fn demo(samples: usize, puzzles: usize, seed: u64, device: &Device) -> Result<ExitCode, String> {
    let gram = load_weights(Path::new("public/weights/gram-nqueens8.bpk"), device)?.0;
    let trm = load_weights(Path::new("public/weights/trm-nqueens8.bpk"), device)?.0;
    let test = split_of(8, Part::Test);
    let picks = spread(&test, puzzles);
    let options = SampleOptions { samples, seed, ..SampleOptions::default() };
    println!("Latent-reasoning playground (terminal demo): {samples} samples per model, seed {seed}\n");
    for inst in &picks {
        let total = inst.solutions.len();
        let mut cols = vec![("puzzle".to_string(), &inst.puzzle)];
        let g = solve_nqueens(&gram, std::slice::from_ref(&inst.puzzle), &options, Selection::Lprm, 1, device).remove(0);
        let t = solve_nqueens(&trm, std::slice::from_ref(&inst.puzzle), &options, Selection::Lprm, 1, device).remove(0);
        let g_found = engine::metrics::distinct_valid(&g.samples, &inst.puzzle);
        let t_found = engine::metrics::distinct_valid(&t.samples, &inst.puzzle);
        cols.push(("GRAM selected".to_string(), &g.samples[g.selected]));
        cols.push(("TRM selected".to_string(), &t.samples[t.selected]));
        print!("{}", side_by_side(&cols));
        println!(
            "completions: {total}   GRAM found {} of {total}   TRM found {} of {total}\n",
            g_found.len(),
            t_found.len()
        );
    }
    println!("GRAM samples its latent trajectory (h = u + eps, eps from the learned prior), so its");
    println!("samples spread over the valid completions; TRM's recursion is deterministic, so all its");
    println!("samples are the same board. Full numbers: native-trainer eval --weights <file>.");
    Ok(ExitCode::SUCCESS)
}
