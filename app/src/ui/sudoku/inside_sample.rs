//! Inside one sample: playback of the supervision steps, the focused sample's digit in every
//! cell shaded by its confidence, and one cell's nine digit probabilities.

use leptos::prelude::*;

use super::state::SudokuState;
use crate::ui::controls::playback::Player;
use crate::ui::trajectories::views::StepLabel;

#[component]
pub(super) fn InsideSample(page: SudokuState) -> impl IntoView {
    let SudokuState { session, samples, cell_focus, .. } = page;
    let (run, current, focus) = (session.run, session.current, session.focus);
    // The focused sample's P(digit 1..9) of `cell` at the step on screen.
    let digit_probs = move |cell: usize| -> Vec<f32> {
        current.with(|cur| {
            cur.as_ref().and_then(|rep| rep.probs.get(focus.get())).map(|p| p[cell * 9..cell * 9 + 9].to_vec()).unwrap_or_default()
        })
    };
    let think_cells = (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let given = move || run.with(|ru| ru.as_ref().map_or(0, |ru| ru.task.puzzle.get(i)));
            let predicted = move || samples.with(|s| s.get(focus.get()).map_or(0, |g| g.get(i)));
            let confidence = move || {
                let d = predicted();
                if d == 0 { 0.0 } else { digit_probs(i).get(d as usize - 1).copied().unwrap_or(0.0) }
            };
            let label = move || {
                if given() != 0 {
                    format!("Row {}, column {}: given {}", r + 1, c + 1, given())
                } else if predicted() == 0 {
                    format!("Row {}, column {}: undecided", r + 1, c + 1)
                } else {
                    format!("Row {}, column {}: {} ({:.0}% sure)", r + 1, c + 1, predicted(), 100.0 * confidence())
                }
            };
            view! {
                <button
                    class="tcell"
                    class:bt=r % 3 == 0
                    class:bl=c % 3 == 0
                    class:given=move || given() != 0
                    class:picked=move || cell_focus.get() == Some(i)
                    aria-label=label
                    title=label
                    on:click=move |_| cell_focus.set(Some(i))
                >
                    <span class="conf" style:opacity=move || if given() != 0 { "0".to_string() } else { format!("{:.3}", confidence()) }></span>
                    <span class="dg">{move || match (given(), predicted()) {
                        (0, 0) => String::new(),
                        (0, d) => d.to_string(),
                        (g, _) => g.to_string(),
                    }}</span>
                </button>
            }
        })
        .collect_view();

    // The cell whose distribution is shown: the one chosen, else the first blank.
    let shown_cell =
        move || cell_focus.get().or_else(|| run.with(|r| r.as_ref().and_then(|r| (0..81).find(|&i| r.task.puzzle.get(i) == 0))));
    let distribution = move || {
        let Some(cell) = shown_cell() else { return view! { <p class="hint">"Choose a cell."</p> }.into_any() };
        let probs = digit_probs(cell);
        let answer = run.with(|r| r.as_ref().map_or(0, |r| r.task.solution.get(cell)));
        let bars = probs
            .iter()
            .enumerate()
            .map(|(k, &p)| {
                let d = k + 1;
                view! {
                    <li class:answer=d == answer as usize>
                        <span class="digit">{d.to_string()}</span>
                        <span class="bar"><span style:width=format!("{:.1}%", 100.0 * p)></span></span>
                        <span class="pct">{format!("{:.0}%", 100.0 * p)}</span>
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="dist">
                <p class="dist-title">{format!("Row {}, column {}: the focused sample's digit probabilities at this step", cell / 9 + 1, cell % 9 + 1)}</p>
                <ol class="bars" aria-label="Digit probabilities">{bars}</ol>
                <p class="hint">"Outlined: the exact solver's digit."</p>
            </div>
        }
        .into_any()
    };

    view! {
        <div class="panel">
            <h2>"Inside one sample"</h2>
            <p class="hint">"Each blank cell shows the focused sample's current digit; the shade is how sure the model is. Blue digits were given. Choose a cell to see its nine probabilities."</p>
            <Player playback=session.playback unit="step" speed_select=true/>
            <StepLabel session/>
            <div class="tgrid" role="group" aria-label="The focused sample's grid at this step">{think_cells}</div>
            {distribution}
        </div>
    }
}
