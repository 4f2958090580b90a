//! The answer, latent by latent: playback, the strip of latents (what the Talker read, right or
//! wrong), the card of the latent on screen, and the PCA scatter.

use leptos::prelude::*;

use super::pca_plot::pca_view;
use super::state::TreeState;
use super::step_card::step_view;
use crate::ui::controls::playback::Player;

#[component]
pub(super) fn LatentsPanels(page: TreeState) -> impl IntoView {
    let TreeState { result, step, playback, .. } = page;
    let (shown, playing) = (playback.shown, playback.playing);
    let step_strip = move || {
        let Some((e, _)) = result.get() else { return Vec::new() };
        e.steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let ok = s.token == s.expected;
                // The name starts with what the button shows (WCAG 2.5.3), then says it in words.
                let label = format!("{} {}. Latent {}: the Talker read {}, expected {}", i + 1, s.token, i + 1, s.token, s.expected);
                view! {
                    <li>
                        <button class="step" class:ok=ok class:bad=!ok class:focused=move || shown.get() == i + 1
                            aria-pressed=move || if shown.get() == i + 1 { "true" } else { "false" }
                            aria-label=label
                            on:click=move |_| { playing.set(false); shown.set(i + 1) }>
                            <span class="n">{(i + 1).to_string()}</span>" "
                            <span class="tok">{s.token.clone()}</span>
                        </button>
                    </li>
                }
            })
            .collect::<Vec<_>>()
    };
    let step_card = move || {
        let s = step.get()?;
        let i = shown.get();
        Some(step_view(i, &s))
    };
    let pca_plot = move || {
        let (e, _) = result.get()?;
        Some(pca_view(&e, shown.get()))
    };
    view! {
        <div class="layout">
            <div class="panel">
                <h2>"Inside each latent"</h2>
                <Player playback unit="latent" rewind=true/>
                <ol class="steps" aria-label="Latents after [ROUTE]">{step_strip}</ol>
                {step_card}
            </div>
            <div class="panel">
                <h2>"Latents among the node embeddings"</h2>
                {pca_plot}
            </div>
        </div>
    }
}
