//! The input editor of a page whose models come in several sizes (`/nqueens`' board,
//! `/coloring`'s graph), written once: the heading and how to edit, the size switch (which hands
//! the size to the page: its default input and its models), the page's own picture of the input,
//! what the engine says about it, and the two buttons every such editor has (empty it, draw a
//! held-out one). A page brings the picture and the sentence.

use leptos::prelude::*;

use super::page::ReasonerPage;
use crate::ui::controls::size_switch::SizeSwitch;
use crate::url_state::gram_page::PageInput;

#[component]
pub fn SizedEditor<P: ReasonerPage>(
    page: P,
    /// The panel's heading ("Your board").
    heading: &'static str,
    /// The size switch's legend, its radios' name, and what a size's radio says.
    legend: &'static str,
    name: &'static str,
    size_label: fn(usize) -> String,
    /// The class of the line that says what the engine found.
    verdict_class: &'static str,
    /// The buttons that empty the input and draw a held-out one.
    clear: &'static str,
    new: &'static str,
    /// The size on screen.
    size: Memo<usize>,
    /// How to edit (a sentence or two, may follow the size).
    hint: AnyView,
    /// What the engine says about the input on screen.
    #[prop(into)]
    verdict: Signal<String>,
    /// Empties the input (no queens, no edges).
    on_clear: impl Fn() + Copy + Send + Sync + 'static,
    /// What follows the buttons (a paste field), if anything.
    #[prop(optional)]
    after: Option<AnyView>,
    /// The picture of the input, the visitor's to edit.
    children: Children,
) -> impl IntoView {
    let sizes = <P::Input as PageInput>::SIZES;
    view! {
        <div class="panel">
            <h2>{heading}</h2>
            <p class="hint">{hint}</p>
            <SizeSwitch
                legend=legend
                name=name
                sizes=sizes
                label=size_label
                current=size
                on_pick=move |n| page.set_size(n)
            />
            {children()}
            <p class=verdict_class aria-live="polite">{verdict}</p>
            <div class="row">
                <button on:click=move |_| on_clear()>{clear}</button>
                <button on:click=move |_| page.new_held_out()>{new}</button>
            </div>
            {after}
        </div>
    }
}
