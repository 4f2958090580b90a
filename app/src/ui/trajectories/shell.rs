//! The frame of every page that samples GRAM or TRM on a puzzle (`/nqueens`, `/coloring`,
//! `/sudoku`), written once: the URL kept in step and a shared link's run started, the status
//! lines, the page's input editor beside the reasoner's settings, the run's panels (hidden until
//! a run exists) above the latent map, and what is on screen. A page brings its state and its
//! own panels.

use leptos::prelude::*;

use super::latent_map::LatentMap;
use super::opening::{PageStatus, open};
use super::page::ReasonerPage;
use super::reasoner::ReasonerPanel;

/// What a GRAM page says of itself.
pub struct PageWords {
    /// The section's class (the page's name).
    pub class: &'static str,
    /// The page's heading.
    pub title: &'static str,
    /// What still works while the weights do not load.
    pub still_works: &'static str,
}

/// A GRAM page around its own panels.
#[component]
pub fn GramPage<P: ReasonerPage>(
    page: P,
    /// What the URL's values became.
    notes: Vec<String>,
    words: PageWords,
    /// The input's editor (board, graph, puzzle).
    editor: AnyView,
    /// The run's panels, shown once a run exists.
    results: AnyView,
    /// "What is on screen".
    explain: AnyView,
) -> impl IntoView {
    open(page);
    let session = page.session();
    let PageWords { class, title, still_works } = words;
    view! {
        <section class=class>
            <h1>{title}</h1>
            <PageStatus page notes still_works/>
            <div class="layout">
                {editor}
                <ReasonerPanel page/>
            </div>
            <div class="results" hidden=move || session.run.with(Option::is_none)>
                {results}
                <LatentMap session/>
            </div>
            {explain}
        </section>
    }
}
