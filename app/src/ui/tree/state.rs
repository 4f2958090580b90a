//! Everything `/tree` holds: the question, the text box, the Reasoner's runs and its worker, the
//! noise history, and the latent on screen; and its instant start (the recorded answer of the
//! default question on screen while the weights load). All `Copy`.

use engine::gram::noise::NoiseSource;
use engine::tasks::tree::TreeTask;
use engine::tasks::tree::reasoner::{Explanation, StepView};
use engine::tasks::tree::recorded::RecordedTree;
use leptos::prelude::*;

use super::url::tree_matches;
use super::url::{TreeSettings, WEIGHTS};
use crate::protocol::{BackendChoice, Request, Response, TreeRequest};
use crate::recorded_runs::TREE_RUN;
use crate::ui::browser::now;
use crate::ui::controls::playback::Playback;
use crate::ui::model_worker::ModelWorker;
use crate::ui::recorded::{fetch_recorded, live_once_ready};

/// One route search: what was asked, and the explained answer with the worker's time (ms).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Run {
    pub(super) id: u64,
    pub(super) task: TreeTask,
    pub(super) noise: f64,
    pub(super) seed: u64,
    pub(super) result: Option<(Explanation, f64)>,
    pub(super) error: Option<String>,
    /// Not computed here: the answer recorded ahead (`public/runs/tree.json`), shown while the
    /// weights load.
    pub(super) recorded: bool,
}

/// One answered run of the current tree, for the noise history.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Tried {
    pub(super) noise: f64,
    pub(super) seed: u64,
    pub(super) route: String,
    pub(super) correct: bool,
}

/// The route the Talker wrote, or what it did instead.
pub(super) fn route_or_garbled(route: &Option<String>) -> String {
    route.clone().unwrap_or_else(|| "(no route: the Talker wrote a non-letter)".into())
}

#[derive(Clone, Copy)]
pub(super) struct TreeState {
    pub(super) settings: RwSignal<TreeSettings>,
    /// The tree as text in the text box (applied with "Use this tree").
    pub(super) text: RwSignal<String>,
    pub(super) text_error: RwSignal<Option<String>>,
    pub(super) worker: ModelWorker,
    pub(super) run: RwSignal<Option<Run>>,
    pub(super) history: RwSignal<Vec<Tried>>,
    /// Which latent is on screen.
    pub(super) playback: Playback,
    next_run: StoredValue<u64>,
    generated: StoredValue<u64>,
    pub(super) task: Memo<TreeTask>,
    /// The answer to the question on screen, if the last run asked it.
    pub(super) result: Memo<Option<(Explanation, f64)>>,
    /// The latent on screen.
    pub(super) step: Memo<Option<StepView>>,
    reduced_motion: bool,
}

impl TreeState {
    /// The page's state from `initial`; starts the worker (always on the CPU) and loads the weights.
    pub(super) fn new(initial: TreeSettings, reduced_motion: bool) -> Self {
        let settings = RwSignal::new(initial.clone());
        let run = RwSignal::new(None::<Run>);
        let history = RwSignal::new(Vec::<Tried>::new());
        let steps_of = move |r: &Option<Run>| r.as_ref().and_then(|r| r.result.as_ref()).map_or(0, |x| x.0.steps.len());
        let playback = Playback::new(false, 900, move || run.with_untracked(steps_of));
        let (shown, playing) = (playback.shown, playback.playing);
        let worker = ModelWorker::spawn(move |response| match response {
            Response::Reasoned(report) => {
                let mut answered = None;
                run.update(|r| {
                    if let Some(r) = r.as_mut().filter(|r| r.id == report.run) {
                        answered = Some(Tried {
                            noise: r.noise,
                            seed: r.seed,
                            route: route_or_garbled(&report.explanation.route),
                            correct: report.explanation.correct,
                        });
                        r.result = Some((report.explanation, report.millis));
                    }
                });
                if let Some(t) = answered {
                    history.update(|h| {
                        h.retain(|x| (x.noise, x.seed) != (t.noise, t.seed));
                        h.push(t);
                    });
                    shown.set(if reduced_motion { run.with_untracked(steps_of) } else { 1 });
                    playing.set(!reduced_motion);
                }
            }
            Response::Failed { run: id, message } => run.update(|r| {
                if let Some(r) = r.as_mut().filter(|r| r.id == id) {
                    r.error = Some(message);
                }
            }),
            _ => {}
        });
        // The tree model always runs on burn-flex (see the worker); no GPU is initialised for it.
        worker.init(BackendChoice::Cpu);
        worker.load(WEIGHTS);

        let task = Memo::new(move |_| settings.with(|s| s.task.clone()));
        let result = Memo::new(move |_| run.with(|r| r.as_ref().filter(|r| r.task == task.get()).and_then(|r| r.result.clone())));
        let step = Memo::new(move |_| {
            let i = shown.get();
            result.with(|r| r.as_ref().and_then(|(e, _)| e.steps.get(i.checked_sub(1)?).cloned()))
        });
        Self {
            settings,
            text: RwSignal::new(initial.task.input_text()),
            text_error: RwSignal::new(None),
            worker,
            run,
            history,
            playback,
            next_run: StoredValue::new(1),
            generated: StoredValue::new(0),
            task,
            result,
            step,
            reduced_motion,
        }
    }

    /// A run is waiting for its answer.
    pub(super) fn pending(self) -> bool {
        self.run.with(|r| r.as_ref().is_some_and(|r| r.result.is_none() && r.error.is_none()))
    }

    /// Asks the Reasoner for the route, with the settings' noise and seed.
    pub(super) fn reason(self) {
        let s = self.settings.get_untracked();
        let id = self.next_run.get_value();
        self.next_run.set_value(id + 1);
        self.run.set(Some(Run { id, task: s.task.clone(), noise: s.noise, seed: s.seed, result: None, error: None, recorded: false }));
        self.playback.shown.set(0);
        self.playback.playing.set(false);
        self.worker.send(Request::Reason(TreeRequest {
            run: id,
            model: WEIGHTS.into(),
            input: s.task.input_text(),
            noise: s.noise,
            seed: s.seed,
        }));
        self.settings.update(|s| s.run = true);
    }

    /// Instant start (the URL did not ask for a run): fetches the recorded answer and shows it if
    /// it is the one the settings ask for and nothing ran yet; once the weights are ready, the
    /// live Reasoner answers the same question (noise-free it is deterministic: the same route).
    pub(super) fn instant_start(self) {
        leptos::task::spawn_local(async move {
            if let Some(recorded) = fetch_recorded::<RecordedTree>(TREE_RUN).await {
                self.show_recorded(recorded);
            }
        });
        live_once_ready(self.worker, WEIGHTS, move || self.showing_recorded(), move || self.reason());
    }

    fn show_recorded(self, recorded: RecordedTree) {
        // The page may be gone, or a run started, or the settings changed, while it was fetched.
        let fits = self.settings.try_with_untracked(|s| tree_matches(&recorded, s));
        if fits != Some(true) || self.run.try_with_untracked(Option::is_some) != Some(false) {
            return;
        }
        let Some(task) = recorded.task() else { return };
        let steps = recorded.explanation.steps.len();
        let (noise, seed) = (recorded.noise, recorded.seed);
        // 0: never a worker's run (those start at 1), so no answer of the worker lands here.
        self.run.set(Some(Run { id: 0, task, noise, seed, result: Some((recorded.explanation, 0.0)), error: None, recorded: true }));
        self.playback.shown.set(if self.reduced_motion { steps } else { 1 });
        self.playback.playing.set(!self.reduced_motion);
    }

    /// The recorded answer is on screen (tracked).
    pub(super) fn showing_recorded(self) -> bool {
        self.run.with(|r| r.as_ref().is_some_and(|r| r.recorded))
    }

    /// A new question: the old answer and the noise history belong to the old one.
    pub(super) fn set_task(self, task: TreeTask) {
        self.text.set(task.input_text());
        self.text_error.set(None);
        self.run.set(None);
        self.history.set(Vec::new());
        self.playback.shown.set(0);
        self.settings.update(|s| {
            s.task = task;
            s.run = false;
        });
    }

    /// Uses the text box's tree, or says why not (the tree on screen stays).
    pub(super) fn apply_text(self) {
        match TreeTask::parse(&self.text.get_untracked()) {
            Ok(t) => self.set_task(t),
            Err(e) => self.text_error.set(Some(format!("Not used: {e}. The tree on screen is unchanged."))),
        }
    }

    /// A random tree, seeded by the clock and a counter.
    pub(super) fn generate(self) {
        let n = self.generated.get_value() + 1;
        self.generated.set_value(n);
        let seed = (now() as u64).wrapping_mul(0x9E37_79B9) ^ n.wrapping_mul(0x2545_F491_4F6C_DD1D);
        self.set_task(TreeTask::random(&mut NoiseSource::new(seed)));
    }
}
