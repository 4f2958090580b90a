//! What every page says about its model: the backend, the weights' loading state, and URL values
//! that were not understood. One place, so the three pages word it the same way.

use leptos::prelude::*;

/// A model's weights, as the worker reported them.
#[derive(Clone, Debug, PartialEq)]
pub enum Load {
    Loading { loaded: u64, total: u64 },
    Ready(String),
    Failed(String),
}

/// The loading state of `model`'s weights (`model` as a visitor reads it, e.g. "GRAM"): a progress
/// bar, the summary once ready, or an alert saying what failed and `still` (what keeps working).
pub fn load_view(load: Option<Load>, model: &str, still: &str) -> AnyView {
    match load {
        Some(Load::Loading { loaded, total }) => view! {
            <label class="loading">
                {format!("Loading {model} weights ")}
                <progress max=total.max(1) value=loaded></progress>
                {format!(" {} of {} KiB", loaded / 1024, total / 1024)}
            </label>
        }
        .into_any(),
        Some(Load::Ready(summary)) => view! { <p class="summary">{format!("{model} weights ready: {summary}.")}</p> }.into_any(),
        Some(Load::Failed(message)) => view! {
            <div class="error" role="alert">
                <strong>{format!("The {model} weights could not be used. ")}</strong>
                {message}
                {format!(" {still}")}
            </div>
        }
        .into_any(),
        None => view! { <p class="summary">{format!("Fetching {model} weights…")}</p> }.into_any(),
    }
}

/// The note listing URL values that fell back to defaults, with a Dismiss button.
#[component]
pub fn UrlNotes(notes: RwSignal<Vec<String>>) -> impl IntoView {
    view! {
        <Show when=move || !notes.with(Vec::is_empty)>
            <div class="note" role="status">
                <strong>"Some URL values were not understood: "</strong>
                {move || notes.get().join(" ")}
                <button class="dismiss" on:click=move |_| notes.set(Vec::new())>"Dismiss"</button>
            </div>
        </Show>
    }
}

/// The backend badge and why that backend runs: `(name, detail)` once the worker said, else
/// "Starting…".
#[component]
pub fn BackendStatus(#[prop(into)] backend: Signal<Option<(String, String)>>) -> impl IntoView {
    view! {
        <div class="status-bar">
            <span class="badge" data-backend=move || backend.with(|b| b.as_ref().map(|b| b.0.clone()).unwrap_or_default())>
                {move || backend.with(|b| b.as_ref().map(|b| b.0.clone()).unwrap_or_else(|| "Starting…".into()))}
            </span>
            <span class="backend-detail">{move || backend.with(|b| b.as_ref().map(|b| b.1.clone()).unwrap_or_default())}</span>
        </div>
    }
}
