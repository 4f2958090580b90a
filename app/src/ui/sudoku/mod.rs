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
use crate::ui::trajectories::shell::{GramPage, PageWords};
use crate::url_state::sudoku::SudokuSettings;

const WORDS: PageWords = PageWords {
    class: "sudoku",
    title: "Sudoku: watch the recursion settle, the samples vote, the solver check",
    still_works: "You can still enter, paste, generate and check puzzles; switch the model above, or reload the page to try again.",
};

#[component]
pub fn SudokuPage() -> impl IntoView {
    let (initial, notes) = read_url::<SudokuSettings>();
    let page = SudokuState::new(initial, prefers_reduced_motion());
    let results = view! { <div class="layout"><InsideSample page/><VotePanel page/></div> }.into_any();
    view! { <GramPage page notes words=WORDS editor=view! { <PuzzleEditor page/> }.into_any() results explain=view! { <Explain/> }.into_any()/> }
}
