//! The page's component: its state, the panels around it, and its URL read once.

use leptos::prelude::*;

use super::board_editor::BoardEditor;
use super::explain::Explain;
use super::solutions::{SamplesPanel, Solutions};
use super::state::NQueensState;
use super::trajectory::TrajectoryPanel;

use super::url::NQueensSettings;
use crate::ui::browser::{prefers_reduced_motion, read_url};
use crate::ui::trajectories::shell::{GramPage, PageWords};

const WORDS: PageWords = PageWords {
    class: "nqueens",
    title: "N-Queens: sample, inject noise, count what is found",
    still_works: "The board still works, and the other model may load: switch the model above, or reload the page.",
};

#[component]
pub fn NQueensPage() -> impl IntoView {
    let (initial, notes) = read_url::<NQueensSettings>();
    let page = NQueensState::new(initial, prefers_reduced_motion());
    let results = view! { <div class="layout"><TrajectoryPanel page/><SamplesPanel page/></div><Solutions page/> }.into_any();
    view! { <GramPage page notes words=WORDS editor=view! { <BoardEditor page/> }.into_any() results explain=view! { <Explain/> }.into_any()/> }
}
