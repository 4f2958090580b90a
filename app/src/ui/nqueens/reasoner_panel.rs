//! The settings panel of `/nqueens`: the shared GRAM/TRM controls; Solve waits for a board
//! without attacking queens.

use std::collections::BTreeSet;

use leptos::prelude::*;

use super::state::NQueensState;
use crate::ui::trajectories::reasoner::ReasonerControls;

#[component]
pub(super) fn ReasonerPanel(page: NQueensState) -> impl IntoView {
    let NQueensState { settings, conflicts, session, .. } = page;
    view! {
        <ReasonerControls
            settings
            session
            model=Signal::derive(move || settings.with(|s| s.model))
            on_model=move |m| page.set_model(m)
            on_run=move || page.solve()
            on_stop=move || page.stop()
            blocked=Signal::derive(move || !conflicts.with(BTreeSet::is_empty))
        />
    }
}
