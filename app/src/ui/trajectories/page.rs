//! What a page that samples GRAM or TRM offers the shared panel and the instant start: its
//! settings, session and worker, what Solve would run, and the page's few differences.

use leptos::prelude::*;

use super::session::{Order, Session};
use crate::ui::model_worker::ModelWorker;
use crate::url_state::nqueens::Model;
use crate::url_state::sampling::HasSampling;

/// What the settings panel needs from a page that samples GRAM or TRM.
pub trait ReasonerPage: Copy + Send + Sync + 'static {
    type Settings: HasSampling + Send + Sync + 'static;
    type Puzzle: Clone + Send + Sync + 'static;
    fn settings(self) -> RwSignal<Self::Settings>;
    fn session(self) -> Session<Self::Puzzle>;
    fn worker(self) -> ModelWorker;
    /// What Solve would run now (none while the puzzle cannot be solved), read untracked.
    fn order(self) -> Option<Order<Self::Puzzle>>;
    /// The model chosen now (tracked).
    fn model(self) -> Model;
    fn set_model(self, model: Model);
    fn solve(self);
    fn stop(self);
    /// Solve is off: the puzzle cannot be solved as it stands (tracked).
    fn blocked(self) -> bool;
    /// What the page says while Solve is off (none: nothing).
    const BLOCKED_HINT: Option<&'static str> = None;
    /// The run button's text.
    const RUN_LABEL: &'static str = "Solve";
    /// Whether the page offers the verified stop (a page with no rule to check does not).
    const VERIFIED_STOP: bool = true;
    /// Whether the page picks one answer among the N (generation does not).
    const PICKS: bool = true;
    /// The page's recorded run, `public/runs/<name>.json` (see [`super::instant`]).
    const RECORDED: &'static str;
}

