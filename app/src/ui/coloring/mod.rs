//! `/coloring`: draw a graph, sample N 3-colourings with GRAM or TRM, watch the colours settle
//! over the supervision steps, compare what was found with the exact solver's colourings.

mod editor;
mod picture;
mod results;
mod state;
mod trajectory;

use leptos::prelude::*;

use editor::GraphEditor;
use results::{SamplesPanel, Solutions};
use state::ColoringState;
use trajectory::TrajectoryPanel;

use super::browser::{prefers_reduced_motion, read_url};
use crate::ui::trajectories::latent_map::LatentMap;
use crate::ui::trajectories::opening::{PageStatus, open};
use crate::ui::trajectories::reasoner::ReasonerPanel;
use crate::url_state::coloring::ColoringSettings;

#[component]
pub fn ColoringPage() -> impl IntoView {
    let (initial, notes) = read_url::<ColoringSettings>();
    let page = ColoringState::new(initial, prefers_reduced_motion());
    let ColoringState { session, .. } = page;
    open(page);
    view! {
        <section class="coloring">
            <h1>"Graph colouring: three colours, no edge between two of one colour"</h1>
            <PageStatus page notes still_works="The graph editor still works, and the other model may load: switch the model above, or reload the page."/>
            <div class="layout">
                <GraphEditor page/>
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
            <div class="explain">
                <h2>"What is on screen"</h2>
                <p>
                    "A graph usually has several proper 3-colourings. GRAM samples N trajectories, each refining a latent state "
                    "with learned noise, so different samples can land on different colourings; TRM, the same network without "
                    "noise, gives one answer however often you ask. Coverage is the share of the exact solver's colourings "
                    "(up to renaming the colours) that the N samples found. The shipped 8- and 10-vertex models are small and "
                    "trained on a CPU: they make mistakes, which the red edges show (docs/results/coloring.md)."
                </p>
            </div>
        </section>
    }
}
