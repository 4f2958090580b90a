//! Accuracy against corruption for this one sequence: T and R, each point the mean over several
//! random corruptions of the prefix at that level (the paper's Figure 2, for one sequence).

use engine::studies::grammar::explore::GrammarView;
use leptos::prelude::*;

use crate::ui::plots::export::{PlotExports, csv};

fn colour(m: &str) -> &'static str {
    if m == "t" { "series-a" } else { "series-b" }
}

#[component]
pub(super) fn CurvePlot(view: GrammarView) -> impl IntoView {
    let x = |c: f64| 30.0 + 260.0 * c / 0.3;
    let y = |a: f64| 130.0 - 1.2 * a;
    let models: Vec<String> = view.curve.first().map(|(_, p)| p.iter().map(|q| q.0.clone()).collect()).unwrap_or_default();
    let lines = models
        .iter()
        .enumerate()
        .map(|(k, m)| {
            let pts: Vec<(f64, f64)> = view.curve.iter().map(|(c, p)| (*c, p[k].1)).collect();
            let path = pts.iter().map(|(c, a)| format!("{:.1},{:.1}", x(*c), y(*a))).collect::<Vec<_>>().join(" ");
            let dots = pts
                .iter()
                .map(|(c, a)| view! { <circle cx=x(*c) cy=y(*a) r="2.5" class=colour(m) data-model=m.clone() data-corruption=c.to_string() data-accuracy=format!("{a:.1}")/> })
                .collect::<Vec<_>>();
            view! { <g class=colour(m)><polyline points=path class="line"/>{dots}</g> }
        })
        .collect::<Vec<_>>();
    let legend = models
        .iter()
        .map(|m| {
            let name = if m == "t" { "T (Transformer)" } else { "R (Reasoner + Dual-Talker)" };
            view! { <li class=colour(m)>{name}</li> }
        })
        .collect::<Vec<_>>();
    let data = csv(
        &["corruption", "model", "accuracy_pct"],
        view.curve
            .iter()
            .flat_map(|(c, p)| p.iter().map(move |(m, a)| vec![c.to_string(), m.clone(), format!("{a:.2}")]))
            .collect::<Vec<_>>(),
    );
    view! {
        <figure class="plot">
            <svg viewBox="0 0 300 160" role="img" aria-label="Accuracy against corruption for this sequence">
                <line x1="30" y1="130" x2="290" y2="130" class="axis"/>
                <line x1="30" y1="10" x2="30" y2="130" class="axis"/>
                <text x="26" y="14" class="tick" text-anchor="end">"100%"</text>
                <text x="26" y="132" class="tick" text-anchor="end">"0"</text>
                <text x="30" y="146" class="tick" text-anchor="middle">"0%"</text>
                <text x="290" y="146" class="tick" text-anchor="end">"30%"</text>
                <text x="160" y="156" class="tick" text-anchor="middle">"share of the prefix corrupted"</text>
                {lines}
            </svg>
            <figcaption data-points=view.curve.len().to_string()>
                {format!("4-token accuracy of this sequence's completion, each point the mean of {} random corruptions.", view.draws)}
                <ul class="legend">{legend}</ul>
                <PlotExports name="accuracy-by-corruption" data=Signal::stored(data)/>
            </figcaption>
        </figure>
    }
}
