//! Solve (or Generate) and Stop: start N trajectories, or stop the run after its current step.

use leptos::prelude::*;

#[component]
pub fn RunStop(
    on_run: impl Fn() + 'static,
    on_stop: impl Fn() + 'static,
    /// Solve is disabled (the puzzle cannot be solved as it stands).
    #[prop(into)]
    blocked: Signal<bool>,
    /// A run is in progress (Stop is enabled).
    #[prop(into)]
    running: Signal<bool>,
    /// The run button's text.
    #[prop(default = "Solve")]
    label: &'static str,
) -> impl IntoView {
    view! {
        <div class="row">
            <button class="primary" on:click=move |_| on_run() disabled=move || blocked.get()>{label}</button>
            <button on:click=move |_| on_stop() disabled=move || !running.get()>"Stop"</button>
        </div>
    }
}
