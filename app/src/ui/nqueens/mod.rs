//! `/nqueens`: build a board, sample N trajectories, watch the supervision steps, compare what
//! was found with the exact solver's completions.

mod board_editor;
mod explain;
pub(crate) mod mini_board;
mod solutions;
mod state;
mod trajectory;

use leptos::prelude::*;

use board_editor::BoardEditor;
use explain::Explain;
use solutions::{SamplesPanel, Solutions};
use state::NQueensState;
use trajectory::TrajectoryPanel;

use super::browser::{prefers_reduced_motion, read_url};
use crate::ui::trajectories::shell::{GramPage, PageWords};
use crate::url_state::nqueens::NQueensSettings;

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
