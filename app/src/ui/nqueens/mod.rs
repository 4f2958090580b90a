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
use crate::ui::trajectories::latent_map::LatentMap;
use crate::ui::trajectories::opening::{PageStatus, open};
use crate::ui::trajectories::reasoner::ReasonerPanel;
use crate::url_state::nqueens::NQueensSettings;

#[component]
pub fn NQueensPage() -> impl IntoView {
    let (initial, notes) = read_url::<NQueensSettings>();
    let page = NQueensState::new(initial, prefers_reduced_motion());
    let NQueensState { session, .. } = page;
    open(page);

    view! {
        <section class="nqueens">
            <h1>"N-Queens: sample, inject noise, count what is found"</h1>
            <PageStatus page notes still_works="The board still works, and the other model may load: switch the model above, or reload the page."/>

            <div class="layout">
                <BoardEditor page/>
                <ReasonerPanel page/>
            </div>

            <div class="results" hidden=move || session.run.with(Option::is_none)>
                <div class="layout">
                    <TrajectoryPanel page/>
                    <SamplesPanel page/>
                </div>
                <Solutions page/>
                <LatentMap session/>
            </div>

            <Explain/>
        </section>
    }
}
