//! What the samples found: the samples at the step on screen, the coverage plot, the distinct
//! proper colourings, and the exact solver's list marked found or missed.

use leptos::prelude::*;

use crate::ui::plots::export::TextExport;

use super::picture::mini_graph;
use super::state::ColoringState;
use crate::ui::controls::sample_button::SampleButton;
use crate::ui::plots::coverage::coverage_plot;
use crate::ui::trajectories::coverage::Coverage;

/// All samples at this step, and the coverage plot.
#[component]
pub(super) fn SamplesPanel(page: ColoringState) -> impl IntoView {
    let ColoringState { session, coverage: Coverage { samples, puzzle, curve, previous, .. }, .. } = page;
    let strip = move || {
        let Some(g) = puzzle.get() else { return Vec::new() };
        samples.with(|ss| {
            ss.iter()
                .enumerate()
                .map(|(i, c)| {
                    let conflicts = g.conflicts(c).len();
                    let valid = g.is_coloured_by(c);
                    let label = match (valid, conflicts) {
                        (true, _) => format!("Sample {}: a proper colouring", i + 1),
                        (false, k) => format!("Sample {}: not proper, {k} conflict edge{}", i + 1, if k == 1 { "" } else { "s" }),
                    };
                    let picture = mini_graph(&g, c);
                    view! {
                        <li>
                            <SampleButton index=i focus=session.focus valid label value=session.value_of(i) picked=session.picked.get() == Some(i) attr:data-colouring=c.to_text()>{picture}</SampleButton>
                        </li>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="panel">
            <h2>"All samples at this step"</h2>
            <p class="hint">"Green = a proper colouring of your graph (no red edge). Choose one to look inside it."</p>
            <ul class="samples">{strip}</ul>
            <h2>"Coverage against samples drawn"</h2>
            {move || coverage_plot(curve.get(), previous.get())}
        </div>
    }
}

/// The distinct proper colourings found, and the exact solver's colourings.
#[component]
pub(super) fn Solutions(page: ColoringState) -> impl IntoView {
    let ColoringState { settings, session, coverage: Coverage { exact, found, .. }, .. } = page;
    let gallery = move || {
        let g = settings.with(|s| s.puzzle.clone());
        found.with(|f| {
            f.iter()
                .map(|c| view! { <li class="solution" data-solution=c.to_text()>{mini_graph(&g, c)}<span>{c.to_text()}</span></li> })
                .collect::<Vec<_>>()
        })
    };
    let exact_list =
        move || {
            let has_run = session.run.with(Option::is_some);
            let g = settings.with(|s| s.puzzle.clone());
            exact.with(|ex| {
                ex.iter()
                .map(|c| {
                    let hit = found.with(|f| f.contains(c));
                    let mark = if !has_run { "" } else if hit { "found" } else { "missed" };
                    view! {
                        <li class="exact" class:found=hit class:missed=has_run && !hit data-solution=c.to_text() data-found=hit.to_string()>
                            {mini_graph(&g, c)}
                            <span>{mark}</span>
                        </li>
                    }
                })
                .collect::<Vec<_>>()
            })
        };
    let counter = move || format!("found {} of {}", found.with(Vec::len), exact.with(Vec::len));
    view! {
        <div class="layout">
            <div class="panel">
                <h2>"Distinct proper colourings found"</h2>
                <p class="hint">"Colourings that differ only by renaming the colours count once."</p>
                <p class="counter" aria-live="polite">{counter}</p>
                <TextExport
                    name="colourings.txt"
                    label="Download the colourings as text"
                    text=move || found.with(|f| f.iter().map(|c| c.to_text() + "\n").collect::<String>())
                />
                <ul class="gallery">{gallery}</ul>
            </div>
            <div class="panel">
                <h2>"The exact solver's colourings"</h2>
                <ul class="exact-list">{exact_list}</ul>
            </div>
        </div>
    }
}
