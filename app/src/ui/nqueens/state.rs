//! Everything `/nqueens` holds: its settings, runs and worker, what the engine says about the
//! board, and what the visitor can do to them. All `Copy`, so every view and closure captures it.

use std::collections::BTreeSet;

use engine::tasks::nqueens::metrics::{distinct_valid, found_curve};
use engine::tasks::nqueens::{Board, completions};
use leptos::prelude::*;

use super::url::{NQueensSettings, side_of};
use crate::ui::model_worker::ModelWorker;
use crate::ui::trajectories::coverage::{Answers, Coverage};
use crate::ui::trajectories::reasoner::ReasonerPage;
use crate::ui::trajectories::session::Session;

#[derive(Clone, Copy)]
pub(super) struct NQueensState {
    pub(super) settings: RwSignal<NQueensSettings>,
    pub(super) session: Session<Board>,
    pub(super) worker: ModelWorker,
    /// Squares whose queens attack another queen.
    pub(super) conflicts: Memo<BTreeSet<(usize, usize)>>,
    /// The exact solver's completions, the samples on screen, the distinct valid ones among
    /// them, the coverage curves.
    pub(super) coverage: Coverage<Board, Board>,
    /// The solution last copied to the clipboard.
    pub(super) copied: RwSignal<Option<String>>,
}

impl NQueensState {
    /// The page's state from `initial`; starts the worker and loads the model's weights.
    pub(super) fn new(initial: NQueensSettings, reduced_motion: bool) -> Self {
        let settings = RwSignal::new(initial.clone());
        let session = Session::<Board>::new(reduced_motion);
        let completes = |p: &Board, b: &str| Board::parse(b, p.n()).is_ok_and(|b| b.completes(p));
        let worker = session.spawn_worker(&initial, completes);
        let conflicts =
            Memo::new(move |_| settings.with(|s| s.puzzle.conflicts().into_iter().flat_map(|(a, b)| [a, b]).collect::<BTreeSet<_>>()));
        let answers = Answers {
            exact: completions,
            parse: |b| Board::parse(b, side_of(b)).ok(),
            found_curve: |p, s| found_curve(s, p),
            distinct: |p, s| distinct_valid(s, p).into_iter().cloned().collect(),
        };
        let coverage = Coverage::new(settings, session, answers);
        Self { settings, session, worker, conflicts, coverage, copied: RwSignal::new(None) }
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
        self.coverage.previous.set(None);
    }

    /// The last run's curve becomes the one to compare with.
    fn before_run(self) {
        self.coverage.keep_as_previous();
    }

    fn blocked(self) -> bool {
        !self.conflicts.with(BTreeSet::is_empty)
    }
}
