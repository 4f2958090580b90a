//! Pages. Views are thin: every rule, solver and metric comes from the engine.

pub mod board;
pub mod browser;
pub mod controls;
pub mod grid;
pub mod model_worker;
pub mod nqueens;
pub mod plots;
pub mod status;
pub mod sudoku;
pub mod trajectories;
pub mod tree;

use leptos::prelude::*;
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;
use wasm_bindgen::JsCast;

#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router>
            <header class="top">
                <A href="/">"Latent-reasoning playground"</A>
                <nav aria-label="Puzzles">
                    <A href="/nqueens">"N-Queens"</A>
                    <A href="/sudoku">"Sudoku"</A>
                    <A href="/tree">"Tree routes"</A>
                </nav>
            </header>
            <main>
                <Routes fallback=|| view! { <NotFound/> }>
                    <Route path=path!("/") view=Home/>
                    <Route path=path!("/nqueens") view=nqueens::NQueensPage/>
                    <Route path=path!("/sudoku") view=sudoku::SudokuPage/>
                    <Route path=path!("/tree") view=tree::TreePage/>
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
                <li>
                    <A href="/sudoku">"Sudoku"</A>
                    <p>"Enter, paste or generate a puzzle; watch the recursion settle each cell, the samples vote, and an exact solver check the answer."</p>
                </li>
                <li>
                    <A href="/tree">"Tree routes (JEPA-Reasoner)"</A>
                    <p>"A different kind of reasoner: it thinks in unit vectors, not words, and one vector can hold two choices at once. Ask it for a route through a tree and look inside each thought."</p>
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

/// Milliseconds since the page started (`performance.now()`).
pub(crate) fn now() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}

/// The page URL's decoded query parameters, in order.
pub(crate) fn query_pairs() -> Vec<(String, String)> {
    let search = window().location().search().unwrap_or_default();
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()
        .map(|p| {
            js_sys::try_iter(&p)
                .ok()
                .flatten()
                .into_iter()
                .flatten()
                .filter_map(|entry| {
                    let pair: js_sys::Array = entry.ok()?.dyn_into().ok()?;
                    Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The visitor asked the system for less motion: no autoplay.
pub(crate) fn prefers_reduced_motion() -> bool {
    window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// Playback of the steps a run produced: while `playing`, one more step every `speed_ms`
/// (checked every 100 ms), the first at once, never past the `available` steps. Pausing only
/// stops this timer; the results stay.
pub(crate) fn autoplay(
    playing: RwSignal<bool>,
    shown: RwSignal<usize>,
    available: impl Fn() -> usize + 'static,
    speed_ms: RwSignal<u32>,
) {
    let elapsed = StoredValue::new(0u32);
    if let Ok(handle) = set_interval_with_handle(
        move || {
            if !playing.get_untracked() || shown.get_untracked() >= available() {
                return;
            }
            elapsed.update_value(|e| *e += 100);
            if elapsed.get_value() >= speed_ms.get_untracked() || shown.get_untracked() == 0 {
                elapsed.set_value(0);
                shown.update(|s| *s += 1);
            }
        },
        std::time::Duration::from_millis(100),
    ) {
        on_cleanup(move || handle.clear());
    }
}
