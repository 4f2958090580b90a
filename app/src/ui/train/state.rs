//! Everything `/train` holds: the settings (URL), and for each model (GRAM, TRM) its own worker,
//! its curve, where its training is, and its files when the visitor downloads them. All `Copy`.

use leptos::prelude::*;

use super::url::{HELD_OUT_INPUTS, HELD_OUT_SAMPLES, MAX_STEPS, MEASURE_EVERY, POINT_EVERY, TASK, TrainSettings};
use crate::protocol::{BackendChoice, CurvePoint, Request, Response, TrainRequest, TrainStart};
use crate::ui::model_worker::ModelWorker;
use crate::ui::plots::export::{download, download_bytes};

/// Where a model's training is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    Idle,
    Training,
    Paused,
}

/// One model's side of the page: GRAM (guided) or TRM.
#[derive(Clone, Copy)]
pub(super) struct Side {
    pub(super) guidance: bool,
    worker: ModelWorker,
    pub(super) curve: RwSignal<Vec<CurvePoint>>,
    pub(super) phase: RwSignal<Phase>,
    pub(super) step: RwSignal<usize>,
    pub(super) millis_per_step: RwSignal<f64>,
    pub(super) error: RwSignal<Option<String>>,
    run: StoredValue<u64>,
}

impl Side {
    fn new(guidance: bool) -> Self {
        let curve = RwSignal::new(Vec::<CurvePoint>::new());
        let (phase, step, millis_per_step, error) = (RwSignal::new(Phase::Idle), RwSignal::new(0), RwSignal::new(0.0), RwSignal::new(None));
        let run = StoredValue::new(0u64);
        let current = move |id: u64| run.get_value() == id;
        let worker = ModelWorker::spawn(move |response| match response {
            Response::TrainProgress(p) if current(p.run) => {
                step.set(p.point.step);
                millis_per_step.set(p.millis_per_step);
                curve.update(|c| c.push(p.point));
            }
            Response::TrainPaused { run: id, step: s } if current(id) => {
                step.set(s);
                phase.set(Phase::Paused);
            }
            Response::Failed { run: id, message } if current(id) => {
                error.set(Some(message));
                phase.set(Phase::Paused);
            }
            Response::Trained(Ok(files)) => {
                download_bytes(&format!("{}.bpk", files.name), "application/octet-stream", &files.bpk);
                download(&format!("{}.json", files.name), "application/json", &files.manifest);
            }
            Response::Trained(Err(message)) => error.set(Some(message)),
            _ => {}
        });
        worker.init(BackendChoice::Cpu);
        Self { guidance, worker, curve, phase, step, millis_per_step, error, run }
    }

    /// The family's name on the page.
    pub(super) fn name(self) -> &'static str {
        if self.guidance { "GRAM" } else { "TRM" }
    }

    fn send(self, settings: &TrainSettings, start: TrainStart) {
        let id = self.run.get_value() + 1;
        self.run.set_value(id);
        self.error.set(None);
        self.phase.set(Phase::Training);
        if start == TrainStart::Fresh {
            self.curve.set(Vec::new());
            self.step.set(0);
        }
        self.worker.send(Request::Train(TrainRequest {
            run: id,
            task: TASK.into(),
            guidance: self.guidance,
            width: settings.width,
            seed: settings.seed,
            start,
            steps: MAX_STEPS,
            point_every: POINT_EVERY,
            measure_every: MEASURE_EVERY,
            inputs: HELD_OUT_INPUTS,
            samples: HELD_OUT_SAMPLES,
        }));
    }

    fn pause(self) {
        self.worker.send(Request::Cancel { run: self.run.get_value() });
    }

    /// The latest held-out measure: (step, accuracy %, coverage %).
    pub(super) fn measured(self) -> Option<(usize, f64, f64)> {
        self.curve.with(|c| c.iter().rev().find_map(|p| p.held_out.map(|(a, v)| (p.step, a, v))))
    }
}

#[derive(Clone, Copy)]
pub(super) struct TrainState {
    pub(super) settings: RwSignal<TrainSettings>,
    pub(super) gram: Side,
    pub(super) trm: Side,
    /// The seed and width the models in the workers started from.
    trained: StoredValue<Option<(u64, usize)>>,
}

impl TrainState {
    pub(super) fn new(initial: TrainSettings) -> Self {
        Self { settings: RwSignal::new(initial), gram: Side::new(true), trm: Side::new(false), trained: StoredValue::new(None) }
    }

    pub(super) fn sides(self) -> [Side; 2] {
        [self.gram, self.trm]
    }

    /// Either model training.
    pub(super) fn training(self) -> bool {
        self.sides().iter().any(|s| s.phase.get() == Phase::Training)
    }

    /// Both models from fresh weights of the seed, curves cleared.
    pub(super) fn start(self) {
        let s = self.settings.get_untracked();
        for side in self.sides() {
            side.send(&s, TrainStart::Fresh);
        }
        self.trained.set_value(Some((s.seed, s.width)));
        self.settings.update(|s| s.run = true);
    }

    pub(super) fn pause(self) {
        for side in self.sides() {
            side.pause();
        }
    }

    /// Both models go on from where they paused; with another seed or width since, they start
    /// again (the paused models are of the old settings).
    pub(super) fn resume(self) {
        let s = self.settings.get_untracked();
        if self.trained.get_value() != Some((s.seed, s.width)) {
            return self.start();
        }
        for side in self.sides() {
            side.send(&s, TrainStart::Continue);
        }
    }

    /// Asks `side`'s worker for its model's files (they download when they arrive).
    pub(super) fn download(self, side: Side) {
        side.worker.send(Request::Download);
    }
}
