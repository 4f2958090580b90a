//! `/train`'s curves, GRAM and TRM on one plot each: the training loss, and the held-out
//! accuracy and coverage (`engine::training::held_out`), over training steps.

use leptos::prelude::*;

use super::state::Side;
use crate::protocol::CurvePoint;
use crate::ui::plots::export::{PlotExports, csv};

const W: f64 = 300.0;
const H: f64 = 130.0;

/// What one plot draws of a curve point (`None`: the point has no such figure).
#[derive(Clone, Copy)]
pub(super) enum Figure {
    Loss,
    Accuracy,
    Coverage,
}

impl Figure {
    fn of(self, p: &CurvePoint) -> Option<f64> {
        match self {
            Figure::Loss => Some(p.loss as f64),
            Figure::Accuracy => p.held_out.map(|h| h.0),
            Figure::Coverage => p.held_out.map(|h| h.1),
        }
    }

    /// The top of the y axis and its label.
    fn top(self) -> (f64, &'static str) {
        match self {
            Figure::Loss => (3.0, "3"),
            _ => (100.0, "100%"),
        }
    }

    fn class(self) -> &'static str {
        match self {
            Figure::Loss => "loss-plot",
            Figure::Accuracy => "accuracy-plot",
            Figure::Coverage => "coverage-plot",
        }
    }

    fn csv_name(self) -> &'static str {
        match self {
            Figure::Loss => "train-loss",
            Figure::Accuracy => "train-heldout-accuracy",
            Figure::Coverage => "train-heldout-coverage",
        }
    }
}

/// One figure of both models over steps, with its caption and exports.
#[component]
pub(super) fn TwoCurves(figure: Figure, gram: Side, trm: Side, label: &'static str, caption: &'static str) -> impl IntoView {
    let series = move |side: Side| side.curve.with(|c| c.iter().filter_map(|p| figure.of(p).map(|v| (p.step, v))).collect::<Vec<_>>());
    let (top, top_label) = figure.top();
    let lines = move || {
        let (g, t) = (series(gram), series(trm));
        let last = g.iter().chain(&t).map(|p| p.0).max().unwrap_or(1).max(1);
        let path = |points: &[(usize, f64)]| {
            points
                .iter()
                .map(|&(s, v)| {
                    format!("{:.1},{:.1}", 30.0 + (W - 40.0) * s as f64 / last as f64, H - 10.0 - (H - 20.0) * v.clamp(0.0, top) / top)
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        // The held-out measures are sparse: each is a dot too, so the first shows alone.
        let dots = move |points: &[(usize, f64)], class: &'static str| {
            if matches!(figure, Figure::Loss) {
                return Vec::new();
            }
            points
                .iter()
                .map(|&(s, v)| {
                    let (x, y) = (30.0 + (W - 40.0) * s as f64 / last as f64, H - 10.0 - (H - 20.0) * v.clamp(0.0, top) / top);
                    view! { <circle cx=format!("{x:.1}") cy=format!("{y:.1}") r="2.5" class=class/> }
                })
                .collect::<Vec<_>>()
        };
        view! {
            <polyline points=path(&g) class="series-a" data-model="gram"/>
            <polyline points=path(&t) class="series-b" data-model="trm"/>
            {dots(&g, "series-a")}
            {dots(&t, "series-b")}
            <text x=W - 10.0 y="142" class="tick" text-anchor="end">{format!("step {last}")}</text>
        }
    };
    let data = Signal::derive(move || {
        let rows = [("gram", series(gram)), ("trm", series(trm))]
            .into_iter()
            .flat_map(|(model, points)| points.into_iter().map(move |(s, v)| vec![model.to_string(), s.to_string(), format!("{v:.4}")]))
            .collect::<Vec<_>>();
        csv(&["model", "step", "value"], rows)
    });
    view! {
        <figure class=format!("plot {}", figure.class())>
            <svg viewBox="0 0 300 150" role="img" aria-label=label>
                <line x1="30" y1=H - 10.0 x2=W - 10.0 y2=H - 10.0 class="axis"/>
                <line x1="30" y1="10" x2="30" y2=H - 10.0 class="axis"/>
                <text x="26" y="14" class="tick" text-anchor="end">{top_label}</text>
                <text x="26" y=H - 8.0 class="tick" text-anchor="end">"0"</text>
                {lines}
            </svg>
            <figcaption data-points=move || (series(gram).len() + series(trm).len()).to_string()>
                {caption}
                <PlotExports name=figure.csv_name() data/>
            </figcaption>
        </figure>
    }
}
