//! The lifecycle of the runs on one page: start N trajectories in the worker, take its step
//! reports, stop or clear the run. A newer run cancels the older one.

use leptos::prelude::*;

use super::record::SampledRun;
use crate::protocol::{Request, Response, SolveRequest, StepReport};
use crate::ui::browser::now;
use crate::ui::controls::playback::Playback;
use crate::ui::model_worker::ModelWorker;
use crate::url_state::sampling::Sampling;

/// What the page asks the worker for: its puzzle and the weights to run.
pub struct Order<P> {
    pub task: P,
    /// The status line's name of the run.
    pub label: String,
    pub weights: String,
    /// The puzzle as text, as the worker reads it.
    pub puzzle: String,
}

/// The runs of one page. All `Copy`, so closures capture it.
pub struct Session<P: Send + Sync + 'static> {
    pub run: RwSignal<Option<SampledRun<P>>>,
    /// Step reports of the current run, in order.
    pub reports: RwSignal<Vec<StepReport>>,
    pub playback: Playback,
    /// The sample looked into (0-based).
    pub focus: RwSignal<usize>,
    /// The report of the step on screen.
    pub current: Memo<Option<StepReport>>,
    next_id: StoredValue<u64>,
    reduced_motion: bool,
}

impl<P: Send + Sync + 'static> Clone for Session<P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P: Send + Sync + 'static> Copy for Session<P> {}

impl<P: Clone + Send + Sync + 'static> Session<P> {
    /// No run yet; playback starts playing unless the visitor asked for less motion.
    pub fn new(reduced_motion: bool) -> Self {
        let reports = RwSignal::new(Vec::<StepReport>::new());
        let playback = Playback::new(!reduced_motion, 500, move || reports.with_untracked(Vec::len));
        let shown = playback.shown;
        let current = Memo::new(move |_| {
            let i = shown.get();
            reports.with(|r| r.get(i.checked_sub(1)?).cloned())
        });
        Self {
            run: RwSignal::new(None),
            reports,
            playback,
            focus: RwSignal::new(0),
            current,
            next_id: StoredValue::new(1),
            reduced_motion,
        }
    }

    /// The samples of the step on screen, as `parse` reads each answer (unreadable ones left out).
    pub fn samples<T>(self, parse: fn(&str) -> Option<T>) -> Memo<Vec<T>>
    where
        T: PartialEq + Send + Sync + 'static,
    {
        let current = self.current;
        Memo::new(move |_| {
            current.with(|c| c.as_ref().map(|r| r.boards.iter().filter_map(|b| parse(b)).collect()).unwrap_or_default())
        })
    }

    /// A run is computing (tracked).
    pub fn running(self) -> bool {
        self.run.with(|r| r.as_ref().is_some_and(SampledRun::running))
    }

    /// Takes the worker's answers about runs; `on_step` sees each step of the current run
    /// before it is stored.
    pub fn on_response(self, response: Response, on_step: impl FnOnce(&SampledRun<P>, &StepReport)) {
        match response {
            Response::Step(report) => {
                let Some(run) = self.run.get_untracked().filter(|r| r.id == report.run) else { return };
                on_step(&run, &report);
                self.reports.update(|r| r.push(report));
                let arrived = self.reports.with_untracked(Vec::len);
                // Without animation, the page follows the newest step unless the visitor went back.
                let shown = self.playback.shown;
                if self.reduced_motion && shown.get_untracked() + 1 == arrived {
                    shown.set(arrived);
                }
            }
            Response::Done { run, verified, .. } => self.run.update(|r| {
                if let Some(r) = r.as_mut().filter(|r| r.id == run) {
                    r.done_ms = Some(now() - r.started);
                    r.verified = verified;
                }
            }),
            Response::Failed { run, message } => self.run.update(|r| {
                if let Some(r) = r.as_mut().filter(|r| r.id == run) {
                    r.error = Some(message);
                }
            }),
            _ => {}
        }
    }

    /// Starts `order` with `sampling`'s N, scale, seed, steps, stop and restarts (cancelling any
    /// run before it).
    pub fn start(self, worker: ModelWorker, order: Order<P>, sampling: &Sampling) {
        self.cancel(worker);
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        self.run.set(Some(SampledRun {
            id,
            task: order.task,
            label: order.label,
            samples: sampling.samples,
            steps: sampling.steps,
            scale: sampling.scale,
            started: now(),
            first_valid_ms: None,
            done_ms: None,
            verified_stop: sampling.stop,
            restarts: if sampling.stop { sampling.restarts } else { 0 },
            verified: None,
            stopped: false,
            error: None,
        }));
        self.reports.set(Vec::new());
        self.playback.shown.set(0);
        self.focus.set(0);
        self.playback.playing.set(!self.reduced_motion);
        worker.send(Request::Solve(SolveRequest {
            run: id,
            model: order.weights,
            puzzle: order.puzzle,
            samples: sampling.samples,
            guidance_scale: sampling.scale,
            seed: sampling.seed,
            steps: sampling.steps,
            verified_stop: sampling.stop,
            restarts: if sampling.stop { sampling.restarts } else { 0 },
        }));
    }

    /// Notes, once per run, that a step report held a valid answer (`is_valid` judges one
    /// answer's text against the run's puzzle): the status line's "first valid after".
    pub fn note_first_valid(self, run: &SampledRun<P>, report: &StepReport, is_valid: impl Fn(&P, &str) -> bool) {
        if run.first_valid_ms.is_some() || !report.boards.iter().any(|b| is_valid(&run.task, b)) {
            return;
        }
        let t = now() - run.started;
        self.run.update(|r| {
            if let Some(r) = r.as_mut().filter(|r| r.id == run.id) {
                r.first_valid_ms = Some(t);
            }
        });
    }

    /// Asks the worker to stop the run, if it is not done.
    fn cancel(self, worker: ModelWorker) {
        if let Some(id) = self.run.with_untracked(|r| r.as_ref().filter(|r| r.done_ms.is_none()).map(|r| r.id)) {
            worker.send(Request::Cancel { run: id });
        }
    }

    /// Stop: the run ends after its current step; what arrived stays on screen.
    pub fn stop(self, worker: ModelWorker) {
        self.cancel(worker);
        self.run.update(|r| {
            if let Some(r) = r.as_mut().filter(|r| r.done_ms.is_none()) {
                r.stopped = true;
            }
        });
    }

    /// The puzzle changed: the run and its results go.
    pub fn clear(self, worker: ModelWorker) {
        self.cancel(worker);
        self.run.set(None);
        self.reports.set(Vec::new());
        self.playback.shown.set(0);
    }
}
