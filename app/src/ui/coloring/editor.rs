//! The graph editor: choose a vertex, then another, to add or remove the edge between them (by
//! pointer, or Tab and Enter); the engine says at once whether the graph is 3-colourable and
//! how many colourings it has up to renaming the colours; or paste a graph written elsewhere
//! (an edge list, DIMACS, a matrix: `engine::tasks::coloring::from_pasted_onto`).

use engine::tasks::coloring::impossible_reason;
use leptos::prelude::*;

use super::picture::{SIZE, edge_lines, vertex_position};
use super::state::ColoringState;
use super::url::ColoringSettings;
use crate::ui::controls::paste_row::{Field, PasteRow};
use crate::ui::trajectories::coverage::Coverage;
use crate::ui::trajectories::sized_editor::SizedEditor;

#[component]
pub(super) fn GraphEditor(page: ColoringState) -> impl IntoView {
    let ColoringState { settings, coverage: Coverage { exact, .. }, paste, paste_error, .. } = page;
    // Only a new size rebuilds the vertices (an edit keeps them, and the keyboard focus).
    let size = Memo::new(move |_| settings.with(ColoringSettings::vertices));
    let vertices = move || {
        let n = size.get();
        (0..n).map(move |i| vertex(page, n, i)).collect_view()
    };
    let verdict = move || {
        settings.with(|s| match impossible_reason(&s.puzzle) {
            Some(reason) => format!("{}.", capitalise(&reason)),
            None => {
                let c = exact.with(Vec::len);
                let edges = s.puzzle.edges().len();
                format!(
                    "{edges} edges. 3-colourable: the exact solver finds {c} colouring{} (up to renaming the colours).",
                    if c == 1 { "" } else { "s" }
                )
            }
        })
    };
    let hint = view! {
        {move || format!("Vertices are numbered 0 to {}, as in the text format. ", size.get() - 1)}
        "Choose a vertex, then another, to add or remove the edge between them (click, or Tab and Enter)."
    }
    .into_any();
    let after = view! {
        <PasteRow
            label="Paste a graph (an edge list such as 0-1 0-2 1-2, vertices from 0; a DIMACS graph; an adjacency matrix; or the 28- or 45-character line)"
            aria_label="Graph text: an edge list, DIMACS, a matrix or the task's line" placeholder="0-1 0-2 1-2 2-3"
            field=Field::Lines(2) button="Load graph" text=paste error=paste_error on_load=move || page.load_paste()/>
    }
    .into_any();
    view! {
        <SizedEditor page heading="Your graph" legend="Vertices" name="coloring-size" size_label=|n| format!("{n} vertices")
            verdict_class="verdict" verdict clear="No edges" new="New graph" size hint on_clear=move || page.clear_edges() after>
            <svg
                class="graph editor"
                viewBox=format!("0 0 {SIZE} {SIZE}")
                role="group"
                aria-label=move || format!("The graph: {} vertices", size.get())
            >
                {move || settings.with(|s| edge_lines(&s.puzzle, None))}
                {vertices}
            </svg>
        </SizedEditor>
    }
}

/// Vertex `i` of `n` as a button: the first press chooses it, the second (on another vertex)
/// adds or removes their edge.
fn vertex(page: ColoringState, n: usize, i: usize) -> impl IntoView + use<> {
    let ColoringState { settings, chosen, .. } = page;
    let (x, y) = vertex_position(i, n);
    let press = move || page.press_vertex(i);
    // A vertex of the old size may be read once more while a size switch replaces it.
    let degree = move || settings.with(|s| (0..s.puzzle.n()).filter(|&j| i < s.puzzle.n() && j != i && s.puzzle.has_edge(i, j)).count());
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
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}
