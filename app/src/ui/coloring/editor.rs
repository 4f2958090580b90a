//! The graph editor: choose a vertex, then another, to add or remove the edge between them (by
//! pointer, or Tab and Enter); the engine says at once whether the graph is 3-colourable and
//! how many colourings it has up to renaming the colours.

use engine::tasks::coloring::impossible_reason;
use leptos::prelude::*;

use super::picture::{SIZE, edge_lines, vertex_position};
use super::state::ColoringState;

#[component]
pub(super) fn GraphEditor(page: ColoringState) -> impl IntoView {
    let ColoringState { settings, exact, chosen, .. } = page;
    let n = settings.with_untracked(|s| s.graph.n());
    let vertices = (0..n)
        .map(|i| {
            let (x, y) = vertex_position(i, n);
            let press = move || page.press_vertex(i);
            let degree = move || settings.with(|s| (0..n).filter(|&j| j != i && s.graph.has_edge(i, j)).count());
            let label = move || {
                let state = if chosen.get() == Some(i) { "chosen; choose another vertex to add or remove their edge" } else { "press to choose" };
                format!("Vertex {i} ({} edges), {state}", degree())
            };
            view! {
                <g
                    class="vertex-button"
                    class:chosen=move || chosen.get() == Some(i)
                    role="button"
                    tabindex="0"
                    aria-label=label
                    data-vertex=i
                    on:click=move |_| press()
                    on:keydown=move |e| {
                        if e.key() == "Enter" || e.key() == " " {
                            e.prevent_default();
                            press();
                        }
                    }
                >
                    <circle cx=x cy=y r="15" class="vertex none"/>
                    <text x=x y=y + 4.0 text-anchor="middle">{i}</text>
                </g>
            }
        })
        .collect_view();
    let verdict = move || {
        settings.with(|s| match impossible_reason(&s.graph) {
            Some(reason) => format!("{}.", capitalise(&reason)),
            None => {
                let c = exact.with(Vec::len);
                let edges = s.graph.edges().len();
                format!(
                    "{edges} edges. 3-colourable: the exact solver finds {c} colouring{} (up to renaming the colours).",
                    if c == 1 { "" } else { "s" }
                )
            }
        })
    };
    view! {
        <div class="panel">
            <h2>"Your graph"</h2>
            <p class="hint">"Vertices are numbered 0 to 7, as in the text format. Choose a vertex, then another, to add or remove the edge between them (click, or Tab and Enter)."</p>
            <svg class="graph editor" viewBox=format!("0 0 {SIZE} {SIZE}") role="group" aria-label="The graph: 8 vertices">
                {move || settings.with(|s| edge_lines(&s.graph, None))}
                {vertices}
            </svg>
            <p class="verdict" aria-live="polite">{verdict}</p>
            <div class="row">
                <button on:click=move |_| page.clear_edges()>"No edges"</button>
                <button on:click=move |_| page.new_graph()>"New graph"</button>
            </div>
        </div>
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}
