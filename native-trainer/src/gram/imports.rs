//! An import directory: what `data import` writes (all of it or nothing) and what `train --data`
//! reads back. Every import has `import.json` (its format, source, options and counts) beside
//! its data: `train.csv` + `validation.csv` for `sudoku-csv` (Sudoku-Extreme's own CSV form,
//! the parts already carved), `arc.bin` for `arc` (`engine::studies::arc::file`); a test import
//! (`--test`) the file its task names (`engine::tasks::TestImport`).

use std::fs;
use std::path::{Path, PathBuf};

use engine::studies::arc::{self, ArcTask};
use engine::tasks::TestImport;
use engine::tasks::sudoku::Instance;
use engine::tasks::sudoku::imported::{TEST_FORMAT, read_instances};

pub const MANIFEST: &str = "import.json";
pub const SUDOKU_TRAIN: &str = "train.csv";
pub const SUDOKU_VALIDATION: &str = "validation.csv";
pub const ARC_FILE: &str = "arc.bin";

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
        f if f == TEST_FORMAT => {
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

/// The instances of a test import (`data import ... --test`) of the task `import` describes:
/// what `eval --data` scores. The manifest's format and its own checks first, then the file's
/// every puzzle, checked again as the task reads it.
pub fn read_test<I>(dir: &Path, import: &TestImport<I>) -> Result<Vec<I>, String> {
    let manifest = manifest_of(dir)?;
    match manifest["format"].as_str().unwrap_or("") {
        f if f == import.format => {}
        f => {
            return Err(format!(
                "--data {}: an import of format {f:?}, not a {} test import (`{}`)",
                dir.display(),
                import.noun,
                import.command
            ));
        }
    }
    (import.check)(&manifest).map_err(|e| format!("--data {}: {e}", dir.display()))?;
    let path = dir.join(import.file);
    let text = crate::utf8::read(&path)?;
    (import.read)(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The rows of one CSV file of a Sudoku import, checked again, as instances.
fn sudoku_rows(dir: &Path, name: &str) -> Result<Vec<Instance>, String> {
    let path = dir.join(name);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_instances(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The tasks of an `arc` import.
pub fn read_arc(dir: &Path) -> Result<Vec<ArcTask>, String> {
    expect_format(dir, "arc")?;
    let path = dir.join(ARC_FILE);
    let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    arc::file::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}
