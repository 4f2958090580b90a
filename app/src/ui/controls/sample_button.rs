//! One entry of a samples strip: a picture of the sample that, chosen, puts it in focus.

use leptos::prelude::*;

/// `<button class="sample">` for sample `index` (0-based): green when `valid`, outlined while
/// `focus` is on it. The page adds its data attributes (`attr:data-…`) and the picture.
#[component]
pub fn SampleButton(
    index: usize,
    focus: RwSignal<usize>,
    valid: bool,
    label: String,
    /// The LPRM value head's estimate that this answer is right, shown under the picture.
    #[prop(default = None)]
    value: Option<f32>,
    /// The selection rule picks this sample.
    #[prop(optional)]
    picked: bool,
    children: Children,
) -> impl IntoView {
    let label = match value {
        Some(v) => format!("{label}, LPRM value {v:.2}{}", if picked { ", picked" } else { "" }),
        None => label,
    };
    view! {
        <button
            class="sample"
            class:valid=valid
            class:picked=picked
            class:focused=move || focus.get() == index
            aria-label=label
            aria-pressed=move || if focus.get() == index { "true" } else { "false" }
            on:click=move |_| focus.set(index)
        >
            // What it shows is in its name already (WCAG 2.5.3: the name must hold any text it
            // shows, and a grid's 81 digits are no name).
            <span class="picture" aria-hidden="true">{children()}</span>
            {value.map(|v| view! {
                <span class="lprm" aria-hidden="true" title="LPRM value: the model's own estimate that this answer is right">
                    {if picked { format!("★ {v:.2}") } else { format!("{v:.2}") }}
                </span>
            })}
        </button>
    }
}
