//! What the N-Queens and Sudoku pages both show of a run: its status line and which step and
//! sample are on screen.

use leptos::prelude::*;

use super::record::status_line;
use super::session::Session;
use crate::url_state::fields::same;

/// The run's status line (see [`status_line`]), read aloud as it changes.
#[component]
pub fn RunStatus<P>(session: Session<P>) -> impl IntoView
where
    P: Clone + Send + Sync + 'static,
{
    let Session { run, reports, .. } = session;
    view! { <p class="run-status" aria-live="polite">{move || run.with(|r| reports.with(|rep| status_line(r.as_ref(), rep)))}</p> }
}

/// "Step 3 of 8 · sample 1 of 20", with ", restart 1" on a restart's steps.
#[component]
pub fn StepLabel<P>(session: Session<P>) -> impl IntoView
where
    P: Clone + Send + Sync + 'static,
{
    let Session { run, focus, current, .. } = session;
    view! {
        <p class="step-label" aria-live="polite">
            {move || {
                let (round, step, scale) = current.with(|c| c.as_ref().map_or((0, 0, 0.0), |c| (c.round, c.step, c.scale)));
                let changed = run.with(|r| r.as_ref().is_some_and(|r| step > 0 && !same(r.scale, scale)));
                format!(
                    "Step {} of {}{} · sample {} of {}{}",
                    step,
                    run.with(|r| r.as_ref().map_or(0, |r| r.steps)),
                    if round > 0 { format!(", restart {round}") } else { String::new() },
                    focus.get() + 1,
                    run.with(|r| r.as_ref().map_or(0, |r| r.samples)),
                    if changed { format!(" · scale {scale:.1}") } else { String::new() }
                )
            }}
        </p>
    }
}
