//! A page's link to the model's Web Worker: sends requests, and keeps what every page shows of
//! the worker (the backend in use, each model's loading state). The page gets every other answer.

use std::collections::HashMap;

use gloo_worker::{HandlerId, Spawnable, Worker, WorkerBridge, WorkerScope};
use leptos::prelude::*;

use super::browser::origin;
use super::status::Load;
use crate::protocol::{BackendChoice, Request, Response};

/// The page's view of the model's worker: its message types, nothing else. The worker itself
/// (`crate::worker::ReasonerWorker`) runs in worker.js, a separate wasm binary; gloo-worker's
/// bridge only needs the types to encode requests and decode answers, which are the ones that
/// binary registers with, so the page need not link the model (or burn's WebGPU stack).
pub struct RemoteReasoner;

impl Worker for RemoteReasoner {
    type Message = ();
    type Input = Request;
    type Output = Response;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        unreachable!("the model's worker runs in worker.js, never on the page")
    }
    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: ()) {}
    fn received(&mut self, _scope: &WorkerScope<Self>, _msg: Request, _id: HandlerId) {}
}

/// The worker of one page (it ends with the page). `Copy`, so closures capture it.
#[derive(Clone, Copy)]
pub struct ModelWorker {
    bridge: StoredValue<WorkerBridge<RemoteReasoner>, LocalStorage>,
    /// The backend's short name for the badge ("WebGPU" or "CPU") and why it was chosen.
    pub backend: RwSignal<Option<(String, String)>>,
    /// Each model's weights, by weights name.
    pub loads: RwSignal<HashMap<String, Load>>,
}

impl ModelWorker {
    /// Starts the worker; answers other than the backend and loading go to `on_response`.
    pub fn spawn(on_response: impl Fn(Response) + 'static) -> Self {
        let backend = RwSignal::new(None);
        let loads = RwSignal::new(HashMap::new());
        let set_load = move |model: String, load: Load| {
            loads.update(|l| {
                l.insert(model, load);
            })
        };
        let bridge = RemoteReasoner::spawner()
            .callback(move |response| match response {
                Response::Backend { name, detail } => backend.set(Some((name, detail))),
                Response::LoadProgress { model, loaded, total } => set_load(model, Load::Loading { loaded, total }),
                Response::Loaded { model, summary } => set_load(model, Load::Ready(summary)),
                Response::LoadFailed { model, message } => set_load(model, Load::Failed(message)),
                other => on_response(other),
            })
            .spawn("/worker.js");
        Self { bridge: StoredValue::new_local(bridge), backend, loads }
    }

    pub fn send(self, request: Request) {
        self.bridge.with_value(|b| b.send(request));
    }

    /// The first message: pick and initialise `backend`.
    pub fn init(self, backend: BackendChoice) {
        self.send(Request::Init { backend, origin: origin() });
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
