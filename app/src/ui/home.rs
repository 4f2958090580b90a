//! The start page and the page for unknown addresses.

use leptos::prelude::*;
use leptos_router::components::A;

use super::headline::HeadlineTable;

#[component]
pub fn Home() -> impl IntoView {
    view! {
        <section class="intro">
            <h1>"Watch a model reason in latent space"</h1>
            <p>
                "A recursive reasoner does not write out its thinking. It keeps a latent state — a vector per board cell — "
                "and refines it step after step, reading the puzzle each time. GRAM (generative recursive reasoning) adds "
                "learned noise to every step, so that running it several times explores different answers, while its "
                "deterministic twin TRM always lands on the same one. These pages run the trained models in your browser."
            </p>
            <p class="teach">
                "Teaching a class? " <A href=crate::base_path::href("/learn")>"The lessons"</A>
                " walk through the pages step by step: deterministic vs generative recursion, width scaling, thinking on the hypersphere."
            </p>
            <ul class="cards">
                <li>
                    <A href=crate::base_path::href("/nqueens")>"N-Queens"</A>
                    <p>"Place a few queens, let 1 to 64 sampled trajectories complete the board, and see how many of the exact solver's completions they find."</p>
                </li>
                <li>
                    <A href=crate::base_path::href("/sudoku")>"Sudoku"</A>
                    <p>"Enter, paste or generate a puzzle; watch the recursion settle each cell, the samples vote, and an exact solver check the answer."</p>
                </li>
                <li>
                    <A href=crate::base_path::href("/coloring")>"Graph colouring"</A>
                    <p>"Draw a graph, ask for 1 to 64 three-colourings, watch the colours settle and the conflicts turn red, and count how many of the exact solver's colourings the samples found."</p>
                </li>
                <li>
                    <A href=crate::base_path::href("/generate")>"Generate"</A>
                    <p>"No puzzle at all: from a blank input, GRAM draws handwritten digits or whole N-Queens boards out of noise, step by step, while TRM can only ever draw one."</p>
                </li>
                <li>
                    <A href=crate::base_path::href("/tree")>"Tree routes (JEPA-Reasoner)"</A>
                    <p>"A different kind of reasoner: it thinks in unit vectors, not words, and one vector can hold two choices at once. Ask it for a route through a tree and look inside each thought."</p>
                </li>
                <li>
                    <A href=crate::base_path::href("/grammar")>"Grammar (Transformer vs COCONUT vs JEPA-Reasoner)"</A>
                    <p>"Corrupt a sequence of a context-free grammar, perturb the models' thoughts, and see which of three models still completes it."</p>
                </li>
                <li>
                    <A href=crate::base_path::href("/jepa")>"LLM-JEPA trained live (description and regex, two views)"</A>
                    <p>"Train two small language models side by side in your browser, one with a JEPA loss between the two views of each example, and watch their embeddings align."</p>
                </li>
            </ul>
        </section>
        <HeadlineTable/>
    }
}

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="intro">
            <h1>"No page here"</h1>
            <p>"This address has no page (yet). " <A href=crate::base_path::href("/nqueens")>"Try N-Queens"</A> " or go to the " <A href=crate::base_path::href("/")>"start page"</A> "."</p>
        </section>
    }
}
