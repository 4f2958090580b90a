//! A labelled range slider and the seed box: the inputs of every page's settings panel.

use leptos::prelude::*;

/// `<label>{label}<input type="range" …></label>`; `on_input` gets the slider's value as text.
#[component]
pub fn Slider(
    /// The visible text before the slider, e.g. "Samples N = 20".
    #[prop(into)]
    label: Signal<String>,
    /// The slider's accessible name, e.g. "Samples N".
    aria_label: &'static str,
    min: &'static str,
    /// The largest value (may change: a run's steps as they arrive).
    #[prop(into)]
    max: Signal<String>,
    /// The slider's step when it is not 1.
    #[prop(optional)]
    step: Option<&'static str>,
    /// The current value as the slider shows it.
    #[prop(into)]
    value: Signal<String>,
    on_input: impl Fn(String) + 'static,
) -> impl IntoView {
    view! {
        <label>
            {move || label.get()}
            <input type="range" min=min max=move || max.get() step=step aria-label=aria_label
                prop:value=move || value.get()
                on:input=move |ev| on_input(event_target_value(&ev))/>
        </label>
    }
}

/// The seed box (0 to 1,000,000,000): `label` names it ("Seed", "Noise seed"); `on_change` gets
/// every whole number typed (the URL reader checks the range when the link is opened).
#[component]
pub fn SeedInput(label: &'static str, #[prop(into)] value: Signal<u64>, on_change: impl Fn(u64) + 'static) -> impl IntoView {
    view! {
        <label>
            {format!("{label} ")}
            <input type="number" min="0" max="1000000000" class="seed" aria-label=label
                prop:value=move || value.get().to_string()
                on:change=move |ev| { if let Ok(x) = event_target_value(&ev).parse() { on_change(x) } }/>
        </label>
    }
}
