//! The latents among the node embeddings: a PCA scatter of the tree's node embeddings and the
//! latents in order, with the same numbers in a table.

use engine::tasks::tree::reasoner::Explanation;
use leptos::prelude::*;

use crate::ui::plots::export::{PlotExports, csv};

/// The PCA scatter: tree nodes' embeddings as letters, latents as numbered dots joined in order.
pub(super) fn pca_view(e: &Explanation, current: usize) -> AnyView {
    let all: Vec<(f64, f64)> = e.vocab_points.iter().map(|p| (p.1, p.2)).chain(e.steps.iter().map(|s| s.pca)).collect();
    let (x0, x1) = all.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = all.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let sx = move |v: f64| 20.0 + 260.0 * (v - x0) / (x1 - x0).max(1e-9);
    let sy = move |v: f64| 200.0 - 180.0 * (v - y0) / (y1 - y0).max(1e-9);
    let vocab = e
        .vocab_points
        .iter()
        .map(|(l, x, y)| {
            // The letter sits beside its point, so a latent drawn on top of it leaves it readable.
            view! {
                <circle cx=sx(*x) cy=sy(*y) r="2" class="vocab-dot"/>
                <text x=sx(*x) + 5.0 y=sy(*y) - 5.0 class="vocab">{l.clone()}</text>
            }
        })
        .collect_view();
    let path = e.steps.iter().map(|s| format!("{:.1},{:.1}", sx(s.pca.0), sy(s.pca.1))).collect::<Vec<_>>().join(" ");
    let dots = e
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let class = if i + 1 == current { "latent current" } else { "latent" };
            view! {
                <g class=class>
                    <circle cx=sx(s.pca.0) cy=sy(s.pca.1) r="8"/>
                    <text x=sx(s.pca.0) y=sy(s.pca.1) dy="0.35em" text-anchor="middle">{(i + 1).to_string()}</text>
                </g>
            }
        })
        .collect_view();
    let rows = e
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let near = s.top.first().map(|t| format!("{} (cos {:.2})", t.0, t.1)).unwrap_or_default();
            view! { <tr><td>{(i + 1).to_string()}</td><td>{format!("{:.2}", s.pca.0)}</td><td>{format!("{:.2}", s.pca.1)}</td><td>{near}</td></tr> }
        })
        .collect_view();
    let caption = format!(
        "The plane of the two main directions (PCA) of the tree's node embeddings and these latents; it shows {:.0}% + {:.0}% of their spread. Letters: node embeddings; numbered dots: the latents in order.",
        100.0 * e.explained_variance[0],
        100.0 * e.explained_variance[1]
    );
    let data = csv(
        &["kind", "label", "pc1", "pc2"],
        e.vocab_points
            .iter()
            .map(|(l, x, y)| vec!["node".into(), l.clone(), x.to_string(), y.to_string()])
            .chain(
                e.steps
                    .iter()
                    .enumerate()
                    .map(|(i, s)| vec!["latent".into(), (i + 1).to_string(), s.pca.0.to_string(), s.pca.1.to_string()]),
            )
            .collect::<Vec<_>>(),
    );
    view! {
        <figure class="plot pca">
            <svg viewBox="0 0 300 220" role="img" aria-label="PCA scatter of the latents among the tree's node embeddings; the same data is in the table below">
                <polyline class="latent-path" points=path/>
                {vocab}
                {dots}
            </svg>
            <figcaption>{caption} <PlotExports name="latents-pca" data=Signal::stored(data)/></figcaption>
            <table class="pca-table">
                <caption>"The latents in the PCA plane"</caption>
                <thead><tr><th>"latent"</th><th>"PC 1"</th><th>"PC 2"</th><th>"closest token"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </figure>
    }
    .into_any()
}
