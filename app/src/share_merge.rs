//! One run whose samples several workers split (the engine's `solve::share`): each worker
//! answers for its share, and the page must see the one run a single worker would have shown.
//! [`ShareMerge`] puts the shares' answers back together: step j goes to the page once every
//! share has sent its step j, its samples in share order (so in the run's own order), its time
//! the slowest share's (they ran side by side). The run ends at the first step where any share
//! verified a sample (the lowest share's sample, as a single worker's first passing row), when
//! every share is done, or at the first failure. Plain Rust, tested natively.

use crate::protocol::{Response, StepReport, VerifiedStep};

/// The merge of one run's shares (module doc).
#[derive(Debug)]
pub struct ShareMerge {
    run: u64,
    /// Each share's steps that arrived and are not merged yet, oldest first.
    waiting: Vec<Vec<StepReport>>,
    /// Each share's `Done` (steps, ms), once it came.
    done: Vec<Option<(usize, f64)>>,
    /// The step where the merged run verified, once merged: its `Done` follows.
    verified: Option<VerifiedStep>,
    /// Merged steps sent to the page.
    merged: usize,
    finished: bool,
}

impl ShareMerge {
    /// The merge of run `run` split into `shares` shares.
    pub fn new(run: u64, shares: usize) -> Self {
        assert!(shares > 0, "a run has a share");
        Self { run, waiting: vec![Vec::new(); shares], done: vec![None; shares], verified: None, merged: 0, finished: false }
    }

    pub fn run(&self) -> u64 {
        self.run
    }

    /// The run has ended (its `Done` or `Failed` was given out): the shares still running can be
    /// cancelled and their later answers ignored.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// What the page gets for share `share`'s `response` (nothing until every share has sent a
    /// step; answers of another run, or after the end, are ignored).
    pub fn on(&mut self, share: usize, response: Response) -> Vec<Response> {
        if self.finished || share >= self.waiting.len() {
            return Vec::new();
        }
        let mut out = Vec::new();
        match response {
            Response::Step(report) if report.run == self.run => {
                self.waiting[share].push(report);
                while self.verified.is_none() && self.waiting.iter().all(|w| !w.is_empty()) {
                    let parts: Vec<StepReport> = self.waiting.iter_mut().map(|w| w.remove(0)).collect();
                    let step = merge(parts);
                    self.merged += 1;
                    self.verified = step.verified;
                    out.push(Response::Step(step));
                }
            }
            Response::Done { run, steps, millis, .. } if run == self.run => self.done[share] = Some((steps, millis)),
            Response::Failed { run, message } if run == self.run => {
                self.finished = true;
                return vec![Response::Failed { run, message }];
            }
            _ => return Vec::new(),
        }
        // The end: at the verified step, or once every share has run all its steps and sent them.
        let all_done = self.done.iter().all(Option::is_some) && self.waiting.iter().all(Vec::is_empty);
        if self.verified.is_some() || all_done {
            let millis = self.done.iter().flatten().map(|d| d.1).fold(0.0, f64::max);
            let steps = self.done.iter().flatten().map(|d| d.0).max().unwrap_or(self.merged);
            self.finished = true;
            out.push(Response::Done { run: self.run, steps, millis, verified: self.verified });
        }
        out
    }
}

/// One step of every share, as a single worker would have reported it.
fn merge(parts: Vec<StepReport>) -> StepReport {
    let mut parts = parts.into_iter();
    let mut step = parts.next().expect("a share");
    for p in parts {
        debug_assert_eq!((p.round, p.step), (step.round, step.step), "the shares run the same steps");
        step.boards.extend(p.boards);
        step.probs.extend(p.probs);
        step.values.extend(p.values);
        step.latents.extend(p.latents);
        step.halt_logits.extend(p.halt_logits);
        step.millis = step.millis.max(p.millis);
        // The lowest share's sample: the first passing row of the whole run.
        step.verified = step.verified.or(p.verified);
    }
    step
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(share: usize, step: usize, verified: Option<usize>) -> Response {
        Response::Step(StepReport {
            run: 3,
            round: 0,
            step,
            boards: vec![format!("s{share}a"), format!("s{share}b")],
            probs: vec![vec![share as f32]; 2],
            values: vec![0.5; 2],
            scale: 1.0,
            latents: vec![vec![]; 2],
            halt_logits: vec![0.0; 2],
            millis: 10.0 + share as f64,
            verified: verified.map(|sample| VerifiedStep { round: 0, step, sample }),
        })
    }

    fn done(steps: usize) -> Response {
        Response::Done { run: 3, steps, millis: 100.0, verified: None }
    }

    fn boards(r: &Response) -> Vec<String> {
        match r {
            Response::Step(s) => s.boards.clone(),
            other => panic!("not a step: {other:?}"),
        }
    }

    #[test]
    fn a_step_is_sent_once_every_share_has_it_in_share_order() {
        let mut m = ShareMerge::new(3, 2);
        assert!(m.on(1, step(1, 1, None)).is_empty(), "share 0 has not sent step 1");
        assert!(m.on(1, step(1, 2, None)).is_empty());
        let out = m.on(0, step(0, 1, None));
        assert_eq!(out.len(), 1);
        assert_eq!(boards(&out[0]), ["s0a", "s0b", "s1a", "s1b"]);
        let Response::Step(s) = &out[0] else { unreachable!() };
        assert_eq!((s.millis, s.probs.len()), (11.0, 4), "the slowest share's time");
        assert_eq!(boards(&m.on(0, step(0, 2, None))[0]), ["s0a", "s0b", "s1a", "s1b"]);
        assert!(m.on(0, done(2)).is_empty(), "share 1 is not done");
        let out = m.on(1, done(2));
        assert!(matches!(out[..], [Response::Done { run: 3, steps: 2, verified: None, .. }]));
        assert!(m.is_finished() && m.on(1, step(1, 3, None)).is_empty());
    }

    #[test]
    fn the_first_step_any_share_verifies_at_ends_the_run_there() {
        let mut m = ShareMerge::new(3, 3);
        for s in [0, 2] {
            m.on(s, step(s, 1, None));
        }
        // Share 2 verifies at step 2 (sample 5), share 1 at step 2 too (sample 3): sample 3 wins.
        m.on(2, step(2, 2, Some(5)));
        m.on(2, done(2));
        m.on(1, step(1, 1, None));
        m.on(1, step(1, 2, Some(3)));
        let out = m.on(0, step(0, 2, None));
        assert_eq!(out.len(), 2, "the step, then the end: {out:?}");
        let Response::Step(s) = &out[0] else { unreachable!() };
        assert_eq!(s.verified.map(|v| v.sample), Some(3));
        assert!(matches!(out[1], Response::Done { verified: Some(VerifiedStep { sample: 3, step: 2, .. }), .. }));
        assert!(m.is_finished() && m.on(0, step(0, 3, None)).is_empty());
    }

    #[test]
    fn a_failure_ends_the_run_and_other_runs_are_ignored() {
        let mut m = ShareMerge::new(3, 2);
        let other = Response::Step(StepReport {
            run: 2,
            ..match step(0, 1, None) {
                Response::Step(s) => s,
                _ => unreachable!(),
            }
        });
        assert!(m.on(0, other).is_empty());
        let out = m.on(1, Response::Failed { run: 3, message: "lost".into() });
        assert!(matches!(&out[..], [Response::Failed { run: 3, .. }]) && m.is_finished());
    }
}
