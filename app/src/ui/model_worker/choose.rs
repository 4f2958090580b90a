//! The backend chosen by measurement (`crate::calibration` has the rules and the figures): with
//! no `backend=` in the URL the page starts on the CPU build and its helpers; once the browser
//! has shown a hardware WebGPU adapter and the page's first run has ended, a WebGPU worker starts
//! in the background, loads the page's weights and times the same run; if its step is faster,
//! the page's later runs go to it (and the CPU workers end), else it ends. The badge says both
//! figures; the browser remembers them.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;

use super::ModelWorker;
use crate::base_path::site_root;
use crate::calibration::{AFTER_RUN_MS, CpuRun, CpuRuns, DEADLINE_S, Probe, ProbeStep, Timing};
use crate::gpu_fallback::GpuWatch;
use crate::gpu_probe::{Adapter, NO_WEBGPU_BUILD, WorkerBuild, is_served, probe_adapter, webgpu_or_why_not};
use crate::protocol::{BackendChoice, Request, Response};
use crate::ui::status::Load;

/// Where the choice stands.
pub enum Choosing {
    /// The URL named the backend: nothing to choose.
    Off,
    /// Asking the browser for an adapter.
    Asking,
    /// A hardware adapter, timed once a CPU run has ended.
    Waiting(Adapter),
    /// The background WebGPU worker loads and times.
    Timing(Probe),
    /// Chosen, or nothing to choose from (no adapter, a software one, WebGPU failed).
    Settled,
}

/// The badge's sentence while the CPU runs and WebGPU waits to be timed.
fn waiting_sentence(adapter: &Adapter) -> String {
    format!("burn-flex, wasm: every page starts on the CPU; the WebGPU adapter ({}) is timed against it after the first run", adapter.name)
}

/// The e2e tests' switch that presents a software adapter as a hardware one (`gpuhardware=1`):
/// how the test shows the page timing a WebGPU that is slower and keeping the CPU.
fn as_hardware_for_tests() -> bool {
    crate::ui::browser::query_pairs().iter().any(|(k, v)| k == "gpuhardware" && v == "1")
}

fn storage() -> Option<js_sys::Object> {
    use wasm_bindgen::JsCast;
    let s = js_sys::Reflect::get(&js_sys::global(), &"localStorage".into()).ok()?;
    s.dyn_into().ok()
}

/// The browser's remembered text under `key` (none when storage is off or blocked).
fn stored(key: &str) -> Option<String> {
    let s = storage()?;
    let get: js_sys::Function = js_sys::Reflect::get(&s, &"getItem".into()).ok()?.into();
    get.call1(&s, &key.into()).ok()?.as_string()
}

fn store(key: &str, value: &str) {
    if let Some(s) = storage()
        && let Ok(set) = js_sys::Reflect::get(&s, &"setItem".into())
    {
        let set: js_sys::Function = set.into();
        // A full or blocked storage only means timing again next visit.
        let _ = set.call2(&s, &key.into(), &value.into());
    }
}

impl ModelWorker {
    /// `backend=auto`: the CPU build now; the adapter asked for meanwhile.
    pub(super) fn start_auto(self) {
        self.choosing.set_value(Choosing::Asking);
        self.cpu_because.set_value(Some("burn-flex, wasm: every page starts on the CPU".into()));
        self.start(WorkerBuild::Cpu, Request::Init { backend: BackendChoice::Cpu, site_root: site_root(), fail: None });
        leptos::task::spawn_local(async move {
            let hook = as_hardware_for_tests();
            let adapter = probe_adapter().await.map(|a| Adapter { software: a.software && !hook, ..a });
            let next = match webgpu_or_why_not(BackendChoice::Auto, adapter.as_ref()) {
                Err(why) => (Choosing::Settled, why),
                Ok(a) if !is_served(&format!("{}/{}", site_root(), WorkerBuild::WebGpu.script())).await => {
                    (Choosing::Settled, format!("{NO_WEBGPU_BUILD} (a WebGPU adapter, {}, is there)", a.name))
                }
                Ok(a) => (Choosing::Waiting(a.clone()), waiting_sentence(a)),
            };
            self.choosing.try_set_value(next.0);
            self.say_cpu(next.1);
            self.after_cpu_run();
        });
    }

    /// The badge's detail while the CPU build runs.
    fn say_cpu(self, why: String) {
        self.cpu_because.try_set_value(Some(why.clone()));
        self.backend.try_update(|b| {
            if let Some((_, detail)) = b.as_mut().filter(|(name, _)| name == "CPU") {
                *detail = why;
            }
        });
    }

    /// After each answer the page gets: a CPU run that ended starts the timing (or applies the
    /// remembered one).
    pub(super) fn after_cpu_run(self) {
        let waiting = self.choosing.try_with_value(|c| matches!(c, Choosing::Waiting(_))).unwrap_or(false);
        if !waiting {
            return;
        }
        let Some(cpu) = self.cpu_runs.try_update_value(|c| c.take_ended()).flatten() else { return };
        let Some(Choosing::Waiting(adapter)) = self.choosing.try_update_value(|c| std::mem::replace(c, Choosing::Settled)) else {
            return;
        };
        let remembered = Timing::remembered(stored(&Timing::key(&cpu.request.model)).as_deref(), &cpu, &adapter.name);
        match remembered {
            Some(t) if !t.webgpu_faster() => self.say_cpu(t.sentence(true)),
            _ => self.time_when_idle(cpu, adapter, remembered),
        }
    }

    /// Starts the background WebGPU worker [`AFTER_RUN_MS`] after the CPU workers last ran.
    fn time_when_idle(self, cpu: CpuRun, adapter: Adapter, remembered: Option<Timing>) {
        Timeout::new(AFTER_RUN_MS, move || match self.cpu_runs.try_with_value(CpuRuns::in_flight) {
            Some(true) => self.time_when_idle(cpu, adapter, remembered),
            Some(false) => self.start_probe(cpu, adapter, remembered),
            None => {}
        })
        .forget();
    }

    fn start_probe(self, cpu: CpuRun, adapter: Adapter, remembered: Option<Timing>) {
        let models: Vec<String> =
            self.loads.with_untracked(|l| l.iter().filter(|(_, load)| matches!(load, Load::Ready(_))).map(|(m, _)| m.clone()).collect());
        let probe = match remembered {
            Some(t) => Probe::loading(cpu, t, models),
            None => Probe::timing(cpu, adapter.name.clone(), models),
        };
        self.say_cpu(format!("burn-flex, wasm; timing WebGPU ({}) against it in the background…", adapter.name));
        let (tag, bridge) = self.spawn_tagged(WorkerBuild::WebGpu);
        let fail = super::injected_failure();
        bridge.send(Request::Init { backend: BackendChoice::WebGpu, site_root: site_root(), fail });
        for request in probe.requests() {
            bridge.send(request);
        }
        self.probe.set_value(Some((tag, bridge)));
        self.choosing.set_value(Choosing::Timing(probe));
        let deadline = Timeout::new(DEADLINE_S * 1000, move || {
            if self.probe.try_with_value(|p| p.as_ref().map(|p| p.0)).flatten() == Some(tag) {
                self.settle(format!("WebGPU did not finish its timing run within {DEADLINE_S} s, so the CPU goes on"));
            }
        });
        self.probe_deadline.set_value(Some(deadline));
    }

    /// An answer of the background WebGPU worker.
    pub(super) fn on_probe_answer(self, response: Response) {
        let step = self.choosing.try_update_value(|c| match c {
            Choosing::Timing(p) => p.answered(&response),
            _ => ProbeStep::Wait,
        });
        match step {
            Some(ProbeStep::Failed(why)) => self.settle(why),
            Some(ProbeStep::Decided(timing)) => {
                store(&Timing::key(&timing.model), &timing.stored());
                let remembered = self.choosing.with_value(|c| matches!(c, Choosing::Timing(p) if p.remembered()));
                if timing.webgpu_faster() {
                    self.move_to_webgpu(timing, remembered);
                } else {
                    self.settle(timing.sentence(remembered));
                }
            }
            _ => {}
        }
    }

    /// The CPU stays: the background worker ends, and the badge says `why`.
    fn settle(self, why: String) {
        self.probe.try_set_value(None);
        self.probe_deadline.try_set_value(None);
        self.choosing.try_set_value(Choosing::Settled);
        self.say_cpu(why);
    }

    /// WebGPU was faster: the background worker becomes the page's (between runs: a run in flight
    /// on the CPU finishes there first), watched as any WebGPU worker, and the CPU workers end.
    fn move_to_webgpu(self, timing: Timing, remembered: bool) {
        if self.cpu_runs.try_with_value(|c| c.in_flight()) == Some(true) {
            Timeout::new(200, move || self.move_to_webgpu(timing, remembered)).forget();
            return;
        }
        let Some((tag, bridge)) = self.probe.try_update_value(Option::take).flatten() else { return };
        let Some(Choosing::Timing(probe)) = self.choosing.try_update_value(|c| std::mem::replace(c, Choosing::Settled)) else { return };
        self.probe_deadline.set_value(None);
        let mut watch = GpuWatch::default();
        for model in probe.models() {
            watch.sent(&Request::Load { model: model.clone() });
        }
        self.gpu.set_value(Some(watch));
        self.merge.set_value(None);
        self.shared.set_value(None);
        self.helpers.set_value(Vec::new());
        self.main_tag.set_value(tag);
        self.bridge.set_value(Some(bridge));
        self.cpu_because.set_value(None);
        self.backend.set(Some(("WebGPU".into(), timing.sentence(remembered))));
    }
}
