//! The page's component: its state, the panels around it, and its URL read once.

use leptos::prelude::*;

use super::editor::GraphEditor;
use super::explain::Explain;
use super::results::{SamplesPanel, Solutions};
use super::state::ColoringState;
use super::trajectory::TrajectoryPanel;

use super::url::ColoringSettings;
use crate::ui::browser::{prefers_reduced_motion, read_url};
use crate::ui::trajectories::shell::{GramPage, PageWords};

const WORDS: PageWords = PageWords {
    class: "coloring",
    title: "Graph colouring: three colours, no edge between two of one colour",
    still_works: "The graph editor still works, and the other model may load: switch the model above, or reload the page.",
};

#[component]
pub fn ColoringPage() -> impl IntoView {
    let (initial, notes) = read_url::<ColoringSettings>();
    let page = ColoringState::new(initial, prefers_reduced_motion());
    let results = view! { <div class="layout"><TrajectoryPanel page/><SamplesPanel page/></div><Solutions page/> }.into_any();
    view! { <GramPage page notes words=WORDS editor=view! { <GraphEditor page/> }.into_any() results explain=view! { <Explain/> }.into_any()/> }
}
