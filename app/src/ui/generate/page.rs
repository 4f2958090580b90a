//! The page's component: its state, the panels around it, and its URL read once.

use leptos::prelude::*;

use super::gallery::Gallery;
use super::state::GenerateState;

use super::url::{GenerateSettings, Kind};
use crate::ui::browser::{prefers_reduced_motion, read_url};
use crate::ui::trajectories::latent_map::LatentMap;
use crate::ui::trajectories::opening::{PageStatus, open};
use crate::ui::trajectories::reasoner::ReasonerPanel;

#[component]
pub fn GeneratePage() -> impl IntoView {
    let (initial, notes) = read_url::<GenerateSettings>();
    let page = GenerateState::new(initial, prefers_reduced_motion());
    let GenerateState { settings, session, .. } = page;
    open(page);
    let kinds = Kind::ALL
        .into_iter()
        .map(|k| {
            view! {
                <label>
                    <input type="radio" name="kind" prop:checked=move || settings.with(|s| s.puzzle == k) on:change=move |_| page.set_kind(k)/>
                    {k.label()}
                </label>
            }
        })
        .collect_view();
    view! {
        <section class="generate">
            <h1>"Generate: digits, boards and grids from nothing"</h1>
            <PageStatus page notes still_works="Switch the model or what to generate above, or reload the page."/>
            <div class="layout">
                <div class="column">
                    <fieldset class="model kind">
                        <legend>"What to generate"</legend>
                        {kinds}
                    </fieldset>
                    <ReasonerPanel page/>
                </div>
                <div hidden=move || session.run.with(Option::is_none)>
                    <Gallery page/>
                </div>
            </div>
            <div hidden=move || session.run.with(Option::is_none)>
                <LatentMap session/>
            </div>
            <div class="explain">
                <h2>"What is on screen"</h2>
                <p>
                    "The input never changes: a blank image, an empty board or an empty Sudoku grid. GRAM refines a latent state for a few "
                    "supervision steps, adding noise from a learned prior at each one, and decodes what the state has become. "
                    "Different noise, different sample: the model has learned the distribution of its training data, p(x), "
                    "as the GRAM paper (section 3.3) trains it on MNIST. For N-Queens boards the last quarter of the steps runs without "
                    "noise: the noisy steps choose a board, the quiet ones let a sample put a stray queen right. "
                    "TRM is the same network without the noise: it maps the one "
                    "input to one output, so all its samples are the same picture (the paper's mode collapse, IS 1.00). "
                    "The shipped models are small and trained on a CPU (docs/results/generation.md)."
                </p>
            </div>
        </section>
    }
}
