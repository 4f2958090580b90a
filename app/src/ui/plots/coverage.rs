//! `/nqueens`: coverage (found / all completions) against samples drawn, this run and the last.

use leptos::prelude::*;

use super::export::csv;
use super::frame::plot_frame;

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

/// Coverage against samples drawn, for this run and the previous one.
pub fn coverage_plot(current: Option<Curve>, previous: Option<Curve>) -> impl IntoView + use<> {
    let x_max = [&current, &previous].iter().filter_map(|c| c.as_ref().map(|c| c.found.len())).max().unwrap_or(1).max(1);
    let line = |c: &Option<Curve>, class: &'static str| c.as_ref().map(|c| view! { <polyline class=class points=c.points(x_max)/> });
    let legend = |c: &Option<Curve>, class: &'static str| {
        c.as_ref().map(|c| {
            let last = c.found.last().copied().unwrap_or(0);
            let pct = 100.0 * last as f64 / c.total.max(1) as f64;
            view! { <li class=class>{format!("{}: {last} of {} after {} samples ({pct:.0}%)", c.label, c.total, c.found.len())}</li> }
        })
    };
    let body = (line(&previous, "previous"), line(&current, "current"));
    let legend = (legend(&current, "current"), legend(&previous, "previous"));
    let rows = [&current, &previous].into_iter().flatten().flat_map(|c| {
        c.found.iter().enumerate().map(|(i, f)| vec![c.label.clone(), (i + 1).to_string(), f.to_string(), c.total.to_string()])
    });
    let data = csv(&["run", "samples_drawn", "found", "total"], rows.collect::<Vec<_>>());
    plot_frame("Coverage against samples drawn", "samples drawn", x_max, body, legend, ("coverage", data))
}
