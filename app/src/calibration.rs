//! The backend chosen by measurement. Every page starts on the CPU workers (the small download,
//! the first board at once). Where the browser has a hardware WebGPU adapter, a WebGPU worker
//! loads in the background once the page's first run has ended and times the same model, at the
//! same number of samples, for [`WARM_UP_STEPS`] + [`TIMED_STEPS`] steps; later runs move to
//! WebGPU only when its step is faster than the CPU workers' together. The figures are
//! remembered in the browser (localStorage, [`Timing::key`]) for that model, sample count, worker
//! count and adapter, and timed again when one of them changes.
//!
//! Each side's figure is the worker's own time per step (forward pass and read-back, the step
//! reports' `millis`; for a run split among CPU workers, the slowest share's), the median over
//! its steps after the first: WebGPU's first step compiles its kernels, and the CPU's warms its
//! caches. Plain Rust, tested natively; the page's link to its workers (`ui/model_worker`) acts
//! on it.

use serde::{Deserialize, Serialize};

use crate::protocol::{Lane, Request, Response, Share, SolveRequest};

/// Steps of the timing run left out of its figure (WebGPU compiles its kernels in the first).
pub const WARM_UP_STEPS: usize = 1;
/// Steps of the timing run that give its figure.
pub const TIMED_STEPS: usize = 3;
/// Milliseconds after a CPU run has ended (and no other runs) before the timing starts: the page
/// has drawn the run, and a first visit fetches nothing more until then.
pub const AFTER_RUN_MS: u32 = 1500;
/// Seconds the WebGPU worker may take to load the weights and run the timing run.
pub const DEADLINE_S: u32 = 180;

/// What one timing found, as remembered in the browser.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Timing {
    pub model: String,
    pub samples: usize,
    /// CPU workers that split the CPU run's samples.
    pub workers: usize,
    /// The WebGPU adapter's name.
    pub adapter: String,
    pub webgpu_ms: f64,
    pub cpu_ms: f64,
}

impl Timing {
    /// Where the browser keeps the timing of `model`.
    pub fn key(model: &str) -> String {
        format!("latent-playground.backend.{model}")
    }

    /// The remembered timing `stored` (the text under [`Timing::key`]), if it was measured for
    /// this run's model, samples and workers on this adapter.
    pub fn remembered(stored: Option<&str>, cpu: &CpuRun, adapter: &str) -> Option<Timing> {
        let t: Timing = serde_json::from_str(stored?).ok()?;
        let fits = t.model == cpu.request.model && t.samples == cpu.request.samples && t.workers == cpu.workers && t.adapter == adapter;
        (fits && t.webgpu_ms.is_finite() && t.cpu_ms.is_finite()).then_some(t)
    }

    /// The text to remember it by.
    pub fn stored(&self) -> String {
        serde_json::to_string(self).expect("a timing serialises")
    }

    pub fn webgpu_faster(&self) -> bool {
        self.webgpu_ms < self.cpu_ms
    }

    /// The badge's sentence: "WebGPU 41 ms a step, CPU 180 ms on 2 workers: WebGPU (…)".
    pub fn sentence(&self, remembered: bool) -> String {
        let on = if self.workers > 1 { format!(" on {} workers", self.workers) } else { String::new() };
        let (side, why) = if self.webgpu_faster() { ("WebGPU", "faster") } else { ("CPU", "not slower") };
        let when = if remembered { "timed on an earlier visit in this browser" } else { "timed in the background after the first run" };
        format!(
            "WebGPU {:.0} ms a step, CPU {:.0} ms{on}: {side}, the {why} ({} samples of {}, {when}; WebGPU adapter: {})",
            self.webgpu_ms, self.cpu_ms, self.samples, self.model, self.adapter
        )
    }
}

/// The median of a run's step times after its first (all of them when there is one), ms.
pub fn step_ms(millis: &[f64]) -> Option<f64> {
    let mut m: Vec<f64> = millis.get(WARM_UP_STEPS.min(millis.len().saturating_sub(1))..)?.to_vec();
    if m.is_empty() {
        return None;
    }
    m.sort_by(f64::total_cmp);
    let mid = m.len() / 2;
    Some(if m.len() % 2 == 1 { m[mid] } else { (m[mid - 1] + m[mid]) / 2.0 })
}

/// A run the CPU workers finished: what WebGPU is timed against.
#[derive(Clone, Debug, PartialEq)]
pub struct CpuRun {
    pub request: SolveRequest,
    /// Its step times, ms, in order.
    pub millis: Vec<f64>,
    /// Workers that split its samples.
    pub workers: usize,
}

impl CpuRun {
    /// The same model and samples for the timing run (numbered `run`): the puzzle and seed as
    /// given, no stop, no restarts, no changes, the timed steps whatever the run's own count.
    pub fn timing_request(&self) -> SolveRequest {
        SolveRequest {
            steps: WARM_UP_STEPS + TIMED_STEPS,
            verified_stop: false,
            restarts: 0,
            interventions: Vec::new(),
            report_from: 0,
            lane: Lane::ALONE,
            share: Share::ALL,
            ..self.request.clone()
        }
    }
}

/// The page's runs on the CPU workers, followed to find one that ended with its steps timed, and
/// to know whether one is in flight (the page moves to WebGPU only between runs).
#[derive(Debug, Default)]
pub struct CpuRuns {
    /// The run computing, if any.
    flight: Option<u64>,
    /// The run being timed and its step times so far.
    timed: Option<(SolveRequest, Vec<f64>)>,
    ended: Option<CpuRun>,
}

impl CpuRuns {
    /// `request` went to the CPU workers.
    pub fn sent(&mut self, request: &Request) {
        match request {
            Request::Solve(req) => {
                self.flight = Some(req.run);
                // A changed run replays steps the page already has: not a clean timing.
                let clean = req.report_from == 0 && req.interventions.is_empty();
                self.timed = clean.then(|| (req.clone(), Vec::new()));
            }
            Request::Cancel { run } => self.end(*run),
            _ => {}
        }
    }

    /// What the page got (after the shares are merged).
    pub fn answered(&mut self, response: &Response) {
        match response {
            Response::Step(report) => {
                if let Some((_, millis)) = self.timed.as_mut().filter(|(r, _)| r.run == report.run) {
                    millis.push(report.millis);
                }
            }
            Response::LaneVerified { report, .. } => self.end(report.run),
            Response::Done { run, .. } => self.end(*run),
            Response::Failed { run, .. } => {
                self.timed.take_if(|(r, _)| r.run == *run);
                self.end(*run);
            }
            _ => {}
        }
    }

    fn end(&mut self, run: u64) {
        self.flight.take_if(|f| *f == run);
        if let Some((request, millis)) = self.timed.take_if(|(r, _)| r.run == run).filter(|(_, m)| !m.is_empty()) {
            let workers = request.share.shares.max(request.lane.lanes);
            self.ended = Some(CpuRun { request, millis, workers });
        }
    }

    /// Whether a run is computing on the CPU workers.
    pub fn in_flight(&self) -> bool {
        self.flight.is_some()
    }

    /// The newest run that ended with timed steps, once.
    pub fn take_ended(&mut self) -> Option<CpuRun> {
        self.ended.take()
    }
}

/// What an answer of the background WebGPU worker means.
#[derive(Debug, PartialEq)]
pub enum ProbeStep {
    Wait,
    /// The figures are in (or were remembered and the weights are now loaded).
    Decided(Timing),
    /// WebGPU failed; the sentence says how, for the badge.
    Failed(String),
}

/// The background WebGPU worker while it loads the page's weights and times the run.
#[derive(Debug)]
pub struct Probe {
    cpu: CpuRun,
    adapter: String,
    /// The weights it loads, the run's first.
    models: Vec<String>,
    /// Those not loaded yet.
    loading: Vec<String>,
    /// A remembered timing: nothing to time, only the weights to load.
    remembered: Option<Timing>,
    millis: Vec<f64>,
}

impl Probe {
    /// Times `cpu`'s model on WebGPU, after loading `models` (the page's weights, the run's first).
    pub fn timing(cpu: CpuRun, adapter: String, models: Vec<String>) -> Self {
        Self::new(cpu, adapter, None, models)
    }

    /// Loads `models` for a WebGPU already timed faster (`remembered`).
    pub fn loading(cpu: CpuRun, remembered: Timing, models: Vec<String>) -> Self {
        let adapter = remembered.adapter.clone();
        Self::new(cpu, adapter, Some(remembered), models)
    }

    fn new(cpu: CpuRun, adapter: String, remembered: Option<Timing>, mut models: Vec<String>) -> Self {
        models.retain(|m| *m != cpu.request.model);
        models.insert(0, cpu.request.model.clone());
        Self { loading: models.clone(), models, cpu, adapter, remembered, millis: Vec::new() }
    }

    /// What the WebGPU worker is sent after its `Init`: the loads, then the timing run.
    pub fn requests(&self) -> Vec<Request> {
        let mut out: Vec<Request> = self.models.iter().map(|model| Request::Load { model: model.clone() }).collect();
        if self.remembered.is_none() {
            out.push(Request::Solve(self.cpu.timing_request()));
        }
        out
    }

    /// Whether it applies a remembered timing rather than timing.
    pub fn remembered(&self) -> bool {
        self.remembered.is_some()
    }

    /// The weights the WebGPU worker holds once decided.
    pub fn models(&self) -> &[String] {
        &self.models
    }

    /// What the WebGPU worker's `response` means.
    pub fn answered(&mut self, response: &Response) -> ProbeStep {
        let run = self.cpu.request.run;
        match response {
            Response::Backend { name, detail } if name != "WebGPU" => {
                ProbeStep::Failed(format!("WebGPU did not start for its timing run ({detail}), so the CPU goes on"))
            }
            Response::LoadFailed { model, message } => {
                ProbeStep::Failed(format!("WebGPU could not load {model} for its timing run ({message}), so the CPU goes on"))
            }
            Response::Failed { run: r, message } if *r == run => {
                ProbeStep::Failed(format!("WebGPU failed its timing run ({message}), so the CPU goes on"))
            }
            Response::Loaded { model, .. } => {
                self.loading.retain(|m| m != model);
                match &self.remembered {
                    Some(t) if self.loading.is_empty() => ProbeStep::Decided(t.clone()),
                    _ => ProbeStep::Wait,
                }
            }
            Response::Step(report) if report.run == run && self.remembered.is_none() => {
                self.millis.push(report.millis);
                ProbeStep::Wait
            }
            Response::Done { run: r, .. } if *r == run && self.remembered.is_none() => {
                match (step_ms(&self.millis), step_ms(&self.cpu.millis)) {
                    (Some(webgpu_ms), Some(cpu_ms)) => ProbeStep::Decided(Timing {
                        model: self.cpu.request.model.clone(),
                        samples: self.cpu.request.samples,
                        workers: self.cpu.workers,
                        adapter: self.adapter.clone(),
                        webgpu_ms,
                        cpu_ms,
                    }),
                    _ => ProbeStep::Failed("WebGPU's timing run ended without a step, so the CPU goes on".into()),
                }
            }
            _ => ProbeStep::Wait,
        }
    }
}

#[cfg(test)]
#[path = "calibration_tests.rs"]
mod tests;
