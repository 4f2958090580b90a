//! The settings panel of `/nqueens`: the model (GRAM or TRM), the sampling knobs, Solve and
//! Stop, and the run's status.

use std::collections::BTreeSet;

use leptos::prelude::*;

use super::state::NQueensState;
use crate::ui::controls::run_stop::RunStop;
use crate::ui::controls::sampling::SamplingControls;
use crate::ui::trajectories::views::RunStatus;
use crate::url_state::nqueens::Model;

#[component]
pub(super) fn ReasonerPanel(page: NQueensState) -> impl IntoView {
    let NQueensState { settings, conflicts, session, .. } = page;
    let is = move |m: Model| settings.with(|s| s.model == m);
    let scale_hint = move || {
        if is(Model::Trm) {
            "TRM has no guidance heads: the scale does not change it, and all N samples are the same."
        } else {
            "0 = the mean path only (deterministic), 1 = the learned prior, above 1 = amplified noise."
        }
    };
    view! {
        <div class="panel controls">
            <h2>"Reasoner"</h2>
            <fieldset class="model">
                <legend>"Model"</legend>
                <label>
                    <input type="radio" name="model" prop:checked=move || is(Model::Gram) on:change=move |_| page.set_model(Model::Gram)/>
                    "GRAM (stochastic guidance)"
                </label>
                <label>
                    <input type="radio" name="model" prop:checked=move || is(Model::Trm) on:change=move |_| page.set_model(Model::Trm)/>
                    "TRM (deterministic)"
                </label>
            </fieldset>
            <SamplingControls settings scale_hint/>
            <RunStop
                on_run=move || page.solve()
                on_stop=move || page.stop()
                blocked=move || !conflicts.with(BTreeSet::is_empty)
                running=move || session.running()
            />
            <RunStatus session/>
        </div>
    }
}
