//! Everything `/grammar` holds: the settings (URL), the worker, and the latest answer; and its
//! instant start (the recorded exploration of the default request on screen while the weights
//! load). All `Copy`.

use engine::studies::grammar::explore::GrammarView;
use engine::studies::grammar::recorded::RecordedGrammar;
use leptos::prelude::*;

use super::url::grammar_matches;
use super::url::{GrammarSettings, WEIGHTS};
use crate::protocol::{BackendChoice, GrammarRequest, Request, Response};
use crate::recorded_runs::GRAMMAR_RUN;
use crate::ui::model_worker::ModelWorker;
use crate::ui::recorded::{fetch_recorded, live_once_ready};

/// One request and, once answered, the engine's view with the worker's time (ms).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Run {
    pub(super) id: u64,
    pub(super) asked: GrammarSettings,
    pub(super) result: Option<(GrammarView, f64)>,
    pub(super) error: Option<String>,
    /// Not computed here: the exploration recorded ahead (`public/runs/grammar.json`, its curve
    /// complete), shown while the weights load.
    pub(super) recorded: bool,
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

    /// Instant start (the URL did not ask for a run): fetches the recorded exploration and shows
    /// it if it is the one the settings ask for and nothing ran yet; once the weights are ready,
    /// the live models run the same request and replace it.
    pub(super) fn instant_start(self) {
        leptos::task::spawn_local(async move {
            if let Some(recorded) = fetch_recorded::<RecordedGrammar>(GRAMMAR_RUN).await {
                self.show_recorded(recorded);
            }
        });
        live_once_ready(self.worker, WEIGHTS, move || self.showing_recorded(), move || self.complete());
    }

    fn show_recorded(self, recorded: RecordedGrammar) {
        // The page may be gone, or a run started, or the settings changed, while it was fetched.
        let Some(asked) = self.settings.try_get_untracked().filter(|s| grammar_matches(&recorded, s)) else { return };
        if self.run.try_with_untracked(Option::is_some) != Some(false) {
            return;
        }
        // 0: never a worker's run (those start at 1), so no answer of the worker lands here.
        self.run.set(Some(Run { id: 0, asked, result: Some((recorded.view, 0.0)), error: None, recorded: true }));
    }

    /// The recorded exploration is on screen (tracked).
    pub(super) fn showing_recorded(self) -> bool {
        self.run.with(|r| r.as_ref().is_some_and(|r| r.recorded))
    }

    /// Asks T, C and R to complete the sequence with the settings' corruption and noise.
    pub(super) fn complete(self) {
        let s = self.settings.get_untracked();
        let id = self.next_run.get_value();
        self.next_run.set_value(id + 1);
        self.run.set(Some(Run { id, asked: s.clone(), result: None, error: None, recorded: false }));
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
