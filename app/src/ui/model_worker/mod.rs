//! A page's link to the model's Web Worker: sends requests, and keeps what every page shows of
//! the worker (the backend in use, each model's loading state). The page gets every other answer.
//!
//! On the CPU build a page may also have helpers: more workers of the same build, one per spare
//! core, that share a verified run's restarts (the engine's `solve::lane`). The page's worker
//! runs round 0 and shows every step of its lane; when round 0 has verified nothing after the
//! engine's `lane::JOIN_AFTER_STEPS` steps (or is spent, if shorter), each helper starts its
//! own lane of the other rounds, and the first worker to verify ends the run for all. Helpers
//! say nothing else: the page sees one worker that restarts sooner.
//!
//! Any other run of more than one sample is split among the workers by samples (the engine's
//! `solve::share`): each runs its share of the N trajectories, and `ShareMerge` hands the page
//! each step once every share has computed it, the samples in their order, so the page sees the
//! single worker's run, each step taking about 1/k of the time.
//!
//! Unless the URL names a backend, every page starts on the CPU build, and a hardware WebGPU
//! adapter is timed against it in the background after the first run (`choose.rs`, the plain
//! rules in `crate::calibration`); a WebGPU worker that then runs the page's runs is watched, and
//! the CPU takes over if it fails (`crate::gpu_fallback`).

mod choose;
mod fallback;

use std::collections::HashMap;
use std::rc::Rc;

use gloo_worker::{HandlerId, Spawnable, Worker, WorkerBridge, WorkerScope};
use leptos::prelude::*;

use super::status::Load;
use crate::base_path::site_root;
use crate::calibration::CpuRuns;
use crate::gpu_fallback::{FIRST_STEP_DEADLINE_S, GpuWatch, STEP_DEADLINE_S, Verdict};
use crate::gpu_probe::{NO_WEBGPU_BUILD, WorkerBuild, is_served, probe_adapter};
use crate::protocol::{BackendChoice, InjectedFailure, Lane, Request, Response, Share, SolveRequest};
use crate::share_merge::ShareMerge;
use crate::url_state::sampling::{MAX_WORKERS, UNTIL_VERIFIED};
use engine::solve::lane::others_join;

/// The page's view of the model's worker: its message types, nothing else. The worker itself
/// (`crate::worker::ReasonerWorker`) runs in worker_webgpu.js or worker_cpu.js, separate wasm binaries; gloo-worker's
/// bridge only needs the types to encode requests and decode answers, which are the ones that
/// binary registers with, so the page need not link the model (or burn's WebGPU stack).
pub struct RemoteReasoner;

impl Worker for RemoteReasoner {
    type Message = ();
    type Input = Request;
    type Output = Response;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        unreachable!("the model's worker runs in its own wasm binary, never on the page")
    }
    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: ()) {}
    fn received(&mut self, _scope: &WorkerScope<Self>, _msg: Request, _id: HandlerId) {}
}

/// The worker of one page (it ends with the page). `Copy`, so closures capture it.
#[derive(Clone, Copy)]
pub struct ModelWorker {
    /// The worker's bridge once `init` has chosen which build to start.
    bridge: StoredValue<Option<WorkerBridge<RemoteReasoner>>, LocalStorage>,
    /// Requests sent before the worker started, in order.
    pending: StoredValue<Vec<Request>, LocalStorage>,
    on_answer: StoredValue<Rc<dyn Fn(Response)>, LocalStorage>,
    /// The backend's short name for the badge ("WebGPU" or "CPU") and why it was chosen.
    pub backend: RwSignal<Option<(String, String)>>,
    /// Each model's weights, by weights name.
    pub loads: RwSignal<HashMap<String, Load>>,
    /// Helpers asked for (`with_helpers`), started with the CPU build only.
    helpers_wanted: StoredValue<usize>,
    helpers: StoredValue<Vec<WorkerBridge<RemoteReasoner>>, LocalStorage>,
    /// The run whose later restarts the helpers will share, until they get it.
    shared: StoredValue<Option<SolveRequest>, LocalStorage>,
    /// The run whose samples the workers split, while it runs.
    merge: StoredValue<Option<ShareMerge>, LocalStorage>,
    /// Why the CPU build was started when the page wanted WebGPU (the site lacks that build, or
    /// WebGPU failed): said in place of the worker's own reason.
    cpu_because: StoredValue<Option<String>>,
    /// While the WebGPU build runs: what a CPU worker needs to take over (`gpu_fallback`).
    gpu: StoredValue<Option<GpuWatch>, LocalStorage>,
    /// The WebGPU worker's deadline for the next step of the run in flight.
    deadline: StoredValue<Option<gloo_timers::callback::Timeout>, LocalStorage>,
    /// The tag of the worker whose answers the page takes (each started worker gets a new one),
    /// so a replaced worker's late answers are ignored.
    main_tag: StoredValue<u32>,
    next_tag: StoredValue<u32>,
    /// Choosing the backend by measurement (`choose.rs`): the state, the page's CPU runs it
    /// times, the background WebGPU worker and its tag, its deadline.
    choosing: StoredValue<choose::Choosing, LocalStorage>,
    cpu_runs: StoredValue<CpuRuns, LocalStorage>,
    probe: StoredValue<Option<(u32, WorkerBridge<RemoteReasoner>)>, LocalStorage>,
    probe_deadline: StoredValue<Option<gloo_timers::callback::Timeout>, LocalStorage>,
}

/// The most helpers a page starts (so at most this many + 1 workers share restarts).
pub const MAX_HELPERS: usize = MAX_WORKERS - 1;

/// Whether a run's restarts may be shared among workers: a verified run that restarts until a
/// sample passes, nobody changed, started from its first step. (A run with a restart budget
/// ends when its rounds are spent, which the page could not tell from one worker's end; a
/// changed run is numbered over the steps the page shows.)
pub fn shares_restarts(req: &SolveRequest) -> bool {
    req.verified_stop && req.restarts == UNTIL_VERIFIED && req.interventions.is_empty() && req.report_from == 0
}

/// Helpers for a machine with `cores` logical cores: one per core beyond the first (the page's
/// own thread and its worker need one), at most [`MAX_HELPERS`].
pub fn helpers_for(cores: usize) -> usize {
    cores.saturating_sub(1).min(MAX_HELPERS)
}

/// The e2e tests' injected WebGPU failure (the URL's `gpufail=`), for the WebGPU build only.
fn injected_failure() -> Option<InjectedFailure> {
    crate::ui::browser::query_pairs().into_iter().find(|(k, _)| k == "gpufail").and_then(|(_, v)| InjectedFailure::parse(&v))
}

impl ModelWorker {
    /// The page's link; answers other than the backend and loading go to `on_response`. The
    /// worker itself starts with `init`, which knows the backend and so the build to fetch.
    pub fn spawn(on_response: impl Fn(Response) + 'static) -> Self {
        let backend = RwSignal::new(None);
        let loads = RwSignal::new(HashMap::new());
        let set_load = move |model: String, load: Load| {
            loads.update(|l| {
                l.insert(model, load);
            })
        };
        let on_answer: Rc<dyn Fn(Response)> = Rc::new(move |response| match response {
            Response::Backend { name, detail } => backend.set(Some((name, detail))),
            Response::LoadProgress { model, loaded, total } => set_load(model, Load::Loading { loaded, total }),
            Response::Loaded { model, summary } => set_load(model, Load::Ready(summary)),
            Response::LoadFailed { model, message } => set_load(model, Load::Failed(message)),
            other => on_response(other),
        });
        Self {
            bridge: StoredValue::new_local(None),
            pending: StoredValue::new_local(Vec::new()),
            on_answer: StoredValue::new_local(on_answer),
            backend,
            loads,
            helpers_wanted: StoredValue::new(0),
            helpers: StoredValue::new_local(Vec::new()),
            shared: StoredValue::new_local(None),
            merge: StoredValue::new_local(None),
            cpu_because: StoredValue::new(None),
            gpu: StoredValue::new_local(None),
            deadline: StoredValue::new_local(None),
            main_tag: StoredValue::new(0),
            next_tag: StoredValue::new(0),
            choosing: StoredValue::new_local(choose::Choosing::Off),
            cpu_runs: StoredValue::new_local(CpuRuns::default()),
            probe: StoredValue::new_local(None),
            probe_deadline: StoredValue::new_local(None),
        }
    }

    /// Asks for `n` helpers (before `init`; they start only with the CPU build).
    pub fn with_helpers(self, n: usize) -> Self {
        self.helpers_wanted.set_value(n.min(MAX_HELPERS));
        self
    }

    /// Workers that share a run's restarts: the page's own plus its helpers.
    pub fn lanes(self) -> usize {
        1 + self.helpers.with_value(Vec::len)
    }

    /// Which share of its samples the page's worker runs for `request`: share 0 of one per
    /// worker (none empty) for a run not split by restarts, else all of them.
    pub fn share_for(self, request: &SolveRequest) -> Share {
        match Share::count(request.samples, self.lanes()) {
            k if k > 1 && request.lane.lanes == 1 => Share { index: 0, shares: k },
            _ => Share::ALL,
        }
    }

    /// Sends `request` now, or once the worker has started. A run sent as lane 0 of several
    /// whose restarts may be shared: the helpers get their lanes once its round 0 has run
    /// `JOIN_AFTER_STEPS` steps or is spent. A cancel and a load go to the helpers too.
    pub fn send(self, request: Request) {
        let request = match request {
            Request::Solve(req) if req.lane.lanes > 1 && shares_restarts(&req) => {
                self.shared.set_value(Some(req.clone()));
                Request::Solve(req)
            }
            // Share i to helper i; the page's worker runs share 0.
            Request::Solve(req) if req.share.shares > 1 => {
                let shares = req.share.shares;
                self.merge.try_set_value(Some(ShareMerge::new(req.run, shares)));
                self.helpers.try_with_value(|h| {
                    for (i, helper) in h.iter().enumerate().take(shares - 1) {
                        helper.send(Request::Solve(SolveRequest { share: Share { index: i + 1, shares }, ..req.clone() }));
                    }
                });
                Request::Solve(req)
            }
            Request::Cancel { run } => {
                self.to_helpers(|_| Request::Cancel { run });
                Request::Cancel { run }
            }
            Request::Load { model } => {
                self.to_helpers(|_| Request::Load { model: model.clone() });
                Request::Load { model }
            }
            other => other,
        };
        let mut request = Some(request);
        self.bridge.try_with_value(|bridge| {
            if let Some(bridge) = bridge {
                let request = request.take().expect("sent once");
                if self.gpu.try_update_value(|g| g.as_mut().map(|g| g.sent(&request))).flatten().is_none() {
                    self.cpu_runs.try_update_value(|c| c.sent(&request));
                }
                if matches!(request, Request::Solve(_)) {
                    self.arm_deadline(FIRST_STEP_DEADLINE_S);
                }
                bridge.send(request);
            }
        });
        if let Some(request) = request {
            self.pending.try_update_value(|p| p.push(request));
        }
    }

    /// Sends helper `i` (1-based: its lane) `make(i)`.
    fn to_helpers(self, make: impl Fn(usize) -> Request) {
        self.helpers.try_with_value(|h| {
            for (i, helper) in h.iter().enumerate() {
                helper.send(make(i + 1));
            }
        });
    }

    /// Share `share`'s answer about the run the workers split, if it is about that run: merged
    /// (`ShareMerge`), and once the run has ended every worker stops it. False when it is not.
    fn merged(self, share: usize, response: &Response) -> bool {
        let run = match response {
            Response::Step(r) => r.run,
            Response::Done { run, .. } | Response::Failed { run, .. } => *run,
            _ => return false,
        };
        let Some(Some(out)) = self.merge.try_update_value(|m| match m {
            Some(m) if m.run() == run => Some(m.on(share, response.clone())),
            _ => None,
        }) else {
            return false;
        };
        if self.merge.try_with_value(|m| m.as_ref().is_some_and(ShareMerge::is_finished)) == Some(true) {
            self.merge.try_set_value(None);
            self.to_helpers(|_| Request::Cancel { run });
            self.bridge.try_with_value(|b| b.as_ref().map(|b| b.send(Request::Cancel { run })));
        }
        for r in out {
            self.answer(r);
        }
        true
    }

    /// An answer of the page's worker: a shared run's step `JOIN_AFTER_STEPS` of round 0 (or
    /// its first step after round 0) starts the helpers on it, and its end stops them.
    fn on_worker_answer(self, response: Response) {
        match self.gpu.try_update_value(|g| g.as_mut().map(|g| g.answered(&response))).flatten() {
            // After this callback returns: the fallback drops the bridge that called it.
            Some(Verdict::Failed(why)) => return leptos::task::spawn_local(async move { self.fall_back(why) }),
            Some(Verdict::Alive) => self.arm_deadline(STEP_DEADLINE_S),
            Some(Verdict::Idle) => {
                self.deadline.try_set_value(None);
            }
            _ => {}
        }
        let response = match (response, self.cpu_because.try_get_value().flatten()) {
            (Response::Backend { name, .. }, Some(why)) => Response::Backend { name, detail: why },
            (other, _) => other,
        };
        if self.merged(0, &response) {
            return;
        }
        match &response {
            Response::Step(report) if others_join(report.round, report.step) => {
                let start = self.shared.try_update_value(|s| s.take_if(|r| r.run == report.run)).flatten();
                if let Some(req) = start {
                    let lanes = req.lane.lanes;
                    self.to_helpers(|i| Request::Solve(SolveRequest { lane: Lane { index: i, lanes }, ..req.clone() }));
                }
            }
            Response::Done { run, .. } | Response::Failed { run, .. } => self.to_helpers(|_| Request::Cancel { run: *run }),
            _ => {}
        }
        self.answer(response);
    }

    /// An answer of helper `i` (1-based): its share of a split run, or a lane's verified step,
    /// which ends the run everywhere; nothing else counts.
    fn on_helper_answer(self, i: usize, response: Response) {
        if self.merged(i, &response) {
            return;
        }
        if let Response::LaneVerified { report, .. } = &response {
            let run = report.run;
            self.to_helpers(|_| Request::Cancel { run });
            self.bridge.try_with_value(|b| b.as_ref().map(|b| b.send(Request::Cancel { run })));
            self.answer(response);
        }
    }

    fn answer(self, response: Response) {
        if self.gpu.try_with_value(Option::is_none) == Some(true) {
            self.cpu_runs.try_update_value(|c| c.answered(&response));
        }
        if let Some(on_answer) = self.on_answer.try_get_value() {
            on_answer(response);
        }
        self.after_cpu_run();
    }

    /// The first message: start the worker build `backend` needs and have it initialise
    /// `backend`. `auto` starts the CPU build and times WebGPU later (`choose.rs`); `cpu` the
    /// CPU build; `webgpu` asks the browser for an adapter first, and starts the CPU build,
    /// saying why, when there is none or the site has no WebGPU build.
    pub fn init(self, backend: BackendChoice) {
        let init = Request::Init { backend, site_root: site_root(), fail: injected_failure() };
        match backend {
            BackendChoice::Cpu => return self.start(WorkerBuild::Cpu, init),
            BackendChoice::Auto => return self.start_auto(),
            BackendChoice::WebGpu => {}
        }
        leptos::task::spawn_local(async move {
            let adapter = probe_adapter().await;
            let mut build = WorkerBuild::for_choice(backend, adapter.as_ref());
            if build == WorkerBuild::WebGpu && !is_served(&format!("{}/{}", site_root(), build.script())).await {
                self.cpu_because.try_set_value(Some(NO_WEBGPU_BUILD.into()));
                build = WorkerBuild::Cpu;
            }
            self.start(build, init);
        });
    }

    pub(super) fn start(self, build: WorkerBuild, init: Request) {
        // The page may be gone by the time the probe answers.
        if self.on_answer.try_get_value().is_none() {
            return;
        }
        let script = format!("{}/{}", site_root(), build.script());
        let (tag, bridge) = self.spawn_tagged(build);
        self.main_tag.set_value(tag);
        if build == WorkerBuild::WebGpu {
            self.gpu.try_set_value(Some(GpuWatch::default()));
        }
        bridge.send(init.clone());
        if build == WorkerBuild::Cpu {
            let helpers: Vec<_> = (1..=self.helpers_wanted.get_value())
                .map(|i| {
                    let helper = RemoteReasoner::spawner().callback(move |r| self.on_helper_answer(i, r)).spawn(&script);
                    helper.send(init.clone());
                    helper
                })
                .collect();
            self.helpers.try_set_value(helpers);
        }
        self.bridge.try_set_value(Some(bridge));
        // Through `send`, now that the helpers exist: loads reach them and runs get lanes.
        for request in self.pending.try_update_value(std::mem::take).unwrap_or_default() {
            self.send(request);
        }
    }

    /// A new worker of `build` with its tag: its answers reach the page while it is the page's
    /// worker (`main_tag`), and the choice of backend while it is the background WebGPU worker.
    fn spawn_tagged(self, build: WorkerBuild) -> (u32, WorkerBridge<RemoteReasoner>) {
        let tag = self.next_tag.get_value() + 1;
        self.next_tag.set_value(tag);
        let script = format!("{}/{}", site_root(), build.script());
        let bridge = RemoteReasoner::spawner()
            .callback(move |r| {
                if self.main_tag.try_get_value() == Some(tag) {
                    self.on_worker_answer(r)
                } else if self.probe.try_with_value(|p| p.as_ref().map(|p| p.0)).flatten() == Some(tag) {
                    self.on_probe_answer(r)
                }
            })
            .spawn(&script);
        (tag, bridge)
    }

    /// Fetch and verify the weights `model` (no-op when already loaded).
    pub fn load(self, model: &str) {
        self.send(Request::Load { model: model.into() });
    }

    /// The loading state of the weights `model` (tracked).
    pub fn load_of(self, model: &str) -> Option<Load> {
        self.loads.with(|l| l.get(model).cloned())
    }
}
