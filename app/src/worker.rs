//! The model's Web Worker: picks the backend, fetches and verifies weights, runs trajectories
//! and streams one [`StepReport`] per supervision step. All maths is the engine's.
//!
//! Requests are handled one at a time in arrival order (a solve waits for its weights), except
//! `Cancel` and a newer `Solve`, which take effect at once: a running solve checks, after each
//! step, whether it is still the latest run. Between steps the worker takes a turn of its event
//! loop (`worker/turn.rs`, not a timer, which browsers clamp to 4 ms) so those messages are
//! received while a run is in flight.
//!
//! The manifest's `model` says what a request loads: `jepa-reasoner` weights as a Reasoner with
//! its Talker (`Request::Reason`, answered by `Response::Reasoned`; `worker/tree.rs`),
//! `cfg-models` as the grammar study's T, C and R (`Request::Explore`, answered by `Explored` and
//! `CurvePoint`s; `worker/grammar.rs`), `/jepa`'s training through `Request::Live`
//! (`worker/live.rs`), `/train`'s through `Request::Train` (`worker/train.rs`), everything else
//! as GRAM/TRM through the engine's `LiveRun`. The tree and grammar models and the two pages'
//! training always run on burn-flex, whatever backend the page chose: they are small, their
//! analysis reads every latent back at once, and a training step reads its loss back at once,
//! which WebGPU in a browser cannot do synchronously.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use burn::tensor::Device;
use engine::gram::{Gram, SampleOptions};
use engine::reasoner::ReasonerModel;
use engine::solve::live::{LiveRun, RunSpec};
use engine::tasks::TaskId;
use engine::weights::{Manifest, load_gram};
use gloo_worker::{HandlerId, Worker, WorkerScope};
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::gpu_probe::{Adapter, probe_adapter, webgpu_or_why_not};
use crate::weights_summary::weights_summary;
use engine::solve::step_answers::step_task;
mod grammar;
mod live;
mod manifest;
mod train;
mod tree;
mod turn;

use manifest::{ModelManifest, manifest};

use crate::protocol::{BackendChoice, InjectedFailure, Request, Response, SolveRequest, StepReport, VerifiedStep};
use crate::url_state::sampling::{MAX_RESTARTS, MAX_SAMPLES, MAX_STEPS, UNTIL_VERIFIED};

pub use crate::base_path::WEIGHTS_PATH;

pub struct ReasonerWorker {
    state: Rc<RefCell<State>>,
}

#[derive(Default)]
struct State {
    device: Option<Device>,
    site_root: String,
    /// Every manifest read, by model name (fetched and read once: `worker/manifest.rs`).
    manifests: HashMap<String, ModelManifest>,
    /// Loaded GRAM/TRM models with the task their manifest names.
    models: HashMap<String, (Rc<Gram>, TaskId)>,
    /// Loaded JEPA-Reasoner + Talker weights (always on burn-flex; see `ensure_tree`).
    trees: HashMap<String, Rc<ReasonerModel>>,
    /// Loaded grammar-study weights with their manifests (burn-flex, as the trees).
    grammars: HashMap<String, Rc<(engine::studies::grammar::models::GrammarModels, engine::weights::grammar::GrammarManifest)>>,
    /// `/jepa`'s two models between pauses (taken out while they train).
    live: Option<engine::studies::regex::session::Session>,
    /// `/train`'s model between pauses (taken out while it trains), and what the page asked of
    /// it (its files, a trial; answered between two training steps, or at once when none runs).
    train: Option<train::TrainSession>,
    train_wanted: train::Wanted,
    queue: VecDeque<(Request, HandlerId)>,
    busy: bool,
    /// The newest run the page asked for; older runs stop at their next step.
    latest_run: u64,
    /// Runs up to this id were cancelled.
    cancelled_upto: u64,
    /// A test's injected WebGPU failure, while the model runs on WebGPU.
    fail: Option<InjectedFailure>,
}

impl State {
    fn is_current(&self, run: u64) -> bool {
        run == self.latest_run && run > self.cancelled_upto
    }
}

impl Worker for ReasonerWorker {
    type Message = ();
    type Input = Request;
    type Output = Response;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        console_error_panic_hook::set_once();
        Self { state: Rc::default() }
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: ()) {}

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Request, id: HandlerId) {
        let mut st = self.state.borrow_mut();
        if let Request::Cancel { run } = msg {
            st.cancelled_upto = st.cancelled_upto.max(run);
            return;
        }
        match &msg {
            Request::Download => st.train_wanted.download = true,
            Request::Try(req) => st.train_wanted.trial = Some(req.clone()),
            _ => {}
        }
        if let Some(run) = msg.run() {
            st.latest_run = st.latest_run.max(run);
        }
        st.queue.push_back((msg, id));
        if !st.busy {
            st.busy = true;
            let (state, scope) = (self.state.clone(), scope.clone());
            wasm_bindgen_futures::spawn_local(drain(state, scope));
        }
    }
}

async fn drain(state: Rc<RefCell<State>>, scope: WorkerScope<ReasonerWorker>) {
    loop {
        let next = state.borrow_mut().queue.pop_front();
        let Some((msg, id)) = next else {
            state.borrow_mut().busy = false;
            return;
        };
        let respond = |r: Response| scope.respond(id, r);
        match msg {
            Request::Init { backend, site_root, fail } => {
                let (device, name, detail) = init_backend(backend, fail).await;
                let mut st = state.borrow_mut();
                st.fail = fail.filter(|_| name == "WebGPU");
                st.device = Some(device);
                st.site_root = site_root;
                drop(st);
                respond(Response::Backend { name, detail });
            }
            Request::Load { model } => {
                let loaded = match manifest(&state, &model).await {
                    Ok(ModelManifest::Tree(m)) => tree::ensure_tree(&state, &model, &m, &respond).await.map(|_| ()),
                    Ok(ModelManifest::Grammar(m)) => grammar::ensure_grammar(&state, &model, &m, &respond).await.map(|_| ()),
                    Ok(ModelManifest::Gram(m, task)) => ensure_model(&state, &model, &m, task, &respond).await.map(|_| ()),
                    Ok(other) => Err(format!("{model} holds {} weights, which /jepa loads itself", other.family())),
                    Err(e) => Err(e),
                };
                if let Err(message) = loaded {
                    respond(Response::LoadFailed { model, message });
                }
            }
            Request::Cancel { .. } => {}
            Request::Download | Request::Try(_) => train::serve_idle(&state, &respond),
            request => {
                let run = request.run();
                if let (Some(run), Err(message)) = (run, run_request(&state, request, &respond).await) {
                    respond(Response::Failed { run, message });
                }
            }
        }
    }
}

/// Runs a request that starts a run (a solve, a tree search, a grammar study, live training);
/// its error is the one the page shows for that run.
async fn run_request(state: &Rc<RefCell<State>>, request: Request, respond: &dyn Fn(Response)) -> Result<(), String> {
    match request {
        Request::Solve(req) => solve(state, req, respond).await,
        Request::Reason(req) => tree::reason(state, req, respond).await,
        Request::Explore(req) => grammar::explore_request(state, req, respond).await,
        Request::Live(req) => live::live_request(state, req, respond).await,
        Request::Train(req) => train::train_request(state, req, respond).await,
        Request::Init { .. } | Request::Load { .. } | Request::Cancel { .. } | Request::Download | Request::Try(_) => Ok(()),
    }
}

/// The browser runtime (docs/ARCHITECTURE.md): WebGPU on a hardware adapter (or any adapter when the URL says
/// `backend=webgpu`), burn-flex otherwise; the page made the same choice when it picked this
/// worker's build (`gpu_probe::WorkerBuild`), and the reason is worked out again here so the
/// badge can say it.
async fn init_backend(choice: BackendChoice, fail: Option<InjectedFailure>) -> (Device, String, String) {
    let cpu = |why: String| (Device::flex(), "CPU".to_string(), why);
    let adapter = if choice == BackendChoice::Cpu { None } else { probe_adapter().await };
    match webgpu_or_why_not(choice, adapter.as_ref()) {
        Err(why) => cpu(why),
        Ok(_) if cfg!(feature = "webgpu") && fail == Some(InjectedFailure::Load) => {
            cpu("WebGPU did not start (the device request failed: a failure the URL's gpufail=load injects)".into())
        }
        Ok(adapter) => init_webgpu(adapter).await.unwrap_or_else(cpu),
    }
}

#[cfg(feature = "webgpu")]
async fn init_webgpu(adapter: &Adapter) -> Result<(Device, String, String), String> {
    use burn::tensor::wgpu::WgpuBackend;
    match Device::wgpu_options().graphics_api(WgpuBackend::WebGpu).init_async().await {
        Ok(device) => {
            let kind = if adapter.software { "software adapter, correct but slow" } else { "GPU" };
            Ok((device, "WebGPU".into(), format!("{} ({kind})", adapter.name)))
        }
        Err(e) => Err(format!("WebGPU did not start ({e}), so the model runs on the CPU (burn-flex, wasm)")),
    }
}

/// The CPU-only build is started only when the model will not use WebGPU; should a page start it
/// anyway (an adapter that appeared between the page's probe and this one), it says so.
#[cfg(not(feature = "webgpu"))]
async fn init_webgpu(adapter: &Adapter) -> Result<(Device, String, String), String> {
    Err(format!("a WebGPU adapter ({}) appeared after the page chose the CPU worker; reload to use it", adapter.name))
}

/// Fetches `url`, reporting bytes as they arrive.
async fn fetch_bytes(url: &str, total_hint: u64, progress: &dyn Fn(u64, u64)) -> Result<Vec<u8>, String> {
    let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
    let response: web_sys::Response =
        JsFuture::from(scope.fetch_with_str(url)).await.map_err(|e| format!("could not fetch {url}: {}", js_text(&e)))?.unchecked_into();
    if !response.ok() {
        return Err(format!("could not fetch {url}: HTTP {} {}", response.status(), response.status_text()));
    }
    let total = response.headers().get("content-length").ok().flatten().and_then(|v| v.parse().ok()).unwrap_or(total_hint);
    let Some(body) = response.body() else {
        return Ok(Vec::new());
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::with_capacity(total as usize);
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|e| format!("reading {url} failed: {}", js_text(&e)))?;
        if Reflect::get(&chunk, &"done".into()).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
            break;
        }
        let value: Uint8Array = Reflect::get(&chunk, &"value".into()).map_err(|e| js_text(&e))?.unchecked_into();
        bytes.extend(value.to_vec());
        progress(bytes.len() as u64, total.max(bytes.len() as u64));
    }
    Ok(bytes)
}

fn js_text(v: &JsValue) -> String {
    v.as_string().or_else(|| js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string())).unwrap_or_else(|| format!("{v:?}"))
}

/// Loads GRAM/TRM weights `name` once, by their manifest: the `.bpk` with progress, then the
/// engine's checks (hash, then shapes). Errors are sentences for the page.
async fn ensure_model(
    state: &Rc<RefCell<State>>,
    name: &str,
    manifest: &Manifest,
    task: TaskId,
    respond: &dyn Fn(Response),
) -> Result<(Rc<Gram>, TaskId), String> {
    if let Some(m) = state.borrow().models.get(name) {
        return Ok(m.clone());
    }
    let device = state.borrow().device.clone().ok_or("the backend is not initialised yet")?;
    let base = format!("{}{WEIGHTS_PATH}", state.borrow().site_root);
    let progress = |loaded, total| respond(Response::LoadProgress { model: name.into(), loaded, total });
    let bytes = fetch_bytes(&format!("{base}/{name}.bpk"), manifest.bytes as u64, &progress).await?;
    let model = load_gram(manifest, &bytes, &device).map_err(|e| format!("{name}.bpk: {e}"))?;
    let summary = weights_summary(manifest);
    respond(Response::Loaded { model: name.into(), summary });
    let loaded = (Rc::new(model), task);
    state.borrow_mut().models.insert(name.into(), loaded.clone());
    Ok(loaded)
}

async fn solve(state: &Rc<RefCell<State>>, req: SolveRequest, respond: &dyn Fn(Response)) -> Result<(), String> {
    // Both are kept once read: a later request fetches nothing.
    let (model, task) = match manifest(state, &req.model).await? {
        ModelManifest::Gram(m, task) => ensure_model(state, &req.model, &m, task, respond).await?,
        other => return Err(format!("{} holds {} weights, not GRAM/TRM", req.model, other.family())),
    };
    let device = state.borrow().device.clone().ok_or("the backend is not initialised yet")?;
    if !(1..=MAX_SAMPLES).contains(&req.samples)
        || !(1..=MAX_STEPS).contains(&req.steps)
        || (req.restarts > MAX_RESTARTS && req.restarts != UNTIL_VERIFIED)
    {
        return Err(format!("samples must be 1-{MAX_SAMPLES}, steps 1-{MAX_STEPS} and restarts 0-{MAX_RESTARTS} or until verified"));
    }
    // The manifest says which task the weights solve, and so how to read puzzles and answers.
    let kind = step_task(task).map_err(|e| e.to_string())?;
    let options = SampleOptions {
        samples: req.samples,
        guidance_scale: req.guidance_scale,
        max_steps: req.steps,
        halting: false,
        seed: req.seed,
        // The task's measured default (engine::tasks::TokenTask::default_settle).
        settle: kind.settle(),
        latent_noise: req.latent_noise,
        ..Default::default()
    };
    let spec = RunSpec {
        options,
        verified_stop: req.verified_stop,
        restarts: req.restarts,
        copies: req.copies,
        interventions: req.interventions.clone(),
        lane: req.lane,
        share: req.share,
    };
    // The engine's run: restarts, the verified stop and the visitor's changes are its.
    let mut run = LiveRun::new(&model, &*kind, &req.puzzle, spec, &device).map_err(|e| e.to_string())?;
    let started = now();
    // A worker on a shared run's later restarts reports only the step it verifies at.
    let helper = req.lane.index > 0;
    let mut last = None;
    while !run.is_done() {
        if !state.borrow().is_current(req.run) {
            return Ok(());
        }
        let t0 = now();
        if let Some(fail) = state.borrow().fail.filter(|f| f.failing_step() == Some(run.steps())) {
            return Err(format!(
                "the GPU device was lost at step {} (a failure the URL's gpufail={} injects)",
                run.steps() + 1,
                fail.as_str()
            ));
        }
        let view = run.step_async().await.map_err(|e| e.to_string())?;
        let verified = run.verified().map(VerifiedStep::from);
        let report = StepReport { verified, ..StepReport::from_view(req.run, view, now() - t0) };
        // A replayed run's earlier steps are already on the page.
        if helper {
            last = Some(report);
        } else if run.steps() >= req.report_from {
            respond(Response::Step(report));
        }
        // Let Cancel / a newer Solve arrive before the next step.
        turn::next_turn().await;
    }
    let verified = run.verified().map(VerifiedStep::from);
    match (helper, verified, last) {
        (true, Some(verified), Some(report)) => respond(Response::LaneVerified { report, verified }),
        (true, ..) => {}
        (false, ..) => respond(Response::Done { run: req.run, steps: run.steps(), millis: now() - started, verified }),
    }
    Ok(())
}

fn now() -> f64 {
    Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| {
            let f: js_sys::Function = Reflect::get(&p, &"now".into()).ok()?.dyn_into().ok()?;
            f.call0(&p).ok()?.as_f64()
        })
        .unwrap_or(0.0)
}
