//! A graph as an SVG picture: vertices on a circle, edges as lines, each vertex filled with its
//! colour (or hollow without one), edges whose ends share a colour drawn red.

use engine::tasks::coloring::{Colouring, Graph};
use leptos::prelude::*;

/// Side of the square the pictures are drawn in (viewBox units).
pub const SIZE: f64 = 200.0;
const RADIUS: f64 = 78.0;

/// Where vertex `i` of `n` sits: on a circle, vertex 0 at the top, clockwise.
pub fn vertex_position(i: usize, n: usize) -> (f64, f64) {
    let a = std::f64::consts::TAU * i as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
    (SIZE / 2.0 + RADIUS * a.cos(), SIZE / 2.0 + RADIUS * a.sin())
}

/// The CSS class of a vertex's fill: `c0`/`c1`/`c2`, or `none`.
pub fn colour_class(colour: Option<u8>) -> &'static str {
    match colour {
        Some(0) => "c0",
        Some(1) => "c1",
        Some(2) => "c2",
        _ => "none",
    }
}

/// The edges, each with whether it is in conflict under `colouring`.
pub fn edge_lines(graph: &Graph, colouring: Option<&Colouring>) -> impl IntoView + use<> {
    let conflicts = colouring.map(|c| graph.conflicts(c)).unwrap_or_default();
    let n = graph.n();
    graph
        .edges()
        .into_iter()
        .map(|(i, j)| {
            let ((x1, y1), (x2, y2)) = (vertex_position(i, n), vertex_position(j, n));
            let bad = conflicts.contains(&(i, j));
            view! { <line x1=x1 y1=y1 x2=x2 y2=y2 class="edge" class:conflict=bad data-edge=format!("{i}-{j}")/> }
        })
        .collect_view()
}

/// A small picture of `graph` coloured by `colouring` (samples, gallery, the exact list).
pub fn mini_graph(graph: &Graph, colouring: &Colouring) -> impl IntoView + use<> {
    let n = graph.n();
    let vertices = colouring
        .colours()
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let (x, y) = vertex_position(i, n);
            view! { <circle cx=x cy=y r="16" class=format!("vertex {}", colour_class(c))/> }
        })
        .collect_view();
    view! {
        <svg class="mini graph" viewBox=format!("0 0 {SIZE} {SIZE}") aria-hidden="true">
            {edge_lines(graph, Some(colouring))}
            {vertices}
        </svg>
    }
}
