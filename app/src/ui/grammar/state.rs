//! Everything `/grammar` holds: the settings (URL), the worker, and the latest answer. All `Copy`.

use engine::tasks::cfg::explore::GrammarView;
use leptos::prelude::*;

use crate::protocol::{BackendChoice, GrammarRequest, Request, Response};
use crate::ui::model_worker::ModelWorker;
use crate::url_state::grammar::{GrammarSettings, WEIGHTS};

/// One request and, once answered, the engine's view with the worker's time (ms).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Run {
    pub(super) id: u64,
    pub(super) asked: GrammarSettings,
    pub(super) result: Option<(GrammarView, f64)>,
    pub(super) error: Option<String>,
}

#[derive(Clone, Copy)]
pub(super) struct GrammarState {
    pub(super) settings: RwSignal<GrammarSettings>,
    pub(super) worker: ModelWorker,
    pub(super) run: RwSignal<Option<Run>>,
    next_run: StoredValue<u64>,
}

impl GrammarState {
    /// The page's state; starts the worker (CPU, as the tree page) and loads the weights.
    pub(super) fn new(initial: GrammarSettings) -> Self {
        let run = RwSignal::new(None::<Run>);
        let worker = ModelWorker::spawn(move |response| match response {
            Response::Explored(report) => run.update(|r| {
                if let Some(r) = r.as_mut().filter(|r| r.id == report.run) {
                    r.result = Some((report.view, report.millis));
                }
            }),
            Response::CurvePoint { run: id, point } => run.update(|r| {
                if let Some((view, _)) = r.as_mut().filter(|r| r.id == id).and_then(|r| r.result.as_mut()) {
                    view.curve.push(point);
                }
            }),
            Response::Failed { run: id, message } => run.update(|r| {
                if let Some(r) = r.as_mut().filter(|r| r.id == id) {
                    r.error = Some(message);
                }
            }),
            _ => {}
        });
        worker.init(BackendChoice::Cpu);
        worker.load(WEIGHTS);
        Self { settings: RwSignal::new(initial), worker, run, next_run: StoredValue::new(1) }
    }

    pub(super) fn pending(self) -> bool {
        self.run.with(|r| r.as_ref().is_some_and(|r| r.result.is_none() && r.error.is_none()))
    }

    /// Asks T, C and R to complete the sequence with the settings' corruption and noise.
    pub(super) fn complete(self) {
        let s = self.settings.get_untracked();
        let id = self.next_run.get_value();
        self.next_run.set_value(id + 1);
        self.run.set(Some(Run { id, asked: s.clone(), result: None, error: None }));
        self.worker.send(Request::Explore(GrammarRequest {
            run: id,
            model: WEIGHTS.into(),
            sequence: s.sequence,
            corrupt: s.corrupt,
            noise: s.noise,
            seed: s.seed,
        }));
        self.settings.update(|s| s.run = true);
    }
}
