//! Everything `/nqueens` holds: its settings, runs and worker, what the engine says about the
//! board, and what the visitor can do to them. All `Copy`, so every view and closure captures it.

use std::collections::BTreeSet;

use engine::tasks::nqueens::metrics::{distinct_valid, found_curve};
use engine::tasks::nqueens::{Board, completions};
use leptos::prelude::*;

use crate::ui::browser::now;
use crate::ui::trajectories::reasoner::{ReasonerPage, run_label};
use crate::ui::model_worker::ModelWorker;
use crate::ui::plots::coverage::Curve;
use crate::ui::trajectories::session::{Order, Session};
use crate::url_state::nqueens::{Model, NQueensSettings, default_board, held_out, side_of};

#[derive(Clone, Copy)]
pub(super) struct NQueensState {
    pub(super) settings: RwSignal<NQueensSettings>,
    pub(super) session: Session<Board>,
    pub(super) worker: ModelWorker,
    /// Squares whose queens attack another queen.
    pub(super) conflicts: Memo<BTreeSet<(usize, usize)>>,
    /// The exact solver's completions of the board. Editing the board clears the run, so this
    /// is also the run's puzzle's list.
    pub(super) exact: Memo<Vec<Board>>,
    /// The samples of the step on screen.
    pub(super) samples: Memo<Vec<Board>>,
    /// The run's puzzle.
    pub(super) puzzle: Memo<Option<Board>>,
    /// Distinct valid completions among the samples on screen.
    pub(super) found: Memo<Vec<Board>>,
    /// This run's coverage curve up to the step on screen, and the last run's.
    pub(super) curve: Memo<Option<Curve>>,
    pub(super) previous: RwSignal<Option<Curve>>,
    /// The solution last copied to the clipboard.
    pub(super) copied: RwSignal<Option<String>>,
}

impl NQueensState {
    /// The page's state from `initial`; starts the worker and loads the model's weights.
    pub(super) fn new(initial: NQueensSettings, reduced_motion: bool) -> Self {
        let settings = RwSignal::new(initial.clone());
        let session = Session::<Board>::new(reduced_motion);
        let run = session.run;
        let worker = ModelWorker::spawn(move |response| {
            session.on_response(response, |r, report| {
                session.note_first_valid(r, report, |p: &Board, b| Board::parse(b, p.n()).is_ok_and(|b| b.completes(p)))
            })
        });
        worker.init(initial.sampling.backend);
        worker.load(&initial.weights());

        let conflicts = Memo::new(move |_| {
            settings.with(|s| s.board.conflicts().into_iter().flat_map(|(a, b)| [a, b]).collect::<BTreeSet<_>>())
        });
        let exact = Memo::new(move |_| settings.with(|s| completions(&s.board)));
        let samples = session.samples(|b| Board::parse(b, side_of(b)).ok());
        let puzzle = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| r.task.clone())));
        let current = session.current;
        let curve = Memo::new(move |_| {
            if current.with(Option::is_none) {
                return None;
            }
            let run = run.get()?;
            Some(Curve { label: run.label, found: samples.with(|s| found_curve(s, &run.task)), total: exact.with(Vec::len) })
        });
        let found = Memo::new(move |_| {
            let Some(p) = puzzle.get() else { return Vec::new() };
            samples.with(|s| distinct_valid(s, &p).into_iter().cloned().collect::<Vec<_>>())
        });
        Self {
            settings,
            session,
            worker,
            conflicts,
            exact,
            samples,
            puzzle,
            found,
            curve,
            previous: RwSignal::new(None),
            copied: RwSignal::new(None),
        }
    }

    /// Editing the board invalidates the results on screen.
    pub(super) fn edit_board(self, f: &dyn Fn(&mut Board)) {
        self.session.clear(self.worker);
        self.settings.update(|s| {
            f(&mut s.board);
            s.sampling.run = false;
        });
    }

    /// A held-out puzzle of the board's size, picked by the clock.
    pub(super) fn new_puzzle(self) {
        let held_out = held_out(self.settings.with_untracked(NQueensSettings::side));
        let pick = (now() as usize).wrapping_mul(2_654_435_761) % held_out.len().max(1);
        if let Some(p) = held_out.get(pick).cloned() {
            self.edit_board(&|b: &mut Board| *b = p.clone());
        }
    }

    /// Another board size: that size's default board, and the model trained on it.
    pub(super) fn set_side(self, side: usize) {
        if self.settings.with_untracked(NQueensSettings::side) == side {
            return;
        }
        self.previous.set(None);
        self.edit_board(&|b: &mut Board| *b = default_board(side));
        self.worker.load(&self.settings.with_untracked(NQueensSettings::weights));
    }
}

/// The settings panel's view of the page (`ReasonerPanel`).
impl ReasonerPage for NQueensState {
    type Settings = NQueensSettings;
    type Puzzle = Board;
    const RECORDED: &'static str = "nqueens";

    fn settings(self) -> RwSignal<NQueensSettings> {
        self.settings
    }

    fn session(self) -> Session<Board> {
        self.session
    }

    fn order(self) -> Option<Order<Board>> {
        let s = self.settings.get_untracked();
        s.board.conflicts().is_empty().then(|| Order {
            label: run_label(s.model, &s.sampling),
            weights: s.weights(),
            puzzle: s.board.to_text(),
            task: s.board,
        })
    }

    fn worker(self) -> ModelWorker {
        self.worker
    }

    fn model(self) -> Model {
        self.settings.with(|s| s.model)
    }

    /// Samples N trajectories of the board (not while queens attack each other); the last run's
    /// curve becomes the one to compare with.
    fn solve(self) {
        let s = self.settings.get_untracked();
        if !s.board.conflicts().is_empty() {
            return;
        }
        if let Some(c) = self.curve.get_untracked() {
            self.previous.set(Some(c));
        }
        let Some(order) = self.order() else { return };
        self.session.start(self.worker, order, &s.sampling);
        self.settings.update(|s| s.sampling.run = true);
    }

    fn stop(self) {
        self.session.stop(self.worker);
    }

    fn set_model(self, model: Model) {
        self.settings.update(|s| {
            s.model = model;
            s.sampling.run = false;
        });
        self.worker.load(&self.settings.with_untracked(NQueensSettings::weights));
    }

    fn blocked(self) -> bool {
        !self.conflicts.with(BTreeSet::is_empty)
    }
}
