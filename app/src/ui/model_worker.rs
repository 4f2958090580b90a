//! A page's link to the model's Web Worker: sends requests, and keeps what every page shows of
//! the worker (the backend in use, each model's loading state). The page gets every other answer.

use std::collections::HashMap;
use std::rc::Rc;

use gloo_worker::{HandlerId, Spawnable, Worker, WorkerBridge, WorkerScope};
use leptos::prelude::*;

use crate::base_path::site_root;
use super::status::Load;
use crate::gpu_probe::{WorkerBuild, probe_adapter};
use crate::protocol::{BackendChoice, Request, Response};

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
        }
    }

    /// Sends `request` now, or once the worker has started.
    pub fn send(self, request: Request) {
        let mut request = Some(request);
        self.bridge.try_with_value(|bridge| {
            if let Some(bridge) = bridge {
                bridge.send(request.take().expect("sent once"));
            }
        });
        if let Some(request) = request {
            self.pending.try_update_value(|p| p.push(request));
        }
    }

    /// The first message: start the worker build `backend` needs (asking the browser for a
    /// WebGPU adapter first unless the URL says `backend=cpu`) and have it initialise `backend`.
    pub fn init(self, backend: BackendChoice) {
        let init = Request::Init { backend, site_root: site_root() };
        if backend == BackendChoice::Cpu {
            self.start(WorkerBuild::Cpu, init);
            return;
        }
        leptos::task::spawn_local(async move {
            let adapter = probe_adapter().await;
            self.start(WorkerBuild::for_choice(backend, adapter.as_ref()), init);
        });
    }

    fn start(self, build: WorkerBuild, init: Request) {
        // The page may be gone by the time the probe answers.
        let Some(on_answer) = self.on_answer.try_get_value() else { return };
        let bridge = RemoteReasoner::spawner().callback(move |r| on_answer(r)).spawn(&format!("{}/{}", site_root(), build.script()));
        bridge.send(init);
        for request in self.pending.try_update_value(std::mem::take).unwrap_or_default() {
            bridge.send(request);
        }
        self.bridge.try_set_value(Some(bridge));
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
