//! Everything `/coloring` holds: its settings, runs and worker, what the engine says about the
//! graph (its colourings), and what the visitor can do to them. All `Copy`, so every view and
//! closure captures it.

use engine::tasks::coloring::metrics::{distinct_valid, found_curve};
use engine::tasks::coloring::{Colouring, Graph, canonical_colourings, is_3_colourable};
use leptos::prelude::*;

use crate::ui::browser::now;
use crate::ui::trajectories::reasoner::{ReasonerPage, run_label};
use crate::ui::model_worker::ModelWorker;
use crate::ui::plots::coverage::Curve;
use crate::ui::trajectories::session::{Order, Session};
use crate::url_state::coloring::{ColoringSettings, default_graph, held_out};
use crate::url_state::nqueens::Model;

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

        let exact = Memo::new(move |_| settings.with(|s| canonical_colourings(&s.graph)));
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

    /// Editing the graph invalidates the results on screen.
    fn edit_graph(self, f: &dyn Fn(&mut Graph)) {
        self.session.clear(self.worker);
        self.settings.update(|s| {
            f(&mut s.graph);
            s.sampling.run = false;
        });
    }

    /// The editor's vertex press: the first chooses, the second toggles the edge between them.
    pub(super) fn press_vertex(self, v: usize) {
        match self.chosen.get_untracked() {
            None => self.chosen.set(Some(v)),
            Some(u) if u == v => self.chosen.set(None),
            Some(u) => {
                self.chosen.set(None);
                self.edit_graph(&|g: &mut Graph| g.set_edge(u, v, !g.has_edge(u, v)));
            }
        }
    }

    pub(super) fn clear_edges(self) {
        self.chosen.set(None);
        self.edit_graph(&|g: &mut Graph| *g = Graph::empty(g.n()));
    }

    /// A held-out graph of the graph's size, picked by the clock.
    pub(super) fn new_graph(self) {
        let held_out = held_out(self.settings.with_untracked(ColoringSettings::vertices));
        let pick = (now() as usize).wrapping_mul(2_654_435_761) % held_out.len().max(1);
        if let Some(g) = held_out.get(pick).map(|i| i.graph.clone()) {
            self.chosen.set(None);
            self.edit_graph(&|graph: &mut Graph| *graph = g.clone());
        }
    }

    /// Another vertex count: that size's default graph, and the models trained on it.
    pub(super) fn set_size(self, n: usize) {
        if self.settings.with_untracked(ColoringSettings::vertices) == n {
            return;
        }
        self.chosen.set(None);
        self.previous.set(None);
        self.edit_graph(&|g: &mut Graph| *g = default_graph(n));
        self.worker.load(&self.settings.with_untracked(ColoringSettings::weights));
    }
}

/// The settings panel's view of the page (`ReasonerPanel`).
impl ReasonerPage for ColoringState {
    type Settings = ColoringSettings;
    type Puzzle = Graph;
    const RECORDED: &'static str = "coloring";

    fn settings(self) -> RwSignal<ColoringSettings> {
        self.settings
    }

    fn session(self) -> Session<Graph> {
        self.session
    }

    fn order(self) -> Option<Order<Graph>> {
        let s = self.settings.get_untracked();
        is_3_colourable(&s.graph).then(|| Order {
            label: run_label(s.model, &s.sampling),
            weights: s.weights(),
            puzzle: s.graph.to_text(),
            task: s.graph,
        })
    }

    fn worker(self) -> ModelWorker {
        self.worker
    }

    fn model(self) -> Model {
        self.settings.with(|s| s.model)
    }

    /// Samples N colourings of the graph (not when it has none); the last run's curve becomes
    /// the one to compare with.
    fn solve(self) {
        let s = self.settings.get_untracked();
        if !is_3_colourable(&s.graph) {
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
        self.worker.load(&self.settings.with_untracked(ColoringSettings::weights));
    }

    fn blocked(self) -> bool {
        self.settings.with(|s| !is_3_colourable(&s.graph))
    }
}
