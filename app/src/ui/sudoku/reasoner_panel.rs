//! The settings panel of `/sudoku`: the sampling knobs, Solve and Stop (with why Solve is off),
//! and the run's status.

use leptos::prelude::*;

use super::state::SudokuState;
use crate::ui::controls::run_stop::RunStop;
use crate::ui::controls::sampling::SamplingControls;
use crate::ui::trajectories::views::RunStatus;

#[component]
pub(super) fn ReasonerPanel(page: SudokuState) -> impl IntoView {
    let SudokuState { settings, session, .. } = page;
    view! {
        <div class="panel controls">
            <h2>"Reasoner (GRAM)"</h2>
            <SamplingControls settings scale_hint="0 = the mean path only (every sample the same), 1 = the learned prior, above 1 = amplified noise."/>
            <RunStop on_run=move || page.solve() on_stop=move || page.stop() blocked=move || page.blocked() running=move || session.running()/>
            <p class="hint solve-blocked" hidden=move || !page.blocked()>"Solve needs a puzzle with exactly one solution and no clashes (see under the grid)."</p>
            <RunStatus session/>
        </div>
    }
}
