//! "What is on screen" for `/nqueens`: latent state, stochastic guidance, coverage.

use leptos::prelude::*;

#[component]
pub(super) fn Explain() -> impl IntoView {
    view! {
        <section class="explain">
            <h2>"What is on screen"</h2>
            <p><strong>"Latent state. "</strong>"The model keeps a vector for every square and rewrites it again and again: a few fast inner updates that read your board, then one slow update of its answer state. One "<em>"supervision step"</em>" is a round of those updates; after each, the model can say which squares hold queens. The shaded board shows that readout growing sharper."</p>
            <p><strong>"Stochastic guidance. "</strong>"GRAM adds noise to every update of the answer state, drawn from a distribution the model learned. Different noise sends different trajectories toward different completions. The guidance scale multiplies that noise: at 0 every trajectory follows the mean path and all N samples agree; above 1 they wander further. The last quarter of the steps (2 of 8) runs without noise: the noisy steps choose a completion, the quiet ones let each sample settle on it."</p>
            <p><strong>"Coverage. "</strong>"A board with a few queens usually has several completions. Coverage is the share of them that N samples found. TRM, the same network without noise, gives one answer however often you ask: its coverage stops at one completion. Run GRAM, then TRM, and compare the two lines in the plot."</p>
        </section>
    }
}
