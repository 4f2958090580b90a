//! The page's component: its state, the panels around it, and its URL read once.

use leptos::prelude::*;

use super::explain::Explain;
use super::inside_sample::InsideSample;
use super::puzzle_editor::PuzzleEditor;
use super::state::SudokuState;
use super::vote_panel::VotePanel;

use super::url::SudokuSettings;
use crate::ui::browser::{prefers_reduced_motion, read_url};
use crate::ui::trajectories::shell::{GramPage, PageWords};

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
