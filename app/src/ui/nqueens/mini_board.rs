//! A board as a small SVG picture (samples, gallery, the exact solver's list).

use engine::tasks::nqueens::Board;
use leptos::prelude::*;

/// A board as a small picture; queens that were given are drawn in a second colour.
pub fn mini_board(board: &Board, given: Option<&Board>) -> impl IntoView + use<> {
    let n = board.n();
    let dark: String = (0..n * n).filter(|i| (i / n + i % n) % 2 == 1).map(|i| format!("M{} {}h1v1h-1z", i % n, i / n)).collect();
    let queens = board
        .queens()
        .into_iter()
        .map(|(r, c)| {
            let cls = if given.is_some_and(|g| g.has_queen(r, c)) { "q given" } else { "q" };
            view! { <circle cx=c as f64 + 0.5 cy=r as f64 + 0.5 r="0.32" class=cls/> }
        })
        .collect_view();
    view! {
        <svg class="mini" viewBox=format!("0 0 {n} {n}") aria-hidden="true">
            <rect width=n height=n class="light"/>
            <path d=dark class="dark"/>
            {queens}
        </svg>
    }
}
