//! The paste row of a page that reads a puzzle written elsewhere (Sudoku, graph colouring): a
//! labelled field, a Load button, and under them the reader's refusal, said aloud. The page's
//! reader decides what the text means; this row only carries it.

use leptos::prelude::*;

/// The text field: one line (Enter loads too), or a few lines (a DIMACS graph, a matrix).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Field {
    Line,
    Lines(u32),
}

#[component]
pub fn PasteRow(
    /// The label: what to paste and the forms the reader takes.
    label: &'static str,
    /// The field's accessible name.
    aria_label: &'static str,
    placeholder: &'static str,
    field: Field,
    /// The button's text.
    button: &'static str,
    /// The field's text.
    text: RwSignal<String>,
    /// Why the last paste was not loaded, if it was not.
    #[prop(into)]
    error: Signal<Option<String>>,
    on_load: impl Fn() + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let input = match field {
        Field::Line => view! {
            <input type="text" class="paste-input" aria-label=aria_label placeholder=placeholder
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))
                on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" { on_load() }/>
        }
        .into_any(),
        Field::Lines(rows) => view! {
            <textarea class="paste-input" rows=rows aria-label=aria_label placeholder=placeholder
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
        }
        .into_any(),
    };
    view! {
        <div class="row paste">
            <label>{label} " " {input}</label>
            <button on:click=move |_| on_load()>{button}</button>
        </div>
        <Show when=move || error.with(Option::is_some)>
            <p class="error" role="alert">{move || error.get().unwrap_or_default()}</p>
        </Show>
    }
}
