//! Inside one trajectory: playback of the supervision steps, and the focused sample's
//! probability of a queen on each square.

use leptos::prelude::*;

use super::state::NQueensState;
use super::url::NQueensSettings;
use crate::ui::controls::playback::Player;
use crate::ui::trajectories::coverage::Coverage;
use crate::ui::trajectories::views::StepLabel;

#[component]
pub(super) fn TrajectoryPanel(page: NQueensState) -> impl IntoView {
    let NQueensState { settings, session, coverage: Coverage { samples, puzzle, .. }, .. } = page;
    let (current, focus) = (session.current, session.focus);
    let side = Memo::new(move |_| settings.with(NQueensSettings::side));
    let heat = move || {
        let side = side.get();
        (0..side * side)
            .map(move |i| {
                let (r, c) = (i / side, i % side);
                let prob = move || {
                    current
                        .with(|cur| cur.as_ref().and_then(|rep| rep.probs.get(focus.get())).and_then(|p| p.get(i).copied()).unwrap_or(0.0))
                };
                let predicted = move || samples.with(|s| s.get(focus.get()).is_some_and(|b| b.n() == side && b.has_queen(r, c)));
                let given = move || puzzle.with(|p| p.as_ref().is_some_and(|p| p.n() == side && p.has_queen(r, c)));
                view! {
                    <div
                        class="cell heat"
                        class:dark=(r + c) % 2 == 1
                        class:given=given
                        title=move || format!("Row {}, column {}: P(queen) = {:.0}%", r + 1, c + 1, 100.0 * prob())
                    >
                        <span class="p" style:opacity=move || format!("{:.3}", prob())></span>
                        <span class="g">{move || if predicted() { "♛" } else { "" }}</span>
                    </div>
                }
            })
            .collect_view()
    };
    view! {
        <div class="panel">
            <h2>"Inside one trajectory"</h2>
            <p class="hint">"Shade = the model's probability of a queen on each square after this step; ♛ = its current answer; outlined squares were given."</p>
            <Player playback=session.playback unit="step" speed_select=true/>
            <StepLabel session/>
            <div
                class="board heatmap"
                style:grid-template-columns=move || format!("repeat({}, 1fr)", side.get())
                role="img"
                aria-label="The focused trajectory's probabilities of a queen per square"
            >
                {heat}
            </div>
        </div>
    }
}
