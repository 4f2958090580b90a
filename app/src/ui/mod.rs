//! Pages. Views are thin: every rule, solver and metric comes from the engine.

pub mod board;
pub mod nqueens;

use leptos::prelude::*;
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;

#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router>
            <header class="top">
                <A href="/">"Latent-reasoning playground"</A>
                <nav aria-label="Puzzles">
                    <A href="/nqueens">"N-Queens"</A>
                </nav>
            </header>
            <main>
                <Routes fallback=|| view! { <NotFound/> }>
                    <Route path=path!("/") view=Home/>
                    <Route path=path!("/nqueens") view=nqueens::NQueensPage/>
                </Routes>
            </main>
        </Router>
    }
}

#[component]
fn Home() -> impl IntoView {
    view! {
        <section class="intro">
            <h1>"Watch a model reason in latent space"</h1>
            <p>
                "A recursive reasoner does not write out its thinking. It keeps a latent state — a vector per board cell — "
                "and refines it step after step, reading the puzzle each time. GRAM (generative recursive reasoning) adds "
                "learned noise to every step, so that running it several times explores different answers, while its "
                "deterministic twin TRM always lands on the same one. These pages run the trained models in your browser."
            </p>
            <ul class="cards">
                <li>
                    <A href="/nqueens">"N-Queens"</A>
                    <p>"Place a few queens, let 1 to 64 sampled trajectories complete the board, and see how many of the exact solver's completions they find."</p>
                </li>
                <li class="soon">
                    <span>"Sudoku"</span>
                    <p>"Coming: the recursion filling a grid, samples voting, an exact oracle checking."</p>
                </li>
                <li class="soon">
                    <span>"Tree routes (JEPA-Reasoner)"</span>
                    <p>"Coming: latents on the hypersphere that hold two choices at once."</p>
                </li>
            </ul>
        </section>
    }
}

#[component]
fn NotFound() -> impl IntoView {
    view! {
        <section class="intro">
            <h1>"No page here"</h1>
            <p>"This address has no page (yet). " <A href="/nqueens">"Try N-Queens"</A> " or go to the " <A href="/">"start page"</A> "."</p>
        </section>
    }
}
