//! Everything `/generate` holds: its settings, runs and worker, and what the engine says of the
//! samples on screen (each board valid or not, how many distinct). All `Copy`.

use std::collections::BTreeSet;

use engine::tasks::boards::SUDOKU_GRIDS;
use engine::tasks::nqueens::{Board, all_solutions};
use engine::tasks::sudoku::SudokuGrid;
use leptos::prelude::*;

use super::url::{GenerateSettings, Kind};
use crate::ui::model_worker::ModelWorker;
use crate::ui::trajectories::reasoner::ReasonerPage;
use crate::ui::trajectories::session::Session;

/// One sample at the step on screen, as the gallery shows it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Sample {
    pub text: String,
    /// Boards: a valid N-Queens solution; grids: a full Sudoku grid without a clash; digits:
    /// `None` (no rule to check).
    pub valid: Option<bool>,
}

#[derive(Clone, Copy)]
pub(super) struct GenerateState {
    pub(super) settings: RwSignal<GenerateSettings>,
    pub(super) session: Session<Kind>,
    pub(super) worker: ModelWorker,
    /// The samples of the step on screen, judged by the run's kind.
    pub(super) samples: Memo<Vec<Sample>>,
    /// Distinct samples on screen: valid ones for boards, all for digits.
    pub(super) distinct: Memo<usize>,
}

/// Whether `text` is a valid board of the run's kind (`None` for digits).
fn judge(kind: Kind, text: &str) -> Option<bool> {
    match kind {
        Kind::Digits => None,
        Kind::Queens8 => Some(Board::parse(text, 8).is_ok_and(|b| b.is_solution())),
        Kind::Sudoku => Some(SudokuGrid::parse(text).is_ok_and(|g| g.is_solved())),
    }
}

/// Valid boards or grids there are of a kind, as the counter writes it (92 8x8 N-Queens
/// boards, 6,670,903,752,021,072,936,960 Sudoku grids); digits have no rule.
pub(super) fn total_valid(kind: Kind) -> String {
    match kind {
        Kind::Digits => String::new(),
        Kind::Queens8 => all_solutions(8).len().to_string(),
        Kind::Sudoku => group_thousands(SUDOKU_GRIDS),
    }
}

/// `6670903752021072936960` as `6,670,903,752,021,072,936,960`.
fn group_thousands(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

impl GenerateState {
    pub(super) fn new(initial: GenerateSettings, reduced_motion: bool) -> Self {
        let settings = RwSignal::new(initial.clone());
        let session = Session::<Kind>::new(reduced_motion);
        let worker = session.spawn_worker(&initial, |k: &Kind, b: &str| judge(*k, b) == Some(true));
        let run = session.run;
        let current = session.current;
        let samples = Memo::new(move |_| {
            let Some(kind) = run.with(|r| r.as_ref().map(|r| r.task)) else { return Vec::new() };
            current.with(|c| {
                c.as_ref()
                    .map(|rep| rep.boards.iter().map(|t| Sample { text: t.clone(), valid: judge(kind, t) }).collect())
                    .unwrap_or_default()
            })
        });
        let distinct = Memo::new(move |_| {
            samples.with(|s| s.iter().filter(|x| x.valid != Some(false)).map(|x| x.text.as_str()).collect::<BTreeSet<_>>().len())
        });
        Self { settings, session, worker, samples, distinct }
    }

    /// Another kind: its weights load and the run on screen goes.
    pub(super) fn set_kind(self, kind: Kind) {
        if self.settings.with_untracked(|s| s.puzzle) == kind {
            return;
        }
        self.session.clear(self.worker);
        self.settings.update(|s| {
            s.puzzle = kind;
            s.sampling.run = false;
        });
        self.worker.load(&self.settings.with_untracked(GenerateSettings::weights));
    }
}

impl ReasonerPage for GenerateState {
    type Input = Kind;
    type Puzzle = Kind;
    const RECORDED: &'static str = "generate";
    const RUN_LABEL: &'static str = "Generate";
    const PICKS: bool = false;

    fn parts(self) -> (RwSignal<GenerateSettings>, Session<Kind>, ModelWorker) {
        (self.settings, self.session, self.worker)
    }

    fn puzzle_of(kind: &Kind) -> Option<Kind> {
        Some(*kind)
    }

    /// The constant input: the blank image, the empty board or grid.
    fn worker_input(kind: &Kind) -> String {
        kind.blank_input()
    }
}
