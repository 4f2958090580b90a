//! The `solve` contract for every task: puzzles in on stdin, one JSON object per line out.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use serde_json::json;

/// Reads lines from stdin (blank lines skipped) and writes one JSON object per line:
/// `{key: line, ...answer}` or `{key: line, "error": ...}`. A bad line (one that is not UTF-8
/// text included) does not stop the others; the exit code is 1 when any line failed.
pub fn answer_lines(key: &str, mut answer: impl FnMut(&str) -> Result<serde_json::Value, String>) -> Result<ExitCode, String> {
    let mut failed = 0usize;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for (i, bytes) in stdin.lock().split(b'\n').enumerate() {
        let bytes = bytes.map_err(|e| format!("reading stdin: {e}"))?;
        let line = String::from_utf8_lossy(&bytes);
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let mut value = json!({ key: text });
        let answered = match crate::utf8::line_error(i + 1, &bytes) {
            Some(error) => Err(error),
            None => answer(text),
        };
        match answered {
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
