//! The settings panel of `/coloring`: the shared GRAM/TRM controls; Solve waits for a graph
//! with a 3-colouring.

use engine::tasks::coloring::is_3_colourable;
use leptos::prelude::*;

use super::state::ColoringState;
use crate::ui::trajectories::reasoner::ReasonerControls;

#[component]
pub(super) fn ReasonerPanel(page: ColoringState) -> impl IntoView {
    let ColoringState { settings, session, .. } = page;
    view! {
        <ReasonerControls
            settings
            session
            model=Signal::derive(move || settings.with(|s| s.model))
            on_model=move |m| page.set_model(m)
            on_run=move || page.solve()
            on_stop=move || page.stop()
            blocked=Signal::derive(move || settings.with(|s| !is_3_colourable(&s.graph)))
        />
    }
}
