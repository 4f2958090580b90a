//! Inside one trajectory: playback of the supervision steps, and the focused sample's colouring
//! with each vertex's probabilities of the three colours, conflicts in red.

use engine::tasks::coloring::COLOURS;
use leptos::prelude::*;

use super::picture::{SIZE, colour_class, edge_lines, vertex_position};
use super::state::ColoringState;
use crate::ui::controls::playback::Player;
use crate::ui::trajectories::coverage::Coverage;
use crate::ui::trajectories::views::StepLabel;

#[component]
pub(super) fn TrajectoryPanel(page: ColoringState) -> impl IntoView {
    let ColoringState { session, coverage: Coverage { samples, puzzle, .. }, .. } = page;
    let (current, focus) = (session.current, session.focus);
    let picture = move || {
        let graph = puzzle.get()?;
        let colouring = samples.with(|s| s.get(focus.get()).cloned());
        let probs = current.with(|c| c.as_ref().and_then(|r| r.probs.get(focus.get()).cloned())).unwrap_or_default();
        let n = graph.n();
        let vertices = (0..n)
            .map(|i| {
                let (x, y) = vertex_position(i, n);
                let colour = colouring.as_ref().and_then(|c| c.colours()[i]);
                let p: Vec<f32> = (0..COLOURS as usize).map(|k| probs.get(i * 3 + k).copied().unwrap_or(0.0)).collect();
                let title = format!("Vertex {i}: P = {:.0}% / {:.0}% / {:.0}% for the three colours", 100.0 * p[0], 100.0 * p[1], 100.0 * p[2]);
                let sure = colour.map_or(0.0, |c| p[c as usize]);
                view! {
                    <g class="vertex-state" data-vertex=i data-colour=colour.map_or(".".to_string(), |c| c.to_string())>
                        <title>{title}</title>
                        <circle cx=x cy=y r="15" class=format!("vertex {}", colour_class(colour)) style:fill-opacity=format!("{:.2}", 0.25 + 0.75 * sure)/>
                        <text x=x y=y + 4.0 text-anchor="middle">{i}</text>
                    </g>
                }
            })
            .collect_view();
        Some(view! {
            <svg class="graph" viewBox=format!("0 0 {SIZE} {SIZE}") role="img" aria-label="The focused trajectory's colouring at this step; red edges join two vertices of one colour">
                {edge_lines(&graph, colouring.as_ref())}
                {vertices}
            </svg>
        })
    };
    view! {
        <div class="panel">
            <h2>"Inside one trajectory"</h2>
            <p class="hint">"Each vertex takes the model's most likely colour after this step, paler when it is less sure (hover for the three probabilities); red edges join two vertices of one colour."</p>
            <Player playback=session.playback unit="step" speed_select=true/>
            <StepLabel session/>
            {picture}
        </div>
    }
}
