//! The settings panel of `/sudoku`: the shared GRAM/TRM controls; Solve waits for a puzzle with
//! exactly one solution and no clashes.

use leptos::prelude::*;

use super::state::SudokuState;
use crate::ui::trajectories::reasoner::ReasonerControls;

#[component]
pub(super) fn ReasonerPanel(page: SudokuState) -> impl IntoView {
    let SudokuState { settings, session, .. } = page;
    view! {
        <ReasonerControls
            settings
            session
            model=Signal::derive(move || settings.with(|s| s.model))
            on_model=move |m| page.set_model(m)
            on_run=move || page.solve()
            on_stop=move || page.stop()
            blocked=Signal::derive(move || page.blocked())
            blocked_hint="Solve needs a puzzle with exactly one solution and no clashes (see under the grid)."
        />
    }
}
