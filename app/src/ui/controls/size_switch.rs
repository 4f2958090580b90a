//! The size switch of a page with models for several puzzle sizes (N-Queens 8x8 / 10x10, graph
//! colouring 8 / 10 vertices): a radio group; picking a size hands it to the page.

use leptos::prelude::*;

#[component]
pub fn SizeSwitch(
    /// The group's legend ("Board size").
    legend: &'static str,
    /// The radios' `name`, unique on the page.
    name: &'static str,
    /// The sizes offered, in order.
    sizes: &'static [usize],
    /// What a size's radio says ("10x10", "10 vertices").
    label: fn(usize) -> String,
    /// The size on screen.
    #[prop(into)]
    current: Signal<usize>,
    on_pick: impl Fn(usize) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <fieldset class="model size-switch">
            <legend>{legend}</legend>
            {sizes
                .iter()
                .map(|&n| {
                    view! {
                        <label>
                            <input type="radio" name=name value=n prop:checked=move || current.get() == n on:change=move |_| on_pick(n)/>
                            {label(n)}
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}
