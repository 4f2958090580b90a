//! The Sudoku side of `eval`, `split`, `solve`, `export` and `bench`.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::{Gram, GramConfig, SampleOptions};
use engine::solve::Selection;
use engine::sudoku_solve::{WIDTHS, evaluate_sudoku, evaluate_sudoku_with_progress, solve_sudoku};
use engine::tasks::nqueens::spread;
use engine::tasks::sudoku::{self, FAMOUS, Instance, Part, SudokuGrid, problem_with};
use engine::weights::{EvalRecord, Manifest, ReferenceOutput};
use serde_json::json;

use crate::data::{SUDOKU_TEST_PER_BAND, SUDOKU_TRAIN_GIVENS, SUDOKU_VALIDATION_PER_BAND};
use crate::output::{answer_lines, settle_note};
use crate::runlog::fmt_duration;

/// The instances of a part: the held-out set, the validation set, or puzzles of the training
/// pool (seed 0's pool).
fn instances(part: Part) -> Vec<Instance> {
    match part {
        Part::Test => sudoku::test_set(SUDOKU_TEST_PER_BAND),
        Part::Validation => sudoku::validation_set(SUDOKU_VALIDATION_PER_BAND),
        // The first puzzles of the pool a seed-0 run trains on (before augmentation).
        Part::Train => sudoku::train_pool(4 * SUDOKU_TEST_PER_BAND, SUDOKU_TRAIN_GIVENS, 0),
    }
}

pub fn split(part: Part) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    for inst in instances(part) {
        writeln!(out, "{}", inst.puzzle.to_text()).map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

#[allow(clippy::too_many_arguments)]
pub fn eval(
    model: &Gram,
    config: &GramConfig,
    manifest: Option<Manifest>,
    weights: &Path,
    options: SampleOptions,
    limit: Option<usize>,
    part: Part,
    record: bool,
    command: &str,
    device: &Device,
) -> Result<ExitCode, String> {
    let all = instances(part);
    let chosen = match limit {
        Some(k) => spread(&all, k),
        None => all,
    };
    let SampleOptions { samples, guidance_scale, max_steps: steps, seed, .. } = options;
    let settle = settle_note(&options);
    // The widest column of the width table that the samples drawn fill.
    let widest = *WIDTHS.iter().rfind(|&&w| w <= samples).unwrap_or(&1);
    let began = Instant::now();
    let total = chosen.len();
    let report = evaluate_sudoku_with_progress(model, &chosen, &options, 8, device, |done, r| {
        eprint!(
            "\r{done}/{total} puzzles  accuracy {:.2}%  vote@{samples} {:.2}%  {}\x1b[K",
            r.overall().accuracy(),
            r.overall().vote_at(widest),
            fmt_duration(began.elapsed().as_secs_f64())
        );
    });
    eprintln!();
    let part_name = part.name();
    println!(
        "{} on sudoku/{part_name}: {} puzzles, {samples} samples, guidance scale {guidance_scale}, {steps} supervision steps{settle}, seed {seed}",
        if config.guidance { "GRAM" } else { "TRM" },
        report.overall().inputs
    );
    println!("\nAccuracy (%) by difficulty band and by the number of samples N (majority vote of the first N):");
    print!("{}", report.to_table());
    let by_step: Vec<String> = report.overall().by_step().iter().map(|a| format!("{a:.1}")).collect();
    println!("\nVote accuracy (%) after each supervision step 1..{steps}: {}", by_step.join(" "));

    // A few famous hardest puzzles, reported as they are.
    let famous: Vec<Instance> = FAMOUS
        .iter()
        .map(|(_, text)| Instance::from_puzzle(SudokuGrid::parse(text).expect("famous puzzles parse")).expect("unique"))
        .collect();
    let fr = evaluate_sudoku(model, &famous, &options, 8, device);
    println!(
        "Famous hardest puzzles ({}): solved by the vote {:.0} of {}, by any sample {:.0} of {}",
        FAMOUS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join("; "),
        fr.overall().vote_at(widest) * famous.len() as f64 / 100.0,
        famous.len(),
        fr.overall().pass_at(widest) * famous.len() as f64 / 100.0,
        famous.len()
    );
    let easy_enough: Vec<&str> = ["easy", "medium", "hard"].to_vec();
    let (mut n28, mut k28) = (0usize, 0f64);
    for b in &easy_enough {
        if let Some(t) = report.bands.get(b) {
            n28 += t.inputs;
            k28 += t.vote_at(widest) * t.inputs as f64 / 100.0;
        }
    }
    println!(
        "TABLE sudoku accuracy={:.2} vote@{widest}={:.2} any@{widest}={:.2} vote@{widest}(>=28 givens)={:.2} params={} time={:.1}s",
        report.overall().accuracy(),
        report.overall().vote_at(widest),
        report.overall().pass_at(widest),
        100.0 * k28 / n28.max(1) as f64,
        model.num_params(),
        began.elapsed().as_secs_f64()
    );
    if record {
        let mut m = manifest.ok_or("--record needs a .bpk weights file with a manifest")?;
        let round = |x: f64| (x * 100.0).round() / 100.0;
        let mut extra = std::collections::BTreeMap::new();
        extra.insert(format!("vote@{widest}"), round(report.overall().vote_at(widest)));
        extra.insert(format!("vote@{widest} >=28 givens"), round(100.0 * k28 / n28.max(1) as f64));
        for d in sudoku::Difficulty::ALL {
            if let Some(t) = report.bands.get(d.name()) {
                extra.insert(format!("vote@{widest} {}", d.name()), round(t.vote_at(widest)));
            }
        }
        m.eval = Some(EvalRecord {
            split: format!("sudoku/{part_name}"),
            inputs: report.overall().inputs,
            samples,
            accuracy: round(report.overall().accuracy()),
            // One answer per puzzle: coverage@N (found / all completions) is "any of N right".
            coverage: round(report.overall().pass_at(widest)),
            command: command.to_string(),
            extra,
        });
        fs::write(weights.with_extension("json"), m.to_json() + "\n").map_err(|e| e.to_string())?;
        eprintln!("recorded in {}", weights.with_extension("json").display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `solve --task sudoku`: one JSON object per input line.
pub fn solve(model: &Gram, options: &SampleOptions, select: Selection, device: &Device) -> Result<ExitCode, String> {
    answer_lines(|text| {
        let grid = SudokuGrid::parse(text).map_err(|e| e.to_string())?;
        if let Some(p) = problem_with(&grid) {
            return Err(format!("impossible puzzle: {p}"));
        }
        let solved = solve_sudoku(model, std::slice::from_ref(&grid), options, select, 1, device)
            .pop()
            .expect("one puzzle in, one out");
        let selected = &solved.samples[solved.selected];
        Ok(json!({
            "samples": solved.samples.iter().map(SudokuGrid::to_text).collect::<Vec<_>>(),
            "selected": selected.to_text(),
            "verified": selected.solves(&grid),
        }))
    })
}

/// The known output recorded at export: the first test puzzle, 8 samples, seed 7.
pub fn reference_output(model: &Gram, device: &Device) -> ReferenceOutput {
    let puzzle = sudoku::test_set(1).remove(0).puzzle;
    let options = SampleOptions { samples: 8, seed: 7, ..SampleOptions::default() };
    let solved = solve_sudoku(model, std::slice::from_ref(&puzzle), &options, Selection::Vote, 1, device).remove(0);
    ReferenceOutput {
        puzzle: puzzle.to_text(),
        samples: options.samples,
        seed: options.seed,
        guidance_scale: options.guidance_scale,
        steps: options.max_steps,
        halting: options.halting,
        settle: options.settle,
        outputs: solved.samples.iter().map(SudokuGrid::to_text).collect(),
    }
}
