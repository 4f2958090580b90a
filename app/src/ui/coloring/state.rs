//! Everything `/coloring` holds: its settings, runs and worker, what the engine says about the
//! graph (its colourings), and what the visitor can do to them. All `Copy`, so every view and
//! closure captures it.

use engine::tasks::coloring::metrics::{distinct_valid, found_curve};
use engine::tasks::coloring::{Colouring, Graph, canonical_colourings, is_3_colourable};
use leptos::prelude::*;

use crate::ui::trajectories::reasoner::ReasonerPage;
use crate::ui::model_worker::ModelWorker;
use crate::ui::plots::coverage::Curve;
use crate::ui::trajectories::session::Session;
use crate::url_state::coloring::ColoringSettings;

#[derive(Clone, Copy)]
pub(super) struct ColoringState {
    pub(super) settings: RwSignal<ColoringSettings>,
    pub(super) session: Session<Graph>,
    pub(super) worker: ModelWorker,
    /// The exact solver's canonical colourings of the graph (the run's graph's, since editing
    /// the graph clears the run).
    pub(super) exact: Memo<Vec<Colouring>>,
    /// The samples of the step on screen.
    pub(super) samples: Memo<Vec<Colouring>>,
    /// The run's graph.
    pub(super) puzzle: Memo<Option<Graph>>,
    /// Distinct proper colourings among the samples on screen, canonical.
    pub(super) found: Memo<Vec<Colouring>>,
    /// This run's coverage curve up to the step on screen, and the last run's.
    pub(super) curve: Memo<Option<Curve>>,
    pub(super) previous: RwSignal<Option<Curve>>,
    /// The vertex chosen in the editor, waiting for a second one.
    pub(super) chosen: RwSignal<Option<usize>>,
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
        let run = session.run;
        let worker = ModelWorker::spawn(move |response| {
            session.on_response(response, |r, report| {
                session.note_first_valid(r, report, |g: &Graph, b| parse_answer(b).is_some_and(|c| g.is_coloured_by(&c)))
            })
        });
        worker.init(initial.sampling.backend);
        worker.load(&initial.weights());

        let exact = Memo::new(move |_| settings.with(|s| canonical_colourings(&s.puzzle)));
        let samples = session.samples(parse_answer);
        let puzzle = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| r.task.clone())));
        let current = session.current;
        let curve = Memo::new(move |_| {
            if current.with(Option::is_none) {
                return None;
            }
            let run = run.get()?;
            Some(Curve { label: run.label, found: samples.with(|s| found_curve(&run.task, s)), total: exact.with(Vec::len) })
        });
        let found = Memo::new(move |_| {
            let Some(g) = puzzle.get() else { return Vec::new() };
            samples.with(|s| distinct_valid(&g, s))
        });
        Self { settings, session, worker, exact, samples, puzzle, found, curve, previous: RwSignal::new(None), chosen: RwSignal::new(None) }
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
        self.previous.set(None);
    }

    /// The last run's curve becomes the one to compare with.
    fn before_run(self) {
        if let Some(c) = self.curve.get_untracked() {
            self.previous.set(Some(c));
        }
    }

    fn blocked(self) -> bool {
        self.settings.with(|s| !is_3_colourable(&s.puzzle))
    }
}
