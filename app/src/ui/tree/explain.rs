//! "What is on screen" for `/tree`: thinking without words, two choices in one vector, noise.

use leptos::prelude::*;

#[component]
pub(super) fn Explain() -> impl IntoView {
    view! {
        <section class="explain">
            <h2>"What is on screen"</h2>
            <p><strong>"Thinking without words. "</strong>"The Reasoner reads the tree as tokens, but after "<code>"[ROUTE]"</code>" it never picks a token: each step it writes a vector of length one (a point on a 128-dimensional sphere) and reads that vector back as its next input. A separate small model, the Talker, turns the vectors into letters only at the end."</p>
            <p><strong>"Two choices in one vector. "</strong>"Going down the tree, the next node is one of two siblings. α and β are the coefficients of the vector on the plane of those two nodes' embeddings, and the rank says how close that plane is compared with every pair of the 32 tokens (496 pairs). In the paper's large model the vector keeps a visible part of the sibling; this small model's vectors sit almost on the right node (β near 0, yet the sibling's plane still ranks near the top). Add latent noise to push the vectors off the tokens and watch the Talker cope."</p>
            <p><strong>"Noise. "</strong>"Raise the latent noise to see how far the vectors can be pushed before the route breaks; the same seed gives the same noise, so a shared link reproduces a run exactly."</p>
        </section>
    }
}
