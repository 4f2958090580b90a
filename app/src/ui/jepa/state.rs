//! Everything `/jepa` holds: the settings (URL), the worker, the live curves and the latest
//! snapshot of each model, and the recorded session shown before the first Train. All `Copy`.

use engine::studies::regex::live::Snapshot;
use engine::studies::regex::session::RecordedSession;
use leptos::prelude::*;

use super::url::{JepaSettings, MAX_LIVE_STEPS};
use crate::protocol::{BackendChoice, LiveRequest, LiveStart, Request, Response};
use crate::recorded_jepa::JepaView;
use crate::ui::model_worker::ModelWorker;

/// One point of the live curves: (step, LM-only CE, LM + JEPA CE, JEPA batch cosine).
pub(super) type CurvePoint = (usize, f32, f32, f32);

/// Where a session is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Idle,
    Training,
    Paused,
}

#[derive(Clone, Copy)]
pub(super) struct JepaState {
    pub(super) settings: RwSignal<JepaSettings>,
    pub(super) worker: ModelWorker,
    pub(super) curve: RwSignal<Vec<CurvePoint>>,
    /// Accuracy over steps: (step, LM-only semantic %, LM + JEPA semantic %).
    pub(super) accuracy: RwSignal<Vec<(usize, f64, f64)>>,
    pub(super) lm: RwSignal<Option<Snapshot>>,
    pub(super) jepa: RwSignal<Option<Snapshot>>,
    pub(super) phase: RwSignal<Phase>,
    pub(super) step: RwSignal<usize>,
    pub(super) millis_per_step: RwSignal<f64>,
    pub(super) error: RwSignal<Option<String>>,
    /// `public/runs/jepa.json` once fetched (`recorded::instant_start`), and whether the plots
    /// show it (until Train, or while the settings are not its own).
    pub(super) recorded: RwSignal<Option<RecordedSession>>,
    pub(super) showing_recorded: RwSignal<bool>,
    run: StoredValue<u64>,
}

impl JepaState {
    pub(super) fn new(initial: JepaSettings) -> Self {
        let curve = RwSignal::new(Vec::<CurvePoint>::new());
        let accuracy = RwSignal::new(Vec::new());
        let (lm, jepa) = (RwSignal::new(None::<Snapshot>), RwSignal::new(None::<Snapshot>));
        let (phase, step, millis_per_step, error) = (RwSignal::new(Phase::Idle), RwSignal::new(0), RwSignal::new(0.0), RwSignal::new(None));
        let run = StoredValue::new(0u64);
        let current = move |id: u64| run.get_value() == id;
        let worker = ModelWorker::spawn(move |response| match response {
            Response::LiveProgress(p) if current(p.run) => {
                step.set(p.step);
                millis_per_step.set(p.millis_per_step);
                curve.update(|c| c.push((p.step, p.ce.0, p.ce.1, p.jepa_cos)));
            }
            Response::LiveSnapshot { run: id, model, snapshot } if current(id) => {
                let s = snapshot.step;
                if model == "lm" {
                    lm.set(Some(snapshot));
                } else {
                    let lm_acc = lm.with_untracked(|l| l.as_ref().filter(|l| l.step == s).map(|l| l.semantic));
                    if let Some(a) = lm_acc {
                        accuracy.update(|v: &mut Vec<(usize, f64, f64)>| {
                            if v.last().is_none_or(|last| last.0 < s) {
                                v.push((s, a, snapshot.semantic))
                            }
                        });
                    }
                    jepa.set(Some(snapshot));
                }
            }
            Response::LivePaused { run: id, step: s } if current(id) => {
                step.set(s);
                phase.set(Phase::Paused);
            }
            Response::Failed { run: id, message } if current(id) => {
                error.set(Some(message));
                phase.set(Phase::Paused);
            }
            _ => {}
        });
        worker.init(BackendChoice::Cpu);
        let (recorded, showing_recorded) = (RwSignal::new(None), RwSignal::new(false));
        Self {
            settings: RwSignal::new(initial),
            worker,
            curve,
            accuracy,
            lm,
            jepa,
            phase,
            step,
            millis_per_step,
            error,
            recorded,
            showing_recorded,
            run,
        }
    }

    fn send(self, start: LiveStart) {
        let s = self.settings.get_untracked();
        let id = self.run.get_value() + 1;
        self.run.set_value(id);
        self.error.set(None);
        self.phase.set(Phase::Training);
        self.worker.send(Request::Live(LiveRequest { run: id, start, lambda: s.lambda, k: s.k, seed: s.seed, steps: MAX_LIVE_STEPS }));
    }

    /// Empty plots.
    pub(super) fn clear(self) {
        self.curve.set(Vec::new());
        self.accuracy.set(Vec::new());
        self.lm.set(None);
        self.jepa.set(None);
        self.step.set(0);
        self.showing_recorded.set(false);
    }

    /// The plots show a recorded session (`steps` trained), as if it had just been trained here.
    pub(super) fn show_recorded(self, view: JepaView, steps: usize) {
        self.curve.set(view.curve);
        self.accuracy.set(view.accuracy);
        let (lm, jepa) = view.last.unzip();
        self.lm.set(lm);
        self.jepa.set(jepa);
        self.step.set(steps);
        self.showing_recorded.set(true);
    }

    /// New models (fresh, or the shipped end of training), curves cleared (a recorded session
    /// too).
    pub(super) fn start(self) {
        self.clear();
        let trained = self.settings.with_untracked(|s| s.trained);
        self.send(if trained { LiveStart::Trained } else { LiveStart::Fresh });
        self.settings.update(|s| s.run = true);
    }

    pub(super) fn pause(self) {
        self.worker.send(Request::Cancel { run: self.run.get_value() });
    }

    /// Continues the paused models with the current lambda and k.
    pub(super) fn resume(self) {
        self.send(LiveStart::Continue);
    }

    /// lambda or k changed: a training session picks them up at once.
    pub(super) fn retune(self) {
        if self.phase.get_untracked() == Phase::Training {
            self.send(LiveStart::Continue);
        }
    }
}
