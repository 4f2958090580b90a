//! Everything `/coloring` holds: its settings, runs and worker, what the engine says about the
//! graph (its colourings), and what the visitor can do to them. All `Copy`, so every view and
//! closure captures it.

use engine::tasks::coloring::metrics::{distinct_valid, found_curve};
use engine::tasks::coloring::{Colouring, Graph, canonical_colourings, from_pasted_onto, is_3_colourable};
use leptos::prelude::*;

use super::url::{ColoringSettings, SIZES};
use crate::ui::model_worker::ModelWorker;
use crate::ui::trajectories::coverage::{Answers, Coverage};
use crate::ui::trajectories::reasoner::ReasonerPage;
use crate::ui::trajectories::session::Session;

#[derive(Clone, Copy)]
pub(super) struct ColoringState {
    pub(super) settings: RwSignal<ColoringSettings>,
    pub(super) session: Session<Graph>,
    pub(super) worker: ModelWorker,
    /// The exact solver's canonical colourings, the samples on screen, the distinct proper
    /// colourings among them (canonical), the coverage curves.
    pub(super) coverage: Coverage<Graph, Colouring>,
    /// The vertex chosen in the editor, waiting for a second one.
    pub(super) chosen: RwSignal<Option<usize>>,
    /// The paste field's text, and why it was not loaded.
    pub(super) paste: RwSignal<String>,
    pub(super) paste_error: RwSignal<Option<String>>,
}

/// An answer's text, one character per vertex (its graph's size; checked against the graph
/// wherever it is used).
fn parse_answer(text: &str) -> Option<Colouring> {
    Colouring::parse_answer(text, text.trim().chars().count()).ok()
}

impl ColoringState {
    /// The page's state from `initial`; starts the worker and loads the model's weights.
    pub(super) fn new(initial: ColoringSettings, reduced_motion: bool) -> Self {
        let settings = RwSignal::new(initial.clone());
        let session = Session::<Graph>::new(reduced_motion);
        let worker = session.spawn_worker(&initial, |g: &Graph, b: &str| parse_answer(b).is_some_and(|c| g.is_coloured_by(&c)));
        let answers = Answers { exact: canonical_colourings, parse: parse_answer, found_curve, distinct: distinct_valid };
        let coverage = Coverage::new(settings, session, answers);
        Self {
            settings,
            session,
            worker,
            coverage,
            chosen: RwSignal::new(None),
            paste: RwSignal::new(String::new()),
            paste_error: RwSignal::new(None),
        }
    }

    /// Loads the pasted graph onto the size on screen, or onto the other size when it needs it
    /// (which loads that size's models), or says why not (the graph stays).
    pub(super) fn load_paste(self) {
        let n = self.settings.with_untracked(|s| s.puzzle.n());
        let sizes: Vec<usize> = std::iter::once(n).chain(SIZES.iter().copied().filter(|&m| m != n)).collect();
        match from_pasted_onto(&self.paste.get_untracked(), &sizes) {
            Ok(g) => {
                self.paste_error.set(None);
                self.set_size(g.n());
                self.edit(&|p: &mut Graph| *p = g.clone());
            }
            Err(e) => self.paste_error.set(Some(format!("Not loaded: {e}. The graph is unchanged."))),
        }
    }

    /// The editor's vertex press: the first chooses, the second toggles the edge between them.
    pub(super) fn press_vertex(self, v: usize) {
        match self.chosen.get_untracked() {
            None => self.chosen.set(Some(v)),
            Some(u) if u == v => self.chosen.set(None),
            Some(u) => self.edit(&|g: &mut Graph| g.set_edge(u, v, !g.has_edge(u, v))),
        }
    }

    pub(super) fn clear_edges(self) {
        self.edit(&|g: &mut Graph| *g = Graph::empty(g.n()));
    }
}

/// The settings panel's view of the page (`ReasonerPanel`).
impl ReasonerPage for ColoringState {
    type Input = Graph;
    type Puzzle = Graph;
    const RECORDED: &'static str = "coloring";

    fn parts(self) -> (RwSignal<ColoringSettings>, Session<Graph>, ModelWorker) {
        (self.settings, self.session, self.worker)
    }

    /// Not when the graph has no colouring.
    fn puzzle_of(graph: &Graph) -> Option<Graph> {
        is_3_colourable(graph).then(|| graph.clone())
    }

    /// A vertex chosen for an edge is forgotten.
    fn on_edit(self) {
        self.chosen.set(None);
    }

    fn on_resize(self) {
        self.coverage.previous.set(None);
    }

    /// The last run's curve becomes the one to compare with.
    fn before_run(self) {
        self.coverage.keep_as_previous();
    }

    fn blocked(self) -> bool {
        self.settings.with(|s| !is_3_colourable(&s.puzzle))
    }
}
