//! "What is on screen" for `/coloring`: sampling colourings, TRM's one answer, coverage.

use leptos::prelude::*;

#[component]
pub(super) fn Explain() -> impl IntoView {
    view! {
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
    }
}
