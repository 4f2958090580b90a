//! What a page whose puzzles have many right answers shows of a run (`/nqueens`, `/coloring`),
//! written once: the exact solver's answers for the input on screen, the samples of the step on
//! screen, the distinct right answers among them, this run's coverage curve and the last run's.
//! The task's own metrics (the engine's `found_curve`, `distinct_valid`) say what counts.

use leptos::prelude::*;

use super::session::Session;
use crate::ui::plots::coverage::Curve;
use crate::url_state::gram_page::{GramSettings, PageInput};

/// What a many-answers task gives the page, each a plain function of the engine's.
pub struct Answers<P: 'static, A: 'static> {
    /// The exact solver's answers (one per class the metrics count) of an input.
    pub exact: fn(&P) -> Vec<A>,
    /// A sample's answer text as an answer, when it is one.
    pub parse: fn(&str) -> Option<A>,
    /// Distinct right answers found after each sample (the coverage curve's points).
    pub found_curve: fn(&P, &[A]) -> Vec<usize>,
    /// The distinct right answers among the samples.
    pub distinct: fn(&P, &[A]) -> Vec<A>,
}

/// A many-answers page's view of its runs. All `Copy`, so every view and closure captures it.
pub struct Coverage<P: Send + Sync + 'static, A: Send + Sync + 'static> {
    /// The exact solver's answers to the input on screen. Editing the input clears the run, so
    /// this is also the run's puzzle's list.
    pub exact: Memo<Vec<A>>,
    /// The samples of the step on screen.
    pub samples: Memo<Vec<A>>,
    /// The run's puzzle.
    pub puzzle: Memo<Option<P>>,
    /// Distinct right answers among the samples on screen.
    pub found: Memo<Vec<A>>,
    /// This run's coverage curve up to the step on screen, and the last run's.
    pub curve: Memo<Option<Curve>>,
    pub previous: RwSignal<Option<Curve>>,
}

impl<P: Send + Sync + 'static, A: Send + Sync + 'static> Clone for Coverage<P, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Send + Sync + 'static, A: Send + Sync + 'static> Copy for Coverage<P, A> {}

impl<P, A> Coverage<P, A>
where
    P: PageInput,
    A: Clone + PartialEq + Send + Sync + 'static,
{
    pub fn new(settings: RwSignal<GramSettings<P>>, session: Session<P>, answers: Answers<P, A>) -> Self {
        let Answers { exact, parse, found_curve, distinct } = answers;
        let run = session.run;
        let exact = Memo::new(move |_| settings.with(|s| exact(&s.puzzle)));
        let samples = session.samples(parse);
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
            let Some(p) = puzzle.get() else { return Vec::new() };
            samples.with(|s| distinct(&p, s))
        });
        Self { exact, samples, puzzle, found, curve, previous: RwSignal::new(None) }
    }

    /// The curve on screen becomes the one the next run is compared with.
    pub fn keep_as_previous(self) {
        if let Some(c) = self.curve.get_untracked() {
            self.previous.set(Some(c));
        }
    }
}
