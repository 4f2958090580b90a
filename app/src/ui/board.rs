//! Small SVG drawings of boards (gallery, samples) and the coverage plot.

use engine::tasks::nqueens::Board;
use leptos::prelude::*;

/// A board as a small picture; queens that were given are drawn in a second colour.
pub fn mini_board(board: &Board, given: Option<&Board>) -> impl IntoView + use<> {
    let n = board.n();
    let dark: String =
        (0..n * n).filter(|i| (i / n + i % n) % 2 == 1).map(|i| format!("M{} {}h1v1h-1z", i % n, i / n)).collect();
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

/// One line of the coverage plot: found completions after each sample drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    pub label: String,
    pub found: Vec<usize>,
    pub total: usize,
}

impl Curve {
    fn points(&self, x_max: usize) -> String {
        let total = self.total.max(1) as f64;
        self.found
            .iter()
            .enumerate()
            .map(|(i, &f)| {
                let x = 30.0 + 260.0 * (i + 1) as f64 / x_max as f64;
                let y = 130.0 - 120.0 * f as f64 / total;
                format!("{x:.1},{y:.1}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Coverage (found / all completions) against samples drawn, for this run and the previous one.
pub fn coverage_plot(current: Option<Curve>, previous: Option<Curve>) -> impl IntoView + use<> {
    let x_max = [&current, &previous].iter().filter_map(|c| c.as_ref().map(|c| c.found.len())).max().unwrap_or(1).max(1);
    let line = |c: &Option<Curve>, class: &'static str| {
        c.as_ref().map(|c| view! { <polyline class=class points=c.points(x_max)/> })
    };
    let legend = |c: &Option<Curve>, class: &'static str| {
        c.as_ref().map(|c| {
            let last = c.found.last().copied().unwrap_or(0);
            let pct = 100.0 * last as f64 / c.total.max(1) as f64;
            view! { <li class=class>{format!("{}: {last} of {} after {} samples ({pct:.0}%)", c.label, c.total, c.found.len())}</li> }
        })
    };
    view! {
        <figure class="plot">
            <svg viewBox="0 0 300 160" role="img" aria-label="Coverage against samples drawn">
                <line x1="30" y1="130" x2="290" y2="130" class="axis"/>
                <line x1="30" y1="10" x2="30" y2="130" class="axis"/>
                <text x="26" y="14" class="tick" text-anchor="end">"100%"</text>
                <text x="26" y="132" class="tick" text-anchor="end">"0"</text>
                <text x="290" y="146" class="tick" text-anchor="end">{x_max.to_string()}</text>
                <text x="160" y="156" class="tick" text-anchor="middle">"samples drawn"</text>
                {line(&previous, "previous")}
                {line(&current, "current")}
            </svg>
            <figcaption>
                <ul class="legend">{legend(&current, "current")}{legend(&previous, "previous")}</ul>
            </figcaption>
        </figure>
    }
}
