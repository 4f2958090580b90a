//! `/sudoku`: enter, paste or generate a puzzle; sample N trajectories of GRAM (or run the
//! deterministic TRM beside it); watch each cell's digit distribution settle over the supervision
//! steps, the samples vote, and the exact solver check the vote. Rules, solver, vote and curve
//! are the engine's.

mod explain;
mod inside_sample;
pub(crate) mod mini_grid;
mod puzzle_editor;
mod state;
mod vote_panel;

use leptos::prelude::*;

use explain::Explain;
use inside_sample::InsideSample;
use puzzle_editor::PuzzleEditor;
use state::SudokuState;
use vote_panel::VotePanel;

use super::browser::{prefers_reduced_motion, read_url};
use crate::ui::trajectories::latent_map::LatentMap;
use crate::ui::trajectories::opening::{PageStatus, open};
use crate::ui::trajectories::reasoner::ReasonerPanel;
use crate::url_state::sudoku::SudokuSettings;

#[component]
pub fn SudokuPage() -> impl IntoView {
    let (initial, notes) = read_url::<SudokuSettings>();
    let page = SudokuState::new(initial, prefers_reduced_motion());
    let SudokuState { session, .. } = page;
    open(page);

    view! {
        <section class="sudoku">
            <h1>"Sudoku: watch the recursion settle, the samples vote, the solver check"</h1>
            <PageStatus page notes still_works="You can still enter, paste, generate and check puzzles; switch the model above, or reload the page to try again."/>

            <div class="layout">
                <PuzzleEditor page/>
                <ReasonerPanel page/>
            </div>

            <div class="results" hidden=move || session.run.with(Option::is_none)>
                <div class="layout">
                    <InsideSample page/>
                    <VotePanel page/>
                </div>
                <LatentMap session/>
            </div>

            <Explain/>
        </section>
    }
}
