//! "The tree and the question": the drawing, which side of the split the question is on, the
//! target leaf, a random tree, and the tree as editable text.

use engine::tasks::tree::{Part, part_of};
use leptos::prelude::*;

use super::state::TreeState;
use super::tree_drawing::{leaves_select, tree_svg};

#[component]
pub(super) fn QuestionPanel(page: TreeState) -> impl IntoView {
    let TreeState { task, text, text_error, .. } = page;
    view! {
        <div class="panel">
            <h2>"The tree and the question"</h2>
            {move || tree_svg(page)}
            <p class="hint">"Blue: the route the question asks for. Orange, dashed: where the model's route leaves it. The target leaf has a thick ring."</p>
            <p class="hint split-part">{move || match part_of(&task.get()) {
                Part::Test => "This question is in the held-out part of the split: the model never trained on it.",
                Part::Validation => "This question is in the validation part of the split: training runs leave it out to check themselves on (the shipped weights were trained before that part was carved out, so they may have drawn it).",
                Part::Train => "This question falls in the training part of the split: training drew its trees from that part (though with so many possible trees, most likely not this exact one).",
            }}</p>
            <div class="row">
                {move || leaves_select(page)}
                <button on:click=move |_| page.generate()>"New random tree"</button>
            </div>
            <label class="tree-text">
                "Tree as text (edges parent-child, then root and target)"
                <textarea rows="3" aria-label="Tree as text" spellcheck="false"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            </label>
            <div class="row">
                <button on:click=move |_| page.apply_text()>"Use this tree"</button>
            </div>
            <Show when=move || text_error.with(Option::is_some)>
                <p class="error" role="alert">{move || text_error.get().unwrap_or_default()}</p>
            </Show>
        </div>
    }
}
