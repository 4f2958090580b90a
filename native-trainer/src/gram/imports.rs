//! An import directory: what `data import` writes (all of it or nothing) and what `train --data`
//! reads back. Every import has `import.json` (its format, source, options and counts) beside
//! its data: `train.csv` + `validation.csv` for `sudoku-csv` (Sudoku-Extreme's own CSV form,
//! the parts already carved), `arc.bin` for `arc` (`engine::studies::arc::file`), `test.txt`
//! for `coloring-test` (the task's graph lines).

use std::fs;
use std::path::{Path, PathBuf};

use engine::studies::arc::{self, ArcTask};
use engine::tasks::coloring;
use engine::tasks::sudoku::Instance;
use engine::tasks::sudoku::csv::{CsvRow, read_csv};
use engine::tasks::sudoku::imported::instance;

pub const MANIFEST: &str = "import.json";
pub const SUDOKU_TRAIN: &str = "train.csv";
pub const SUDOKU_VALIDATION: &str = "validation.csv";
/// A test import's puzzles (`data import --format sudoku-csv --test`).
pub const SUDOKU_TEST: &str = "test.csv";
pub const ARC_FILE: &str = "arc.bin";
/// A colouring test import's graphs, one line each in the task's format
/// (`data import --format coloring --test`).
pub const COLORING_TEST: &str = "test.txt";

/// Writes `files` (name, bytes) as the directory `out`, all or nothing: into a fresh directory
/// beside it, renamed to `out` at the end. `out` must not exist, or be an empty directory.
/// Returns the paths written.
pub fn publish(out: &Path, files: &[(&str, Vec<u8>)]) -> Result<Vec<PathBuf>, String> {
    check_out(out)?;
    let name = out.file_name().ok_or_else(|| format!("--out {}: not a directory name", out.display()))?;
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = parent.join(format!(".{}.import-{}", name.to_string_lossy(), std::process::id()));
    let write = || -> std::io::Result<()> {
        fs::create_dir_all(&tmp)?;
        for (file, bytes) in files {
            fs::write(tmp.join(file), bytes)?;
        }
        if out.is_dir() {
            fs::remove_dir(out)?; // empty (checked above)
        }
        fs::rename(&tmp, out)
    };
    write().map_err(|e| {
        let _ = fs::remove_dir_all(&tmp);
        format!("writing {}: {e}", out.display())
    })?;
    Ok(files.iter().map(|(f, _)| out.join(f)).collect())
}

/// A manifest's JSON as written: pretty, ending in a newline.
pub fn pretty(value: &serde_json::Value) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).expect("a JSON value prints");
    text.push('\n');
    text.into_bytes()
}

/// The `wrote: <files>` line every import ends with.
pub fn print_written(paths: &[PathBuf]) {
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    println!("wrote: {}", names.join(" "));
}

/// `out` is free for an import: absent, or an empty directory.
pub fn check_out(out: &Path) -> Result<(), String> {
    match fs::read_dir(out).map(|mut entries| entries.next().is_none()) {
        Err(_) if !out.exists() => Ok(()),
        Ok(true) => Ok(()),
        _ => Err(format!("--out {} exists and is not an empty directory; choose a new one", out.display())),
    }
}

/// An import directory's manifest (`import.json`).
fn manifest_of(dir: &Path) -> Result<serde_json::Value, String> {
    let path = dir.join(MANIFEST);
    let text = fs::read_to_string(&path).map_err(|e| {
        format!("--data {}: no import here ({}: {e}); make one with `native-trainer data import`", dir.display(), path.display())
    })?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The `format` an import directory's manifest names.
fn format_of(dir: &Path) -> Result<String, String> {
    Ok(manifest_of(dir)?["format"].as_str().unwrap_or("").to_string())
}

fn expect_format(dir: &Path, want: &str) -> Result<(), String> {
    match format_of(dir)? {
        f if f == want => Ok(()),
        f if f == "sudoku-csv-test" => {
            Err(format!("--data {}: a test import, which only `eval --data` reads; train on a training import", dir.display()))
        }
        f => Err(format!("--data {}: an import of format {f:?}; this preset trains on a {want:?} import", dir.display())),
    }
}

/// The train and validation parts of a `sudoku-csv` import, every row checked again.
pub fn read_sudoku(dir: &Path) -> Result<(Vec<Instance>, Vec<Instance>), String> {
    expect_format(dir, "sudoku-csv")?;
    let (train, validation) = (sudoku_rows(dir, SUDOKU_TRAIN)?, sudoku_rows(dir, SUDOKU_VALIDATION)?);
    if train.is_empty() || validation.is_empty() {
        return Err(format!("--data {}: an empty train or validation part", dir.display()));
    }
    Ok((train, validation))
}

/// The puzzles of a Sudoku test import (`data import --format sudoku-csv --test`; format
/// `sudoku-csv-test`), every row checked again: what `eval --data` scores.
pub fn read_sudoku_test(dir: &Path) -> Result<Vec<Instance>, String> {
    match format_of(dir)?.as_str() {
        "sudoku-csv-test" => {}
        "sudoku-csv" => {
            return Err(format!(
                "--data {}: a training import; eval scores a test import (`data import --format sudoku-csv --test`)",
                dir.display()
            ));
        }
        f => return Err(format!("--data {}: an import of format {f:?}, not a Sudoku test import", dir.display())),
    }
    let test = sudoku_rows(dir, SUDOKU_TEST)?;
    if test.is_empty() {
        return Err(format!("{}: no puzzle", dir.join(SUDOKU_TEST).display()));
    }
    Ok(test)
}

/// The graphs of a colouring test import (format `coloring-test`) with every colouring, for
/// weights of `n` vertices: what `eval --data` scores.
pub fn read_coloring_test(dir: &Path, n: usize) -> Result<Vec<coloring::Instance>, String> {
    let manifest = manifest_of(dir)?;
    match manifest["format"].as_str().unwrap_or("") {
        "coloring-test" => {}
        f => {
            return Err(format!(
                "--data {}: an import of format {f:?}, not a colouring test import (`data import --format coloring --test`)",
                dir.display()
            ));
        }
    }
    // The vertex count is the manifest's, as `data import --vertices` wrote it.
    match manifest["vertices"].as_u64() {
        Some(v) if v as usize == n => {}
        Some(v) => return Err(format!("--data {}: {v}-vertex graphs; these are coloring{n} weights", dir.display())),
        None => return Err(format!("--data {}: the import does not say its vertex count", dir.display())),
    }
    let path = dir.join(COLORING_TEST);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    coloring::import::read_test_lines(&text, n).map_err(|e| format!("{}: {e}", path.display()))
}

/// The rows of one CSV file of a Sudoku import, checked again, as instances.
fn sudoku_rows(dir: &Path, name: &str) -> Result<Vec<Instance>, String> {
    let path = dir.join(name);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let rows: Vec<CsvRow> = read_csv(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(rows.iter().map(instance).collect())
}

/// The tasks of an `arc` import.
pub fn read_arc(dir: &Path) -> Result<Vec<ArcTask>, String> {
    expect_format(dir, "arc")?;
    let path = dir.join(ARC_FILE);
    let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    arc::file::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}
