//! The record of one run of N trajectories, and the status line that reports it.

use crate::protocol::{StepReport, VerifiedStep};

/// One run as the page asked for it, and how it went. `task` is the page's own part: the
/// puzzle, and what the page knows about it (e.g. its solution).
#[derive(Clone, Debug, PartialEq)]
pub struct SampledRun<P> {
    pub id: u64,
    pub task: P,
    /// How the status line names the run, e.g. "GRAM, scale 1.0".
    pub label: String,
    pub samples: usize,
    pub steps: usize,
    pub scale: f64,
    /// `now()` when the run started, ms.
    pub started: f64,
    /// When a first sample was a valid answer (pages that check as steps arrive), ms after start.
    pub first_valid_ms: Option<f64>,
    pub done_ms: Option<f64>,
    /// The run asked for the verified stop.
    pub verified_stop: bool,
    /// Where it verified (the worker's `Done`).
    pub verified: Option<VerifiedStep>,
    pub stopped: bool,
    pub error: Option<String>,
}

impl<P> SampledRun<P> {
    /// Still computing: not done, not failed, not stopped.
    pub fn running(&self) -> bool {
        self.done_ms.is_none() && self.error.is_none() && !self.stopped
    }
}

/// "GRAM, scale 1.0: 20 samples, 3 of 8 steps computed · 41 ms per step · …", or the
/// invitation to press Solve before any run.
pub fn status_line<P>(run: Option<&SampledRun<P>>, reports: &[StepReport]) -> String {
    let Some(r) = run else { return "Press Solve to sample trajectories.".to_string() };
    let arrived = reports.len();
    let mean_ms = if reports.is_empty() { 0.0 } else { reports.iter().map(|s| s.millis).sum::<f64>() / reports.len() as f64 };
    let mut parts = vec![format!(
        "{}: {} sample{}, {} of {} steps computed",
        r.label,
        r.samples,
        if r.samples == 1 { "" } else { "s" },
        arrived,
        r.steps
    )];
    if arrived > 0 {
        parts.push(format!("{mean_ms:.0} ms per step"));
    }
    if let Some(t) = r.first_valid_ms {
        parts.push(format!("first valid board after {:.1} s", t / 1000.0));
    }
    if let Some(v) = r.verified {
        parts.push(format!("verified after {} step{}: sample {} of {} passes the rules", v.step, if v.step == 1 { "" } else { "s" }, v.sample + 1, r.samples));
    } else if r.verified_stop && r.done_ms.is_some() && !r.stopped {
        parts.push("no sample passed the rules: the vote answers".into());
    }
    if let Some(t) = r.done_ms {
        parts.push(format!("done in {:.1} s", t / 1000.0));
    }
    if r.stopped {
        parts.push("stopped".into());
    }
    if let Some(e) = &r.error {
        parts.push(format!("failed: {e}"));
    }
    parts.join(" · ")
}
