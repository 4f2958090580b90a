//! A failing GPU costs the visitor nothing: the page's side of `crate::gpu_fallback`. While the
//! page's runs go to a WebGPU worker, each step has a deadline, and a failure or a missed deadline
//! hands the loads and the run in flight to a new CPU build with its helpers.

use leptos::prelude::*;

use super::ModelWorker;
use crate::base_path::site_root;
use crate::gpu_fallback::GpuWatch;
use crate::gpu_probe::WorkerBuild;
use crate::protocol::{BackendChoice, Request, SolveRequest};

impl ModelWorker {
    /// A deadline of `seconds` for the WebGPU worker's next step while a run is in flight
    /// (none otherwise, and none on the CPU build): past it, if the run is still in flight
    /// (not done or cancelled since), the CPU takes it over.
    pub(super) fn arm_deadline(self, seconds: u32) {
        let due = self.gpu.try_with_value(|g| g.as_ref().is_some_and(GpuWatch::running)).unwrap_or(false);
        let tag = self.main_tag.get_value();
        let timer = due.then(|| {
            gloo_timers::callback::Timeout::new(seconds * 1000, move || {
                if self.main_tag.try_get_value() == Some(tag) {
                    let why = self.gpu.try_with_value(|g| g.as_ref().filter(|g| g.running()).map(GpuWatch::timed_out)).flatten();
                    if let Some(why) = why {
                        self.fall_back(why);
                    }
                }
            })
        });
        self.deadline.try_set_value(timer);
    }

    /// WebGPU failed (`why` says how): the WebGPU worker is dropped and the CPU build, with its
    /// helpers, takes over the loads and the run where the page has it.
    pub(super) fn fall_back(self, why: String) {
        let Some(watch) = self.gpu.try_update_value(Option::take).flatten() else { return };
        self.deadline.try_set_value(None);
        self.bridge.try_set_value(None);
        self.cpu_because.try_set_value(Some(why));
        self.start(WorkerBuild::Cpu, Request::Init { backend: BackendChoice::Cpu, site_root: site_root(), fail: None });
        for request in watch.handover() {
            let request = match request {
                Request::Solve(req) => Request::Solve(SolveRequest { share: self.share_for(&req), ..req }),
                other => other,
            };
            self.send(request);
        }
    }
}
