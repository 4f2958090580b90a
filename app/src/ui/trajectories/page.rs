//! What a page that samples GRAM or TRM offers the shared panel and the instant start: its
//! settings, session and worker, what its input runs as, and the page's few differences. Choosing
//! the model, Solve and Stop are the same on every such page, so they are written here once.

use leptos::prelude::*;

use super::session::{Order, Session};
use crate::ui::browser::now;
use crate::ui::model_worker::ModelWorker;
use crate::url_state::gram_page::{GramSettings, Model, PageInput};
use crate::url_state::sampling::Sampling;

/// How the status line and the coverage plot name a run of `model`.
pub fn run_label(model: Model, sampling: &Sampling) -> String {
    let noise = if sampling.noise > 0.0 { format!(", PTRM latent noise σ {}", sampling.noise) } else { String::new() };
    // Copies without the stop change what the samples are (the plot's legend keeps runs apart).
    let copies = if !sampling.stop && sampling.run_copies() == engine::solve::Copies::Samples { ", a copy per sample" } else { "" };
    let name = match model {
        Model::Gram => format!("GRAM, scale {:.1}{noise}", sampling.scale),
        Model::Trm if sampling.noise > 0.0 => format!("PTRM (TRM{noise})"),
        Model::Trm => "TRM (deterministic)".into(),
    };
    name + copies
}

/// What the settings panel needs from a page that samples GRAM or TRM.
/// A page's settings, its runs and its model's worker ([`ReasonerPage::parts`]).
pub type PageParts<I, P> = (RwSignal<GramSettings<I>>, Session<P>, ModelWorker);

pub trait ReasonerPage: Copy + Send + Sync + 'static {
    /// What the page's URL carries as its input (a board, a graph, a puzzle, a kind).
    type Input: PageInput;
    /// What a run keeps of its input to score the samples with (the board; Sudoku: the puzzle
    /// and its solution).
    type Puzzle: Clone + Send + Sync + 'static;
    /// The page's settings, its runs and its model's worker.
    fn parts(self) -> PageParts<Self::Input, Self::Puzzle>;
    fn settings(self) -> RwSignal<GramSettings<Self::Input>> {
        self.parts().0
    }
    fn session(self) -> Session<Self::Puzzle> {
        self.parts().1
    }
    fn worker(self) -> ModelWorker {
        self.parts().2
    }
    /// The run's puzzle for the input on screen; none while it cannot be solved as it stands.
    fn puzzle_of(input: &Self::Input) -> Option<Self::Puzzle>;
    /// The input as the worker reads it (its URL text unless the page says otherwise).
    fn worker_input(input: &Self::Input) -> String {
        input.text()
    }
    /// Solve is off: the puzzle cannot be solved as it stands (tracked). Never by default.
    fn blocked(self) -> bool {
        false
    }
    /// What the page keeps of the run on screen as a new one starts (the last curve to compare).
    fn before_run(self) {}
    /// What the page drops when the input changes (besides the run on screen).
    fn on_edit(self) {}
    /// What the page drops when the input becomes another size's (the last curve to compare).
    fn on_resize(self) {}

    /// Edits the input: the results on screen go, and a reload no longer starts a run.
    fn edit(self, f: &dyn Fn(&mut Self::Input)) {
        self.session().clear(self.worker());
        self.on_edit();
        self.settings().update(|s| {
            let mut puzzle = s.puzzle.clone();
            f(&mut puzzle);
            s.set_puzzle(puzzle);
            s.sampling.run = false;
        });
    }
    /// A held-out input of the input's size ("New puzzle"), picked by the clock.
    fn new_held_out(self) {
        let size = self.settings().with_untracked(|s| s.puzzle.size());
        let pick = (now() as usize).wrapping_mul(2_654_435_761);
        if let Some(input) = Self::Input::held_out(size, pick) {
            self.edit(&|i: &mut Self::Input| *i = input.clone());
        }
    }
    /// Another size: that size's default input, and the models trained on it.
    fn set_size(self, size: usize) {
        let settings = self.settings();
        if settings.with_untracked(|s| s.puzzle.size()) == size {
            return;
        }
        self.on_resize();
        self.edit(&|input: &mut Self::Input| *input = Self::Input::default_of(size));
        self.worker().load(&settings.with_untracked(GramSettings::weights));
    }

    /// What Solve would run now (none while the puzzle cannot be solved), read untracked.
    fn order(self) -> Option<Order<Self::Puzzle>> {
        let s = self.settings().get_untracked();
        Self::puzzle_of(&s.puzzle).map(|task| Order {
            label: run_label(s.model, &s.sampling),
            weights: s.weights(),
            puzzle: Self::worker_input(&s.puzzle),
            task,
        })
    }
    /// The model chosen now (tracked).
    fn model(self) -> Model {
        self.settings().with(|s| s.model)
    }
    /// Another model: the results on screen stay until the next run; its weights load now.
    fn set_model(self, model: Model) {
        let settings = self.settings();
        settings.update(|s| {
            s.model = model;
            s.sampling.run = false;
        });
        self.worker().load(&settings.with_untracked(GramSettings::weights));
    }
    /// Samples N trajectories of the input (not while it cannot be solved).
    fn solve(self) {
        let Some(order) = self.order() else { return };
        self.before_run();
        let settings = self.settings();
        settings.with_untracked(|s| self.session().start(self.worker(), order, &s.sampling));
        settings.update(|s| s.sampling.run = true);
    }
    fn stop(self) {
        self.session().stop(self.worker());
    }

    /// What the page says while Solve is off (none: nothing).
    const BLOCKED_HINT: Option<&'static str> = None;
    /// The run button's text.
    const RUN_LABEL: &'static str = "Solve";
    /// Whether the page offers the verified stop: its input's (a page with no rule to check does not).
    const VERIFIED_STOP: bool = <Self::Input as PageInput>::VERIFIED_STOP;
    /// Whether the page offers shuffled copies of the puzzle: its input's.
    const COPIES: bool = <Self::Input as PageInput>::COPIES;
    /// What the page's copies checkbox says: its input's.
    const COPIES_LABEL: &'static str = <Self::Input as PageInput>::COPIES_LABEL;
    /// Whether the page picks one answer among the N (generation does not).
    const PICKS: bool = true;
    /// The page's recorded run, `public/runs/<name>.json` (see [`super::instant`]).
    const RECORDED: &'static str;
}
