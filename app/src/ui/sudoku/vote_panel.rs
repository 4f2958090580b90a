//! The samples against the oracle: their vote checked by the exact solver, every sample at the
//! step on screen, and accuracy against the number of samples.

use engine::gram::select::Selection;
use leptos::prelude::*;

use super::mini_grid::mini_grid;
use super::state::SudokuState;
use crate::ui::controls::sample_button::SampleButton;
use crate::ui::plots::export::TextExport;
use crate::ui::plots::width::width_plot;
use crate::ui::trajectories::record::verified_after;

#[component]
pub(super) fn VotePanel(page: SudokuState) -> impl IntoView {
    let SudokuState { session, samples, voted, curve, previous, .. } = page;
    let run = session.run;
    // The verified stop ended the run at the step on screen: its answer is the sample that
    // passed, whatever the vote or a head would have picked.
    let stopped_on = move || {
        let verified = run.with(|r| r.as_ref()?.verified)?;
        let on_screen = session.current.with(|c| c.as_ref().map(|c| (c.round, c.step)));
        (Some((verified.round, verified.step)) == on_screen).then_some(())?;
        samples.with(|s| s.get(verified.sample).cloned()).map(|g| (verified, g))
    };
    let verdict = move || {
        let r = run.get()?;
        let n = samples.with(Vec::len);
        let stopped_on = stopped_on();
        let (grid, agree, what) = match &stopped_on {
            Some((v, g)) => {
                let agree = samples.with(|s| s.iter().filter(|x| *x == g).count());
                (g.clone(), agree, format!("sample {}, the run's answer,", v.sample + 1))
            }
            None => {
                let (grid, agree) = voted.get()?;
                let what = match session.pick.get() {
                    Selection::Vote => "the vote",
                    Selection::Lprm => "the LPRM pick",
                    Selection::Q => "the Q-head pick",
                };
                (grid, agree, what.to_string())
            }
        };
        let solution = &r.task.solution;
        let wrong = grid.wrong_cells(solution);
        let (class, text) = if wrong.is_empty() {
            ("verdict ok", format!("Verified: {what} is the exact solver's solution."))
        } else {
            (
                "verdict bad",
                format!(
                    "Not solved: {} cell{} of {what} differ from the exact solver's solution (marked red).",
                    wrong.len(),
                    if wrong.len() == 1 { "" } else { "s" }
                ),
            )
        };
        let right = samples.with(|s| s.iter().filter(|g| *g == solution).count());
        let stopped_here = stopped_on.as_ref().map(|(v, _)| {
            format!("The run stopped here: sample {} of {n} passes the rules ({}), so it is the answer.", v.sample + 1, verified_after(v))
        });
        Some(view! {
            {stopped_here.map(|t| view! { <p class="verified-stop" role="status">{t}</p> })}
            <div class="vote">
                <div class="vote-grid" data-grid=grid.to_text()>{mini_grid(&grid, &r.task.puzzle, Some(solution))}</div>
                <div>
                    <p class="agree">{format!("{agree} of {n} samples agree on this grid.")}</p>
                    <p class=class role="status" data-verified=wrong.is_empty().to_string()>{text}</p>
                    <p class="right-count">{format!("Samples right at this step: {right} of {n}.")}</p>
                </div>
            </div>
        })
    };
    let strip = move || {
        let Some(r) = run.get() else { return Vec::new() };
        samples.with(|ss| {
            ss.iter()
                .enumerate()
                .map(|(i, g)| {
                    let right = *g == r.task.solution;
                    let wrong = g.wrong_cells(&r.task.solution).len();
                    let label = if right {
                        format!("Sample {}: right", i + 1)
                    } else {
                        format!("Sample {}: wrong, {wrong} cells differ from the solution", i + 1)
                    };
                    let picture = mini_grid(g, &r.task.puzzle, Some(&r.task.solution));
                    view! {
                        <li>
                            <SampleButton index=i focus=session.focus valid=right label value=session.value_of(i) picked=session.picked.get() == Some(i) attr:data-grid=g.to_text() attr:data-right=right.to_string()>
                                {picture}
                            </SampleButton>
                        </li>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    let plot = move || {
        let points = curve.get()?;
        Some(width_plot(points, previous.get(), "this run".into()))
    };
    view! {
        <div class="panel">
            <h2>{move || match session.pick.get() {
                _ if stopped_on().is_some() => "The run's answer and the oracle",
                Selection::Vote => "The vote and the oracle",
                Selection::Lprm => "The LPRM pick and the oracle",
                Selection::Q => "The Q-head pick and the oracle",
            }}</h2>
            {verdict}
            <h2>"All samples at this step"</h2>
            <p class="hint">"Green border = the whole grid is right; red digits differ from the solution. Choose one to look inside it."</p>
            <TextExport
                name="sudoku-samples.txt"
                label="Download the samples as text"
                text=move || samples.with(|s| s.iter().map(|g| g.to_text() + "\n").collect::<String>())
            />
            <ul class="samples">{strip}</ul>
            <h2>"Accuracy against the number of samples"</h2>
            {plot}
        </div>
    }
}
