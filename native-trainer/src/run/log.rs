//! What a run shows and records as it goes: the progress line (redrawn in place on a terminal,
//! one line each otherwise), the quick-eval lines, `log.csv`, durations.

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

/// The run's learning curve, `log.csv`, appended to; a fresh run writes the `header` first.
pub fn open_log(run_dir: &Path, fresh: bool, header: &str) -> Result<fs::File, String> {
    let mut log = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(run_dir.join("log.csv"))
        .map_err(|e| format!("{}: {e}", run_dir.join("log.csv").display()))?;
    if fresh {
        writeln!(log, "{header}").map_err(|e| e.to_string())?;
    }
    Ok(log)
}

/// Appends one row to `log.csv` (a failed write does not stop training).
pub fn log_row(log: &mut fs::File, row: &str) {
    writeln!(log, "{row}").ok();
}

/// `[#####.......] step/total`.
pub fn bar(step: usize, total: usize) -> String {
    let width = 24;
    let filled = width * step / total.max(1);
    format!("[{}{}] {step}/{total}", "#".repeat(filled), ".".repeat(width - filled))
}

/// Prints the progress line: redrawn in place on a terminal, one line each otherwise.
pub fn show_progress(line: &str) {
    if std::io::stderr().is_terminal() {
        eprint!("\r{line}\x1b[K");
    } else {
        eprintln!("{line}");
    }
}

/// Prints a line between progress lines (below the one a terminal redraws).
pub fn show_event(line: &str) {
    let lead = if std::io::stderr().is_terminal() { "\n" } else { "" };
    eprintln!("{lead}{line}");
}

/// A run's training time: the seconds of earlier invocations plus this one's.
pub struct Clock {
    began: Instant,
    seconds_before: f64,
    start_step: usize,
}

impl Clock {
    /// Starts this invocation's clock at `step`, after `seconds_before` of training.
    pub fn new(seconds_before: f64, start_step: usize) -> Clock {
        Clock { began: Instant::now(), seconds_before, start_step }
    }

    /// Seconds trained in all, this invocation included.
    pub fn seconds(&self) -> f64 {
        self.seconds_before + self.began.elapsed().as_secs_f64()
    }

    /// Seconds per step in this invocation, and the time left to `total`, formatted.
    pub fn rate_and_eta(&self, step: usize, total: usize) -> (f64, String) {
        let rate = self.began.elapsed().as_secs_f64() / step.saturating_sub(self.start_step).max(1) as f64;
        (rate, fmt_duration(rate * total.saturating_sub(step) as f64))
    }
}

pub fn fmt_duration(s: f64) -> String {
    let s = s.max(0.0) as u64;
    if s >= 3600 { format!("{}h{:02}m", s / 3600, (s % 3600) / 60) } else { format!("{}m{:02}s", s / 60, s % 60) }
}
