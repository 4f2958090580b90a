//! `/sudoku`: the share of the first n samples that are right (line) and whether their vote is
//! right (dots), for n = 1..N; the previous run of the same puzzle dashed for comparison.

use engine::tasks::sudoku::WidthPoint;
use leptos::prelude::*;

use super::export::csv;
use super::frame::plot_frame;

pub fn width_plot(points: Vec<WidthPoint>, previous: Option<(String, Vec<WidthPoint>)>, label: String) -> impl IntoView + use<> {
    let x_max = points.len().max(previous.as_ref().map_or(0, |p| p.1.len())).max(1);
    let x = move |n: usize| 30.0 + 260.0 * n as f64 / x_max as f64;
    let y = |share: f64| 130.0 - 120.0 * share;
    let line = |pts: &[WidthPoint]| {
        pts.iter().map(|p| format!("{:.1},{:.1}", x(p.n), y(p.right as f64 / p.n as f64))).collect::<Vec<_>>().join(" ")
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
    let prev_caption = previous.as_ref().and_then(|(l, pts)| pts.last().map(|p| format!("{l}: {} of {} right", p.right, p.n)));
    let body = (
        previous.as_ref().map(|(_, pts)| view! { <polyline class="previous" points=line(pts)/> }),
        view! { <polyline class="current" points=line(&points)/> },
        dots,
    );
    let legend = view! {
        {caption.map(|c| view! { <li class="current">{c}</li> })}
        {prev_caption.map(|c| view! { <li class="previous">{c}</li> })}
        <li class="dots">"dots: the vote of the first N samples (top = right, bottom = wrong)"</li>
    };
    let series = std::iter::once((label.as_str(), &points[..])).chain(previous.as_ref().map(|(l, p)| (l.as_str(), &p[..])));
    let rows: Vec<Vec<String>> = series
        .flat_map(|(l, pts)| pts.iter().map(move |p| vec![l.to_string(), p.n.to_string(), p.right.to_string(), p.vote_right.to_string()]))
        .collect();
    let data = csv(&["run", "samples", "right", "vote_right"], rows);
    plot_frame("Accuracy against the number of samples for this puzzle", "samples N", x_max, body, legend, ("accuracy-by-samples", data))
}
