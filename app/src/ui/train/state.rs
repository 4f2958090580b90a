//! Everything `/train` holds: the settings (URL), and for each model (GRAM, TRM) its own worker,
//! its curve, where its training is, and its files when the visitor downloads them. All `Copy`.

use engine::tasks::TaskId;
use engine::training::recorded::RecordedTraining;
use engine::training::trial::held_out_puzzles;
use leptos::prelude::*;

use super::url::{HELD_OUT_INPUTS, HELD_OUT_SAMPLES, MAX_STEPS, MEASURE_EVERY, POINT_EVERY, TASK, TrainSettings};
use crate::protocol::{BackendChoice, CurvePoint, Request, Response, TrainRequest, TrainStart, Trial, TryRequest};
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
    /// "Try it": the latest trial's answers (or why there are none), and whether one is asked.
    pub(super) tried: RwSignal<Option<Result<Trial, String>>>,
    pub(super) trying: RwSignal<bool>,
    run: StoredValue<u64>,
}

impl Side {
    fn new(guidance: bool) -> Self {
        let curve = RwSignal::new(Vec::<CurvePoint>::new());
        let (phase, step, millis_per_step, error) = (RwSignal::new(Phase::Idle), RwSignal::new(0), RwSignal::new(0.0), RwSignal::new(None));
        let (tried, trying) = (RwSignal::new(None), RwSignal::new(false));
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
            Response::Tried(answers) => {
                trying.set(false);
                tried.set(Some(answers));
            }
            _ => {}
        });
        worker.init(BackendChoice::Cpu);
        Self { guidance, worker, curve, phase, step, millis_per_step, error, tried, trying, run }
    }

    /// The family's name on the page.
    pub(super) fn name(self) -> &'static str {
        if self.guidance { "GRAM" } else { "TRM" }
    }

    /// The family's name in the page's `data-model` attributes.
    pub(super) fn model_id(self) -> &'static str {
        if self.guidance { "gram" } else { "trm" }
    }

    fn send(self, settings: &TrainSettings, start: TrainStart) {
        let id = self.run.get_value() + 1;
        self.run.set_value(id);
        self.error.set(None);
        self.phase.set(Phase::Training);
        if start == TrainStart::Fresh {
            self.curve.set(Vec::new());
            self.step.set(0);
            self.tried.set(None);
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
    /// "Try it": the held-out graphs the curves measure (puzzle text), and which one is tried.
    trial_puzzles: StoredValue<Vec<String>>,
    pub(super) trial_graph: RwSignal<usize>,
    /// `public/runs/train.json` once fetched (`super::recorded`), and whether the plots show it.
    pub(super) recorded: RwSignal<Option<RecordedTraining>>,
    pub(super) showing_recorded: RwSignal<bool>,
}

impl TrainState {
    pub(super) fn new(initial: TrainSettings) -> Self {
        let puzzles = TaskId::parse(TASK).map(|t| held_out_puzzles(t, HELD_OUT_INPUTS)).unwrap_or_default();
        Self {
            settings: RwSignal::new(initial),
            gram: Side::new(true),
            trm: Side::new(false),
            trained: StoredValue::new(None),
            trial_puzzles: StoredValue::new(puzzles),
            trial_graph: RwSignal::new(0),
            recorded: RwSignal::new(None),
            showing_recorded: RwSignal::new(false),
        }
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
        self.showing_recorded.set(false);
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

    /// The held-out graph "Try it" colours (puzzle text).
    pub(super) fn trial_puzzle(self) -> String {
        let i = self.trial_graph.get();
        self.trial_puzzles.with_value(|p| p.get(i).cloned().unwrap_or_default())
    }

    /// Both models colour the trial graph, `HELD_OUT_SAMPLES` times each from the page's seed.
    pub(super) fn try_it(self) {
        let req = TryRequest { puzzle: self.trial_puzzle(), samples: HELD_OUT_SAMPLES, seed: self.settings.get_untracked().seed };
        for side in self.sides() {
            side.tried.set(None);
            side.trying.set(true);
            side.worker.send(Request::Try(req.clone()));
        }
    }

    /// The next of the held-out graphs, tried at once.
    pub(super) fn next_graph(self) {
        let n = self.trial_puzzles.with_value(Vec::len).max(1);
        self.trial_graph.update(|g| *g = (*g + 1) % n);
        self.try_it();
    }

    /// The plots show the recorded run's curves (no model stands behind them: nothing to try
    /// or download until Train).
    pub(super) fn show_recorded(self, run: &RecordedTraining) {
        for (side, curve) in [(self.gram, &run.gram), (self.trm, &run.trm)] {
            side.curve.set(curve.clone());
        }
        self.showing_recorded.set(true);
    }

    /// Plots emptied (the recorded run is not of these settings).
    pub(super) fn clear(self) {
        for side in self.sides() {
            side.curve.set(Vec::new());
        }
        self.showing_recorded.set(false);
    }
}
