//! Text output the commands share: the `solve` contract (stdin lines in, one JSON object per
//! line out) and the note the eval lines print about settled steps.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use engine::gram::SampleOptions;
use serde_json::json;

/// How the eval line names the settled steps: "" or " (the last 2 without noise)".
pub fn settle_note(options: &SampleOptions) -> String {
    match options.settle_steps() {
        0 => String::new(),
        s => format!(" (the last {s} without noise)"),
    }
}

/// The `solve` contract for every task: reads puzzles from stdin, one per line (blank lines
/// skipped), and writes one JSON object per line: `{"puzzle": line, ...answer}` or
/// `{"puzzle": line, "error": ...}`. A bad line does not stop the others; the exit code is 1
/// when any line failed.
pub fn answer_lines(answer: impl FnMut(&str) -> Result<serde_json::Value, String>) -> Result<ExitCode, String> {
    answer_lines_keyed("puzzle", answer)
}

/// [`answer_lines`] with the input echoed under `key` (`input` for trees).
pub fn answer_lines_keyed(
    key: &str,
    mut answer: impl FnMut(&str) -> Result<serde_json::Value, String>,
) -> Result<ExitCode, String> {
    let mut failed = 0usize;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let mut value = json!({ key: text });
        match answer(text) {
            Err(error) => {
                failed += 1;
                value["error"] = error.into();
            }
            Ok(serde_json::Value::Object(fields)) => value.as_object_mut().expect("an object").extend(fields),
            Ok(other) => unreachable!("an answer is a JSON object, not {other}"),
        }
        writeln!(out, "{value}").map_err(|e| e.to_string())?;
        out.flush().ok();
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
