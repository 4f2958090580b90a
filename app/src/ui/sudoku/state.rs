//! Everything `/sudoku` holds: its settings, runs and worker, the puzzle's editing state, what
//! the engine says about the puzzle and about the samples. All `Copy`.

use std::collections::BTreeSet;

use engine::gram::select::Selection;
use engine::tasks::sudoku::{Difficulty, SudokuGrid, assess, unique_solution};
use engine::tasks::sudoku::{WidthPoint, vote, width_curve};
use leptos::prelude::*;

use super::url::SudokuSettings;
use crate::ui::browser::now;
use crate::ui::model_worker::ModelWorker;
use crate::ui::trajectories::reasoner::ReasonerPage;
use crate::ui::trajectories::session::Session;

/// What a run was asked: the puzzle, and the exact solver's answer (a run only starts for a
/// puzzle with exactly one).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Task {
    pub(super) puzzle: SudokuGrid,
    pub(super) solution: SudokuGrid,
}

/// A generated puzzle's facts, shown under the grid.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Generated {
    pub(super) difficulty: Difficulty,
    pub(super) givens: usize,
    pub(super) guesses: u64,
}

#[derive(Clone, Copy)]
pub(super) struct SudokuState {
    pub(super) settings: RwSignal<SudokuSettings>,
    pub(super) session: Session<Task>,
    pub(super) worker: ModelWorker,
    /// The cell whose nine probabilities are shown (none chosen: the first blank).
    pub(super) cell_focus: RwSignal<Option<usize>>,
    /// The last run's curve, when it was the same puzzle.
    pub(super) previous: RwSignal<Option<(String, Vec<WidthPoint>)>>,
    pub(super) paste: RwSignal<String>,
    pub(super) paste_error: RwSignal<Option<String>>,
    pub(super) difficulty: RwSignal<Difficulty>,
    pub(super) generated: RwSignal<Option<Generated>>,
    // What the engine says about the puzzle: derived from the puzzle alone, so moving a slider
    // does not re-run the solver; one exact search gives both whether the puzzle is proper and
    // its search effort.
    pub(super) puzzle: Memo<SudokuGrid>,
    pub(super) conflicts: Memo<BTreeSet<usize>>,
    pub(super) assessment: Memo<Result<u64, String>>,
    // What is on screen of the run.
    pub(super) samples: Memo<Vec<SudokuGrid>>,
    pub(super) voted: Memo<Option<(SudokuGrid, usize)>>,
    pub(super) curve: Memo<Option<Vec<WidthPoint>>>,
}

impl SudokuState {
    /// The page's state from `initial`; starts the worker and loads the model's weights.
    pub(super) fn new(initial: SudokuSettings, reduced_motion: bool) -> Self {
        let settings = RwSignal::new(initial.clone());
        let session = Session::<Task>::new(reduced_motion);
        // The page shows where the run verified, not a first valid sample.
        let worker = session.spawn_worker(&initial, |_, _| false);

        let puzzle = Memo::new(move |_| settings.with(|s| s.puzzle.clone()));
        let conflicts = Memo::new(move |_| puzzle.with(|p| p.conflicts().into_iter().collect::<BTreeSet<_>>()));
        let assessment = Memo::new(move |_| puzzle.with(|p| assess(p).map_err(|e| e.to_string())));
        let samples = session.samples(|b| SudokuGrid::parse(b).ok());
        // The answer the page's rule picks (the vote, or the highest LPRM value), and how many
        // samples agree with it.
        let picked = session.picked;
        let voted = Memo::new(move |_| match session.pick.get() {
            Selection::Vote => samples.with(|s| vote(s)),
            Selection::Lprm | Selection::Q => samples.with(|s| {
                let grid = s.get(picked.get()?)?.clone();
                let agree = s.iter().filter(|g| **g == grid).count();
                Some((grid, agree))
            }),
        });
        let run = session.run;
        let curve = Memo::new(move |_| {
            let solution = run.with(|r| r.as_ref().map(|r| r.task.solution.clone()))?;
            if samples.with(Vec::is_empty) {
                return None;
            }
            Some(samples.with(|s| width_curve(s, &solution)))
        });
        Self {
            settings,
            session,
            worker,
            cell_focus: RwSignal::new(None),
            previous: RwSignal::new(None),
            paste: RwSignal::new(String::new()),
            paste_error: RwSignal::new(None),
            difficulty: RwSignal::new(Difficulty::Hard),
            generated: RwSignal::new(None),
            puzzle,
            conflicts,
            assessment,
            samples,
            voted,
            curve,
        }
    }

    /// Loads the pasted text, or says why not (the grid stays).
    pub(super) fn load_paste(self) {
        let text = self.paste.get_untracked();
        match SudokuGrid::from_pasted(&text) {
            Ok(g) => {
                self.paste_error.set(None);
                self.generated.set(None);
                self.edit(&|p: &mut SudokuGrid| *p = g.clone());
            }
            Err(e) => self.paste_error.set(Some(format!("Not loaded: {e}. The grid is unchanged."))),
        }
    }

    /// A new puzzle of the chosen difficulty, seeded by the clock and the seed.
    pub(super) fn new_puzzle(self) {
        let d = self.difficulty.get_untracked();
        let seed = (now() as u64).wrapping_mul(2_654_435_761) ^ self.settings.with_untracked(|s| s.sampling.seed);
        let inst = d.generate(seed);
        self.generated.set(Some(Generated { difficulty: d, givens: inst.givens(), guesses: inst.guesses }));
        self.paste_error.set(None);
        self.edit(&|p: &mut SudokuGrid| *p = inst.puzzle.clone());
    }
}

/// The settings panel's view of the page (`ReasonerPanel`).
impl ReasonerPage for SudokuState {
    type Input = SudokuGrid;
    type Puzzle = Task;
    const RECORDED: &'static str = "sudoku";
    const BLOCKED_HINT: Option<&'static str> = Some("Solve needs a puzzle with exactly one solution and no clashes (see under the grid).");

    fn parts(self) -> (RwSignal<SudokuSettings>, Session<Task>, ModelWorker) {
        (self.settings, self.session, self.worker)
    }

    /// Only a puzzle with exactly one solution.
    fn puzzle_of(puzzle: &SudokuGrid) -> Option<Task> {
        unique_solution(puzzle).map(|solution| Task { puzzle: puzzle.clone(), solution })
    }

    fn on_edit(self) {
        self.previous.set(None);
    }

    /// Keeps the last run's curve to compare with, when it was the same puzzle.
    fn before_run(self) {
        if let (Some(points), Some(r)) = (self.curve.get_untracked(), self.session.run.get_untracked()) {
            if self.settings.with_untracked(|s| r.task.puzzle == s.puzzle) {
                let label = format!("previous run ({}, seed {})", r.label, self.settings.with_untracked(|s| s.sampling.seed));
                self.previous.set(Some((label, points)));
            } else {
                self.previous.set(None);
            }
        }
        self.cell_focus.set(None);
    }

    /// Solve is not possible: cells clash, or the puzzle has no single solution.
    fn blocked(self) -> bool {
        !self.conflicts.with(BTreeSet::is_empty) || self.assessment.with(Result::is_err)
    }
}
