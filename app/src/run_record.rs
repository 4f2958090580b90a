//! The record of one run of N trajectories, and the status line that reports it (the pages'
//! `ui::trajectories::record`; plain Rust, so its wording is tested natively).

use engine::solve::Copies;

use crate::protocol::{SolveRequest, StepReport, VerifiedStep};
use crate::url_state::sampling::UNTIL_VERIFIED;

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
    /// Restarts it may take when a budget verifies nothing (0 without the stop;
    /// [`UNTIL_VERIFIED`]: until a sample passes or Stop).
    pub restarts: usize,
    /// What the rounds solve: the puzzle as given, or shuffled copies of it.
    pub copies: Copies,
    /// Where it verified (the worker's `Done`).
    pub verified: Option<VerifiedStep>,
    pub stopped: bool,
    pub error: Option<String>,
    /// Not computed here: a run recorded ahead from the shipped weights (`public/runs/`), shown
    /// while the model loads.
    pub recorded: bool,
    /// Workers sharing the run's restarts (1: the page's worker alone; `ModelWorker::lanes`).
    pub lanes: usize,
    /// Workers splitting the run's samples (1: the page's worker alone; `ModelWorker::share_for`).
    pub shares: usize,
}

impl<P> SampledRun<P> {
    /// The run `request` starts, as the page shows it: its settings are the request's, so the
    /// two are built once, from one place. `started` is `now()` in ms.
    pub fn of(request: &SolveRequest, task: P, label: String, started: f64) -> SampledRun<P> {
        SampledRun {
            id: request.run,
            task,
            label,
            samples: request.samples,
            steps: request.steps,
            scale: request.guidance_scale,
            started,
            first_valid_ms: None,
            done_ms: None,
            verified_stop: request.verified_stop,
            restarts: request.restarts,
            copies: request.copies,
            verified: None,
            stopped: false,
            error: None,
            recorded: false,
            lanes: request.lane.lanes,
            shares: request.share.shares,
        }
    }

    /// Still computing: not done, not failed, not stopped.
    pub fn running(&self) -> bool {
        self.done_ms.is_none() && self.error.is_none() && !self.stopped
    }
}

/// "verified after 3 steps", or "verified after 3 steps of restart 1" when it took a restart.
pub fn verified_after(v: &VerifiedStep) -> String {
    let steps = format!("verified after {} step{}", v.step, if v.step == 1 { "" } else { "s" });
    if v.round == 0 { steps } else { format!("{steps} of restart {}", v.round) }
}

/// "GRAM, scale 1.0: 20 samples, 3 of 8 steps computed · 41 ms per step · …", or the
/// invitation to press Solve before any run. With restarts, the step count is the current
/// round's, and a restart says which it is and the steps of every round together.
pub fn status_line<P>(run: Option<&SampledRun<P>>, reports: &[StepReport]) -> String {
    let Some(r) = run else { return "Press Solve to sample trajectories.".to_string() };
    let arrived = reports.len();
    let round = reports.last().map_or(0, |s| s.round);
    // The newest step's own number: another worker's verified step arrives alone from its round.
    let in_round = reports.last().map_or(0, |s| s.step);
    let mean_ms = if reports.is_empty() { 0.0 } else { reports.iter().map(|s| s.millis).sum::<f64>() / reports.len() as f64 };
    let mut parts = vec![format!(
        "{}: {} sample{}, {} of {} steps computed",
        r.label,
        r.samples,
        if r.samples == 1 { "" } else { "s" },
        in_round,
        r.steps
    )];
    if !r.verified_stop && r.copies == Copies::Samples {
        parts.push("each sample on its own copy of the input (the first as given)".into());
    }
    if round > 0 {
        let of = if r.restarts == UNTIL_VERIFIED {
            ", going on until a sample passes or you press Stop,".to_string()
        } else {
            format!(" of {}", r.restarts)
        };
        let on = match r.copies {
            Copies::None => "",
            Copies::Restarts => " on a shuffled copy of the puzzle",
            Copies::Samples => " on shuffled copies of the puzzle",
        };
        if r.lanes > 1 {
            parts.push(format!("restart {round}{of}{on} ({arrived} steps shown; {} workers take turns at the restarts)", r.lanes));
        } else {
            parts.push(format!("restart {round}{of}{on} ({arrived} steps in all)"));
        }
    }
    if r.recorded {
        parts.push("recorded ahead from the shipped weights (native-trainer record), shown while the model loads".into());
    } else if arrived > 0 {
        parts.push(match r.shares {
            1 => format!("{mean_ms:.0} ms per step"),
            k => format!("{mean_ms:.0} ms per step on {k} workers, the samples split among them"),
        });
    }
    if let Some(t) = r.first_valid_ms {
        parts.push(format!("first valid board after {:.1} s", t / 1000.0));
    }
    if let Some(v) = r.verified {
        parts.push(format!("{}: sample {} of {} passes the rules", verified_after(&v), v.sample + 1, r.samples));
    } else if r.verified_stop && r.done_ms.is_some() && !r.stopped {
        parts.push(match round {
            0 => "no sample passed the rules: the vote answers".to_string(),
            _ => format!("no sample passed the rules in {} rounds: the last round's vote answers", round + 1),
        });
    }
    if let Some(t) = r.done_ms.filter(|_| !r.recorded) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Knobs;

    fn report(round: usize, step: usize) -> StepReport {
        StepReport::empty(1, round, step, 10.0)
    }

    fn run(verified: Option<VerifiedStep>) -> SampledRun<()> {
        SampledRun {
            id: 1,
            task: (),
            label: "GRAM, scale 3.0".into(),
            samples: 20,
            steps: 8,
            scale: 3.0,
            started: 0.0,
            first_valid_ms: None,
            done_ms: Some(2500.0),
            verified_stop: true,
            restarts: 2,
            copies: Copies::None,
            verified,
            stopped: false,
            error: None,
            recorded: false,
            lanes: 1,
            shares: 1,
        }
    }

    /// A run shown for a request carries the request's settings, so what the status line says
    /// is what the worker was asked.
    #[test]
    fn a_run_takes_its_settings_from_its_request() {
        let knobs =
            Knobs { guidance_scale: 0.5, seed: 3, verified_stop: true, restarts: 4, copies: Copies::Samples, ..Knobs::paper(12, 9) };
        let request = SolveRequest {
            lane: crate::protocol::Lane { index: 0, lanes: 3 },
            share: crate::protocol::Share { index: 0, shares: 2 },
            ..SolveRequest::new(7, "gram-sudoku", ".".repeat(81), knobs)
        };
        let r = SampledRun::of(&request, (), "GRAM, scale 0.5".into(), 100.0);
        assert_eq!((r.id, r.samples, r.steps, r.scale, r.restarts, r.lanes, r.started), (7, 12, 9, 0.5, 4, 3, 100.0));
        assert_eq!(r.shares, 2);
        assert!(r.verified_stop && r.copies == Copies::Samples && r.running() && !r.recorded);
    }

    #[test]
    fn a_first_round_stop_reads_as_before_and_a_restart_is_named() {
        let first = [report(0, 1), report(0, 2), report(0, 3)];
        let v = VerifiedStep { round: 0, step: 3, sample: 4 };
        let line = status_line(Some(&run(Some(v))), &first);
        assert!(line.starts_with("GRAM, scale 3.0: 20 samples, 3 of 8 steps computed · 10 ms per step"), "{line}");
        assert!(line.contains("verified after 3 steps: sample 5 of 20 passes the rules"), "{line}");
        assert!(!line.contains("restart"), "{line}");
        let split = SampledRun { shares: 2, ..run(Some(v)) };
        let line = status_line(Some(&split), &first);
        assert!(line.contains("· 10 ms per step on 2 workers, the samples split among them ·"), "{line}");
        let mut both: Vec<_> = (1..=8).map(|s| report(0, s)).collect();
        both.extend([report(1, 1), report(1, 2)]);
        let v = VerifiedStep { round: 1, step: 2, sample: 0 };
        let line = status_line(Some(&run(Some(v))), &both);
        assert!(line.contains("2 of 8 steps computed · restart 1 of 2 (10 steps in all)"), "{line}");
        assert!(line.contains("verified after 2 steps of restart 1: sample 1 of 20 passes the rules"), "{line}");
        let mut all: Vec<_> = (0..3).flat_map(|r| (1..=8).map(move |s| report(r, s))).collect();
        all.truncate(24);
        let line = status_line(Some(&run(None)), &all);
        assert!(line.contains("restart 2 of 2 (24 steps in all)") && line.contains("no sample passed the rules in 3 rounds"), "{line}");
        let going_on = SampledRun { restarts: UNTIL_VERIFIED, copies: Copies::Samples, done_ms: None, ..run(None) };
        let line = status_line(Some(&going_on), &all[..19]);
        assert!(line.contains("3 of 8 steps computed · restart 2, going on until a sample passes or you press Stop, on shuffled copies of the puzzle (19 steps in all)"), "{line}");
        // Two workers: the second's verified step of restart 4 arrives after the first's restart 3.
        let mut shared: Vec<_> = all[..19].to_vec();
        shared.extend((1..=8).map(|s| report(3, s)));
        shared.push(report(4, 5));
        let v = VerifiedStep { round: 4, step: 5, sample: 2 };
        let two = SampledRun { restarts: UNTIL_VERIFIED, copies: Copies::Samples, lanes: 2, ..run(Some(v)) };
        let line = status_line(Some(&two), &shared);
        assert!(line.contains("5 of 8 steps computed · restart 4, going on until a sample passes or you press Stop, on shuffled copies of the puzzle (28 steps shown; 2 workers take turns at the restarts)"), "{line}");
        assert!(line.contains("verified after 5 steps of restart 4: sample 3 of 20 passes the rules"), "{line}");
        // A copy per sample without the stop (the paper's sampler on copies: /coloring) says so.
        let copied = SampledRun { verified_stop: false, restarts: 0, copies: Copies::Samples, ..run(None) };
        let line = status_line(Some(&copied), &first);
        assert!(
            line.contains("3 of 8 steps computed · each sample on its own copy of the input (the first as given) · 10 ms per step"),
            "{line}"
        );
        let recorded = SampledRun { recorded: true, ..run(None) };
        let line = status_line(Some(&recorded), &first);
        assert!(
            line.contains("recorded ahead from the shipped weights") && !line.contains("ms per step") && !line.contains("done in"),
            "{line}"
        );
    }
}
