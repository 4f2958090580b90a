//! A failing GPU costs the visitor nothing: what the page's link to a WebGPU worker keeps so that,
//! when WebGPU fails (the device does not start, a step fails, the worker stops answering), the
//! CPU workers take over where it stopped. [`GpuWatch`] follows the weights loaded and the run in
//! flight; on a failure it gives the requests that bring a CPU worker to the same point: the
//! loads, then the run from the step after the last one the page has. The same seed gives the
//! same samples on both backends, so the run goes on as if nothing happened, only slower or
//! faster. Plain Rust, tested natively; `ui/model_worker` acts on it.

use crate::protocol::{Request, Response, SolveRequest};

/// Seconds the WebGPU worker may take for a run's first step (kernel compilation included)
/// before the page gives the run to the CPU.
pub const FIRST_STEP_DEADLINE_S: u32 = 120;
/// Seconds it may take for each later step.
pub const STEP_DEADLINE_S: u32 = 60;

/// What an answer of the WebGPU worker means for the page.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Nothing to do.
    Quiet,
    /// A step of the run in flight arrived: the next one is due within [`STEP_DEADLINE_S`].
    Alive,
    /// The run in flight ended.
    Idle,
    /// WebGPU failed; the sentence says how, for the page.
    Failed(String),
}

/// The loads and the run in flight of a WebGPU worker (module doc).
#[derive(Debug, Default)]
pub struct GpuWatch {
    models: Vec<String>,
    /// The run in flight and the steps the page has of it.
    run: Option<(SolveRequest, usize)>,
}

impl GpuWatch {
    /// `request` went to the WebGPU worker.
    pub fn sent(&mut self, request: &Request) {
        match request {
            Request::Load { model } if !self.models.contains(model) => self.models.push(model.clone()),
            Request::Solve(req) => self.run = Some((req.clone(), 0)),
            Request::Cancel { run } if self.run.as_ref().is_some_and(|(r, _)| r.run <= *run) => self.run = None,
            _ => {}
        }
    }

    /// Whether a run is in flight (its next step is due).
    pub fn running(&self) -> bool {
        self.run.is_some()
    }

    /// What the WebGPU worker's `response` means.
    pub fn answered(&mut self, response: &Response) -> Verdict {
        let current = self.run.as_ref().map(|(r, _)| r.run);
        match response {
            // The WebGPU build started on burn-flex: its device did not start.
            Response::Backend { name, detail } if name != "WebGPU" => Verdict::Failed(detail.clone()),
            Response::Step(report) if Some(report.run) == current => {
                if let Some((_, steps)) = self.run.as_mut() {
                    *steps += 1;
                }
                Verdict::Alive
            }
            Response::Done { run, .. } if Some(*run) == current => {
                self.run = None;
                Verdict::Idle
            }
            Response::Failed { run, message } if Some(*run) == current => {
                let steps = self.run.as_ref().map_or(0, |(r, steps)| r.report_from.max(1) - 1 + steps);
                Verdict::Failed(format!(
                    "WebGPU failed at step {} ({message}), so the run went on from there on the CPU (burn-flex, wasm)",
                    steps + 1
                ))
            }
            _ => Verdict::Quiet,
        }
    }

    /// The sentence for a WebGPU worker that did not answer in time.
    pub fn timed_out(&self) -> String {
        let (first, steps) = self.run.as_ref().map_or((true, 0), |(_, s)| (*s == 0, *s));
        let limit = if first { FIRST_STEP_DEADLINE_S } else { STEP_DEADLINE_S };
        format!(
            "WebGPU did not answer within {limit} s (after {steps} step{} of the run), so the run went on on the CPU (burn-flex, wasm)",
            if steps == 1 { "" } else { "s" }
        )
    }

    /// What brings a CPU worker to where the WebGPU worker stopped: every load, then the run in
    /// flight from the step after the last one the page has (its earlier steps are shown).
    pub fn handover(self) -> Vec<Request> {
        let mut out: Vec<Request> = self.models.into_iter().map(|model| Request::Load { model }).collect();
        if let Some((req, steps)) = self.run {
            let report_from = req.report_from.max(1) + steps;
            out.push(Request::Solve(SolveRequest { report_from, ..req }));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Knobs, StepReport};

    fn request(report_from: usize) -> SolveRequest {
        SolveRequest { report_from, ..SolveRequest::new(4, "gram-nqueens8", ".".repeat(64), Knobs::paper(4, 8)) }
    }

    fn step(run: u64) -> Response {
        Response::Step(StepReport::empty(run, 0, 1, 1.0))
    }

    #[test]
    fn a_failed_step_hands_the_loads_and_the_rest_of_the_run_to_the_cpu() {
        let mut w = GpuWatch::default();
        w.sent(&Request::Load { model: "gram-nqueens8".into() });
        w.sent(&Request::Load { model: "gram-nqueens8".into() });
        w.sent(&Request::Solve(request(0)));
        assert!(w.running());
        assert_eq!(w.answered(&step(4)), Verdict::Alive);
        assert_eq!(w.answered(&step(3)), Verdict::Quiet, "another run's step");
        assert_eq!(w.answered(&step(4)), Verdict::Alive);
        let Verdict::Failed(why) = w.answered(&Response::Failed { run: 4, message: "device lost".into() }) else { panic!() };
        assert!(why.starts_with("WebGPU failed at step 3 (device lost)") && why.contains("on the CPU"), "{why}");
        let out = w.handover();
        assert_eq!(out.len(), 2, "one load, then the run");
        assert!(matches!(&out[0], Request::Load { model } if model == "gram-nqueens8"));
        let Request::Solve(resumed) = &out[1] else { panic!() };
        assert_eq!((resumed.run, resumed.report_from), (4, 3), "from the step after the two shown");
    }

    #[test]
    fn a_replayed_run_resumes_after_its_own_steps_and_a_cpu_start_is_a_failure() {
        let mut w = GpuWatch::default();
        w.sent(&Request::Solve(request(5)));
        w.answered(&step(4));
        assert!(matches!(&w.timed_out()[..], t if t.contains("within 60 s (after 1 step of the run)")));
        let Request::Solve(resumed) = &GpuWatch { run: w.run.take(), models: vec![] }.handover()[0] else { panic!() };
        assert_eq!(resumed.report_from, 6);
        let mut w = GpuWatch::default();
        assert!(w.timed_out().contains("within 120 s"));
        let cpu = Response::Backend { name: "CPU".into(), detail: "WebGPU did not start (lost)".into() };
        assert_eq!(w.answered(&cpu), Verdict::Failed("WebGPU did not start (lost)".into()));
        assert_eq!(w.answered(&Response::Backend { name: "WebGPU".into(), detail: "GPU".into() }), Verdict::Quiet);
        w.sent(&Request::Solve(request(0)));
        w.sent(&Request::Cancel { run: 4 });
        assert!(!w.running() && w.handover().is_empty());
    }
}
