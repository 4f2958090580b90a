//! What the samples found: the samples at the step on screen, the coverage plot, the distinct
//! valid completions (with Copy), and the exact solver's list marked found or missed.

use leptos::prelude::*;

use crate::ui::plots::export::TextExport;

use super::mini_board::mini_board;
use super::state::NQueensState;
use crate::ui::controls::sample_button::SampleButton;
use crate::ui::plots::coverage::coverage_plot;
use crate::ui::trajectories::coverage::Coverage;

/// All samples at this step, and the coverage plot.
#[component]
pub(super) fn SamplesPanel(page: NQueensState) -> impl IntoView {
    let NQueensState { session, coverage: Coverage { samples, puzzle, curve, previous, .. }, .. } = page;
    let strip = move || {
        let p = puzzle.get();
        samples.with(|ss| {
            ss.iter()
                .enumerate()
                .map(|(i, b)| {
                    let valid = p.as_ref().is_some_and(|p| b.completes(p));
                    let label = format!("Sample {}: {}", i + 1, if valid { "valid" } else { "not valid" });
                    let picture = mini_board(b, p.as_ref());
                    view! {
                        <li>
                            <SampleButton index=i focus=session.focus valid label value=session.value_of(i) picked=session.picked.get() == Some(i) attr:data-board=b.to_text()>{picture}</SampleButton>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    view! {
        <div class="panel">
            <h2>"All samples at this step"</h2>
            <p class="hint">"Green = a valid completion of your board. Choose one to look inside it."</p>
            <ul class="samples">{strip}</ul>
            <h2>"Coverage against samples drawn"</h2>
            {move || coverage_plot(curve.get(), previous.get())}
        </div>
    }
}

/// The distinct valid completions found, and the exact solver's completions.
#[component]
pub(super) fn Solutions(page: NQueensState) -> impl IntoView {
    let NQueensState { settings, session, copied, coverage: Coverage { exact, puzzle, found, .. }, .. } = page;
    let gallery = move || {
        let p = puzzle.get();
        found.with(|f| {
            f.iter()
                .enumerate()
                .map(|(i, b)| {
                    let text = b.to_text();
                    let copy_text = text.clone();
                    let on_copy = move |_| {
                        let _ = window().navigator().clipboard().write_text(&copy_text);
                        copied.set(Some(copy_text.clone()));
                    };
                    let is_copied = {
                        let text = text.clone();
                        move || copied.with(|c| c.as_deref() == Some(text.as_str()))
                    };
                    view! {
                        <li class="solution" data-solution=text>
                            {mini_board(b, p.as_ref())}
                            <button class="copy" aria-label=format!("Copy solution {}", i + 1) on:click=on_copy>
                                {move || if is_copied() { "Copied" } else { "Copy" }}
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let exact_list =
        move || {
            let has_run = session.run.with(Option::is_some);
            let p = settings.with(|s| s.puzzle.clone());
            exact.with(|ex| {
                ex.iter()
                .map(|b| {
                    let hit = found.with(|f| f.contains(b));
                    let mark = if !has_run { "" } else if hit { "found" } else { "missed" };
                    view! {
                        <li class="exact" class:found=hit class:missed=has_run && !hit data-solution=b.to_text() data-found=hit.to_string()>
                            {mini_board(b, Some(&p))}
                            <span>{mark}</span>
                        </li>
                    }
                })
                .collect_view()
            })
        };
    let counter = move || format!("found {} of {}", found.with(Vec::len), exact.with(Vec::len));
    view! {
        <div class="layout">
            <div class="panel">
                <h2>"Distinct valid completions found"</h2>
                <p class="counter" aria-live="polite">{counter}</p>
                <TextExport
                    name="nqueens-solutions.txt"
                    label="Download the solutions as text"
                    text=move || found.with(|f| f.iter().map(|b| b.to_text() + "\n").collect::<String>())
                />
                <ul class="gallery">{gallery}</ul>
            </div>
            <div class="panel">
                <h2>"The exact solver's completions"</h2>
                <ul class="exact-list">{exact_list}</ul>
            </div>
        </div>
    }
}
