//! The live curves: each model's SFT cross-entropy over steps (log scale), and the accuracy of
//! both on validation descriptions at each snapshot.

use leptos::prelude::*;

use crate::ui::plots::export::{PlotExports, csv};

use super::state::CurvePoint;

const W: f64 = 300.0;
const H: f64 = 130.0;

/// The plot's two axes and the labels of the top and bottom of its scale.
fn axes(top: &'static str, bottom: &'static str) -> impl IntoView {
    view! {
        <line x1="30" y1=H - 10.0 x2=W - 10.0 y2=H - 10.0 class="axis"/>
        <line x1="30" y1="10" x2="30" y2=H - 10.0 class="axis"/>
        <text x="26" y="14" class="tick" text-anchor="end">{top}</text>
        <text x="26" y=H - 8.0 class="tick" text-anchor="end">{bottom}</text>
    }
}

fn path(points: &[(f64, f64)]) -> String {
    points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>().join(" ")
}

/// Both models' lines from each point's (LM, JEPA model) plot coordinates.
fn two_lines(points: Vec<((f64, f64), (f64, f64))>) -> impl IntoView {
    let (a, b): (Vec<_>, Vec<_>) = points.into_iter().unzip();
    view! {
        <polyline points=path(&a) class="series-a" data-model="lm"/>
        <polyline points=path(&b) class="series-b" data-model="llm-jepa"/>
    }
}

/// Cross-entropy per answer token, log scale from 0.01 to 5 nats.
#[component]
pub(super) fn LossPlot(#[prop(into)] curve: Signal<Vec<CurvePoint>>) -> impl IntoView {
    let x_of = move |step: usize, last: usize| 30.0 + (W - 40.0) * step as f64 / last.max(1) as f64;
    let y_of = |ce: f32| {
        let v = (ce.max(0.01) as f64).log10();
        10.0 + (H - 20.0) * (v - 5f64.log10()) / (0.01f64.log10() - 5f64.log10())
    };
    let lines = move || {
        curve.with(|c| {
            let last = c.last().map_or(1, |p| p.0);
            view! {
                {two_lines(c.iter().map(|q| ((x_of(q.0, last), y_of(q.1)), (x_of(q.0, last), y_of(q.2)))).collect())}
                <text x=W - 10.0 y="142" class="tick" text-anchor="end">{format!("step {last}")}</text>
            }
        })
    };
    view! {
        <figure class="plot loss-plot">
            <svg viewBox="0 0 300 150" role="img" aria-label="Training loss of both models">
                {axes("5", "0.01")}
                {lines}
            </svg>
            <figcaption data-points=move || curve.with(|c| c.len().to_string())>
                "Cross-entropy of the regex tokens (nats per token, log scale), training batches."
                <PlotExports
                    name="jepa-loss"
                    data=Signal::derive(move || {
                        curve.with(|c| csv(&["step", "lm_ce", "llm_jepa_ce"], c.iter().map(|q| vec![q.0.to_string(), q.1.to_string(), q.2.to_string()]).collect::<Vec<_>>()))
                    })
                />
            </figcaption>
        </figure>
    }
}

/// Semantic accuracy (%) at each snapshot.
#[component]
pub(super) fn AccuracyPlot(#[prop(into)] points: Signal<Vec<(usize, f64, f64)>>) -> impl IntoView {
    let dots = move || {
        points.with(|p| {
            let last = p.last().map_or(1, |q| q.0).max(1);
            let x = |s: usize| 30.0 + (W - 40.0) * s as f64 / last as f64;
            let y = |a: f64| H - 10.0 - (H - 20.0) * a / 100.0;
            two_lines(p.iter().map(|q| ((x(q.0), y(q.1)), (x(q.0), y(q.2)))).collect())
        })
    };
    view! {
        <figure class="plot accuracy-plot">
            <svg viewBox="0 0 300 150" role="img" aria-label="Accuracy of both models on held-out descriptions">
                {axes("100%", "0")}
                {dots}
            </svg>
            <figcaption data-points=move || points.with(|p| p.len().to_string())>
                "Regexes right in meaning, 48 validation descriptions (greedy decoding)."
                <PlotExports
                    name="jepa-accuracy"
                    data=Signal::derive(move || {
                        points.with(|p| csv(&["step", "lm_pct", "llm_jepa_pct"], p.iter().map(|q| vec![q.0.to_string(), format!("{:.2}", q.1), format!("{:.2}", q.2)]).collect::<Vec<_>>()))
                    })
                />
            </figcaption>
        </figure>
    }
}
