//! `/coloring`: draw a graph, sample N 3-colourings with GRAM or TRM, watch the colours settle
//! over the supervision steps, compare what was found with the exact solver's colourings.

mod editor;
mod explain;
mod picture;
mod results;
mod state;
mod trajectory;

use leptos::prelude::*;

use editor::GraphEditor;
use explain::Explain;
use results::{SamplesPanel, Solutions};
use state::ColoringState;
use trajectory::TrajectoryPanel;

use super::browser::{prefers_reduced_motion, read_url};
use crate::ui::trajectories::shell::{GramPage, PageWords};
use crate::url_state::coloring::ColoringSettings;

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
