//! One entry of a samples strip: a picture of the sample that, chosen, puts it in focus.

use leptos::prelude::*;

/// `<button class="sample">` for sample `index` (0-based): green when `valid`, outlined while
/// `focus` is on it. The page adds its data attributes (`attr:data-…`) and the picture.
#[component]
pub fn SampleButton(index: usize, focus: RwSignal<usize>, valid: bool, label: String, children: Children) -> impl IntoView {
    view! {
        <button
            class="sample"
            class:valid=valid
            class:focused=move || focus.get() == index
            aria-label=label
            aria-pressed=move || if focus.get() == index { "true" } else { "false" }
            on:click=move |_| focus.set(index)
        >
            {children()}
        </button>
    }
}
