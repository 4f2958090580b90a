//! Small SVG drawings for `/sudoku`: a grid as a picture (samples, the vote) and the plot of
//! accuracy against the number of samples for the current puzzle.

use engine::sudoku_solve::WidthPoint;
use engine::tasks::sudoku::SudokuGrid;
use leptos::prelude::*;

/// A 9x9 grid as a picture: givens in the given colour, the model's digits green where they match
/// the solution and red where they do not, unfilled cells empty. `wrong` cells also get a red square.
pub fn mini_grid(grid: &SudokuGrid, puzzle: &SudokuGrid, solution: Option<&SudokuGrid>) -> impl IntoView + use<> {
    let digits = (0..81)
        .filter(|&i| grid.get(i) != 0)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let class = if puzzle.get(i) != 0 {
                "d given"
            } else if solution.is_some_and(|s| s.get(i) != grid.get(i)) {
                "d wrong"
            } else {
                "d"
            };
            view! { <text x=c as f64 + 0.5 y=r as f64 + 0.78 class=class text-anchor="middle">{grid.get(i).to_string()}</text> }
        })
        .collect_view();
    let wrong = (0..81)
        .filter(|&i| puzzle.get(i) == 0 && solution.is_some_and(|s| s.get(i) != grid.get(i)))
        .map(|i| format!("M{} {}h1v1h-1z", i % 9, i / 9))
        .collect::<String>();
    view! {
        <svg class="mini-grid" viewBox="0 0 9 9" aria-hidden="true">
            <rect width="9" height="9" class="bg"/>
            <path d=wrong class="wrong-cell"/>
            <path d="M3 0v9M6 0v9M0 3h9M0 6h9" class="box"/>
            {digits}
        </svg>
    }
}

/// Share of the first n samples that are right (line) and whether their vote is right (dots), for
/// n = 1..N; the previous run of the same puzzle is drawn dashed for comparison.
pub fn width_plot(points: Vec<WidthPoint>, previous: Option<(String, Vec<WidthPoint>)>, label: String) -> impl IntoView + use<> {
    let x_max = points.len().max(previous.as_ref().map_or(0, |p| p.1.len())).max(1);
    let x = move |n: usize| 30.0 + 260.0 * n as f64 / x_max as f64;
    let y = |share: f64| 130.0 - 120.0 * share;
    let line = |pts: &[WidthPoint]| {
        pts.iter()
            .map(|p| format!("{:.1},{:.1}", x(p.n), y(p.right as f64 / p.n as f64)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let dots = points
        .iter()
        .map(|p| {
            let class = if p.vote_right { "vote right" } else { "vote" };
            let title = format!("N = {}: {} of {} right, vote {}", p.n, p.right, p.n, if p.vote_right { "right" } else { "wrong" });
            view! { <circle cx=x(p.n) cy=if p.vote_right { 16.0 } else { 124.0 } r="3" class=class><title>{title}</title></circle> }
        })
        .collect_view();
    let last = points.last().copied();
    let caption = last.map(|p| {
        format!(
            "{label}: {} of {} samples right ({:.0}%); the vote of all {} is {}.",
            p.right,
            p.n,
            100.0 * p.right as f64 / p.n as f64,
            p.n,
            if p.vote_right { "right" } else { "wrong" }
        )
    });
    let prev_caption = previous.as_ref().and_then(|(l, pts)| {
        pts.last().map(|p| format!("{l}: {} of {} right", p.right, p.n))
    });
    view! {
        <figure class="plot">
            <svg viewBox="0 0 300 160" role="img" aria-label="Accuracy against the number of samples for this puzzle">
                <line x1="30" y1="130" x2="290" y2="130" class="axis"/>
                <line x1="30" y1="10" x2="30" y2="130" class="axis"/>
                <text x="26" y="14" class="tick" text-anchor="end">"100%"</text>
                <text x="26" y="132" class="tick" text-anchor="end">"0"</text>
                <text x="290" y="146" class="tick" text-anchor="end">{x_max.to_string()}</text>
                <text x="160" y="156" class="tick" text-anchor="middle">"samples N"</text>
                {previous.as_ref().map(|(_, pts)| view! { <polyline class="previous" points=line(pts)/> })}
                <polyline class="current" points=line(&points)/>
                {dots}
            </svg>
            <figcaption>
                <ul class="legend">
                    {caption.map(|c| view! { <li class="current">{c}</li> })}
                    {prev_caption.map(|c| view! { <li class="previous">{c}</li> })}
                    <li class="dots">"dots: the vote of the first N samples (top = right, bottom = wrong)"</li>
                </ul>
            </figcaption>
        </figure>
    }
}
