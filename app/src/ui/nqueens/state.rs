//! Everything `/nqueens` holds: its settings, runs and worker, what the engine says about the
//! board, and what the visitor can do to them. All `Copy`, so every view and closure captures it.

use std::collections::BTreeSet;

use engine::tasks::nqueens::metrics::{distinct_valid, found_curve};
use engine::tasks::nqueens::{Board, completions};
use leptos::prelude::*;

use crate::ui::trajectories::reasoner::ReasonerPage;
use crate::ui::model_worker::ModelWorker;
use crate::ui::plots::coverage::Curve;
use crate::ui::trajectories::session::Session;
use crate::url_state::nqueens::{NQueensSettings, side_of};

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
            settings.with(|s| s.puzzle.conflicts().into_iter().flat_map(|(a, b)| [a, b]).collect::<BTreeSet<_>>())
        });
        let exact = Memo::new(move |_| settings.with(|s| completions(&s.puzzle)));
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
}

/// The settings panel's view of the page (`ReasonerPanel`).
impl ReasonerPage for NQueensState {
    type Input = Board;
    type Puzzle = Board;
    const RECORDED: &'static str = "nqueens";

    fn parts(self) -> (RwSignal<NQueensSettings>, Session<Board>, ModelWorker) {
        (self.settings, self.session, self.worker)
    }

    /// Not while queens attack each other.
    fn puzzle_of(board: &Board) -> Option<Board> {
        board.conflicts().is_empty().then(|| board.clone())
    }

    fn on_resize(self) {
        self.previous.set(None);
    }

    /// The last run's curve becomes the one to compare with.
    fn before_run(self) {
        if let Some(c) = self.curve.get_untracked() {
            self.previous.set(Some(c));
        }
    }

    fn blocked(self) -> bool {
        !self.conflicts.with(BTreeSet::is_empty)
    }
}
