//! The lifecycle of the runs on one page: start N trajectories in the worker, take its step
//! reports, stop or clear the run. A newer run cancels the older one.

use engine::gram::select::Selection;
use leptos::prelude::*;

use super::record::SampledRun;
use engine::solve::recorded::RecordedRun;

use crate::protocol::{Intervention, Lane, Request, Response, SolveRequest, StepReport};
use crate::recorded_runs;
use crate::ui::browser::now;
use crate::ui::controls::playback::Playback;
use crate::ui::model_worker::{ModelWorker, helpers_for, shares_restarts};
use crate::url_state::gram_page::{GramSettings, PageInput};
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
    /// How one answer is picked among the N: the majority vote or the highest LPRM value.
    pub pick: RwSignal<Selection>,
    /// The sample that rule picks at the step on screen.
    pub picked: Memo<Option<usize>>,
    next_id: StoredValue<u64>,
    /// What the worker was last asked for (a change mid-run replays it).
    request: StoredValue<Option<SolveRequest>>,
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
        let pick = RwSignal::new(Selection::Vote);
        let picked = Memo::new(move |_| {
            let rule = pick.get();
            current.with(|c| {
                let c = c.as_ref().filter(|c| !c.boards.is_empty())?;
                let answers: Vec<Vec<u32>> = c.boards.iter().map(|b| b.bytes().map(u32::from).collect()).collect();
                // The Q-head's pick needs the step's halting logits (older recordings lack them).
                if rule == Selection::Q && c.halt_logits.len() != c.boards.len() {
                    return None;
                }
                Some(rule.pick(&answers, &c.values, &c.halt_logits))
            })
        });
        Self {
            pick,
            picked,
            run: RwSignal::new(None),
            reports,
            playback,
            focus: RwSignal::new(0),
            current,
            next_id: StoredValue::new(1),
            request: StoredValue::new(None),
            reduced_motion,
        }
    }

    /// The samples of the step on screen, as `parse` reads each answer (unreadable ones left out).
    pub fn samples<T>(self, parse: fn(&str) -> Option<T>) -> Memo<Vec<T>>
    where
        T: PartialEq + Send + Sync + 'static,
    {
        let current = self.current;
        Memo::new(move |_| current.with(|c| c.as_ref().map(|r| r.boards.iter().filter_map(|b| parse(b)).collect()).unwrap_or_default()))
    }

    /// Sample `i`'s LPRM value at the step on screen (tracked).
    pub fn value_of(self, i: usize) -> Option<f32> {
        self.current.with(|c| c.as_ref()?.values.get(i).copied())
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
                // After the run ended (another worker verified first) a last step may still come.
                let Some(run) = self.run.get_untracked().filter(|r| r.id == report.run && r.done_ms.is_none()) else { return };
                on_step(&run, &report);
                self.push(report);
            }
            Response::LaneVerified { report, verified } => {
                let Some(run) = self.run.get_untracked().filter(|r| r.id == report.run && r.done_ms.is_none()) else { return };
                on_step(&run, &report);
                self.push(report);
                self.finish(run.id, Some(verified));
            }
            Response::Done { run, verified, .. } => self.finish(run, verified),
            Response::Failed { run, message } => self.run.update(|r| {
                if let Some(r) = r.as_mut().filter(|r| r.id == run) {
                    r.error = Some(message);
                }
            }),
            _ => {}
        }
    }

    fn push(self, report: StepReport) {
        self.reports.update(|r| r.push(report));
        let arrived = self.reports.with_untracked(Vec::len);
        // Without animation, the page follows the newest step unless the visitor went back.
        let shown = self.playback.shown;
        if self.reduced_motion && shown.get_untracked() + 1 == arrived {
            shown.set(arrived);
        }
    }

    /// Run `id` ended (the first end counts: another worker's may follow). A sample that
    /// verified in the step under way when Stop was pressed is still the run's answer, so the
    /// run reads as verified, not stopped.
    fn finish(self, id: u64, verified: Option<crate::protocol::VerifiedStep>) {
        self.run.update(|r| {
            if let Some(r) = r.as_mut().filter(|r| r.id == id && r.done_ms.is_none()) {
                r.done_ms = Some(now() - r.started);
                r.verified = verified;
                r.stopped &= verified.is_none();
            }
        });
    }

    /// Starts `order` with `sampling`'s N, scale, seed, steps, stop and restarts (cancelling any
    /// run before it).
    pub fn start(self, worker: ModelWorker, order: Order<P>, sampling: &Sampling) {
        self.cancel(worker);
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        let request = SolveRequest::new(id, order.weights, order.puzzle, sampling.knobs());
        // Lane 0 of the worker's lanes when they may share the restarts. A change mid-run
        // replays this request as it is, so the replay runs the rounds the page showed (the
        // helpers' rounds are not run again in a changed run).
        let lanes = worker.lanes();
        let request =
            SolveRequest { lane: if lanes > 1 && shares_restarts(&request) { Lane { index: 0, lanes } } else { Lane::ALONE }, ..request };
        // Otherwise the workers split its samples (the same boards, sooner).
        let request = SolveRequest { share: worker.share_for(&request), ..request };
        self.run.set(Some(SampledRun::of(&request, order.task, order.label, now())));
        self.reports.set(Vec::new());
        self.playback.shown.set(0);
        self.focus.set(0);
        self.playback.playing.set(!self.reduced_motion);
        self.request.set_value(Some(request.clone()));
        worker.send(Request::Solve(request));
    }

    /// Shows `recorded` (the page's default run, computed ahead by `native-trainer record`) while
    /// the model loads, unless a run was started first. Changing it mid-run replays it live.
    pub fn show_recorded(self, recorded: &RecordedRun, task: P, label: String) {
        if self.run.with_untracked(Option::is_some) {
            return;
        }
        let reports = recorded_runs::reports(recorded, 0);
        // Run 0: never a worker's run (those start at 1), so no report of the worker lands here.
        let request = SolveRequest::new(0, recorded.model.clone(), recorded.puzzle.clone(), recorded_runs::knobs(recorded));
        let done = SampledRun {
            done_ms: Some(0.0),
            verified: recorded_runs::verified(recorded),
            recorded: true,
            ..SampledRun::of(&request, task, label, now())
        };
        self.run.set(Some(done));
        let n = reports.len();
        self.reports.set(reports);
        self.playback.shown.set(if self.reduced_motion { n } else { 0 });
        self.playback.playing.set(!self.reduced_motion);
        self.request.set_value(Some(request));
    }

    /// The recorded run is on screen (tracked).
    pub fn showing_recorded(self) -> bool {
        self.run.with(|r| r.as_ref().is_some_and(|r| r.recorded))
    }

    /// Whether the visitor still watches the run unfold: it computes, or steps that arrived wait
    /// to be shown (tracked).
    pub fn unfolding(self) -> bool {
        let ok = self.run.with(|r| r.as_ref().is_some_and(|r| r.error.is_none()));
        ok && (self.running() || self.playback.shown.get() < self.reports.with(Vec::len))
    }

    /// Changes the run on screen from the step after the one shown (`change` is made for that
    /// step and the sample in focus): the worker replays the run with the same seed up to there,
    /// so the same numbers, applies the change and goes on; the steps after the shown one are
    /// replaced and `note` joins the run's name. False, and nothing sent, when no run unfolds:
    /// the change is then only for the next run.
    pub fn intervene(self, worker: ModelWorker, change: impl FnOnce(usize, usize) -> Intervention, note: &str) -> bool {
        let Some(mut request) = self.request.get_value() else { return false };
        if !self.unfolding_untracked() {
            return false;
        }
        let shown = self.playback.shown.get_untracked();
        let step = shown + 1;
        // Earlier changes at or after this step belonged to the steps being replaced.
        request.interventions.retain(|i| i.step() < step);
        request.interventions.push(change(step, self.focus.get_untracked()));
        self.cancel(worker);
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        request.run = id;
        request.report_from = step;
        self.reports.update(|r| r.truncate(shown));
        self.run.update(|r| {
            if let Some(r) = r.as_mut() {
                r.id = id;
                r.done_ms = None;
                r.stopped = false;
                r.verified = None;
                r.recorded = false;
                r.lanes = 1;
                r.started = now();
                r.label = format!("{}; {note} from step {step}", r.label);
            }
        });
        self.request.set_value(Some(request.clone()));
        worker.send(Request::Solve(request));
        true
    }

    fn unfolding_untracked(self) -> bool {
        untrack(|| self.unfolding())
    }

    /// The page's worker, started on `initial`'s backend with its weights loading; its reports
    /// come to this session, each judged by `is_valid` for the status line's "first valid after".
    pub fn spawn_worker<I: PageInput>(self, initial: &GramSettings<I>, is_valid: fn(&P, &str) -> bool) -> ModelWorker {
        let worker = ModelWorker::spawn(move |response| self.on_response(response, |r, report| self.note_first_valid(r, report, is_valid)));
        let helpers = match initial.sampling.workers {
            0 => helpers_for(window().navigator().hardware_concurrency() as usize),
            w => w - 1,
        };
        let worker = worker.with_helpers(helpers);
        worker.init(initial.sampling.backend);
        worker.load(&initial.weights());
        worker
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
