//! The latent map (the GRAM paper, appendix F.7): each trajectory's high-level state h after every
//! supervision step, projected on the plane of its two main directions (a PCA fitted on this
//! run's states), drawn as one path per sample and coloured by the answer the path is at on the
//! step shown. GRAM's paths fan out to different answers; TRM's N paths are one line. The worker
//! sends each h as a fixed random sketch (`Trajectories::with_latent_sketch`), which keeps the
//! distances between trajectories.

use engine::reasoner::analysis::Pca;
use leptos::prelude::*;

use super::session::Session;
use crate::ui::plots::export::{PlotExports, csv};

/// Colours for the first distinct answers on screen (then grey).
const PALETTE: [&str; 8] = ["#6d28d9", "#15803d", "#b45309", "#1d4ed8", "#be185d", "#0f766e", "#92400e", "#4338ca"];

#[component]
pub fn LatentMap<P>(session: Session<P>) -> impl IntoView
where
    P: Clone + Send + Sync + 'static,
{
    let reports = session.reports;
    let shown = session.playback.shown;
    let focus = session.focus;
    // PCA over every step of the run that has arrived (fitted once per new step).
    let fitted = Memo::new(move |_| {
        reports.with(|r| {
            let points: Vec<Vec<f32>> = r.iter().flat_map(|s| s.latents.iter().cloned()).filter(|p| !p.is_empty()).collect();
            (points.len() >= 3).then(|| {
                let pca = Pca::fit(&points);
                let paths: Vec<Vec<(f64, f64)>> =
                    (0..r.first().map_or(0, |s| s.latents.len())).map(|i| r.iter().map(|s| pca.project(&s.latents[i])).collect()).collect();
                (paths, pca.explained)
            })
        })
    });
    let map = move || {
        let (paths, explained) = fitted.get()?;
        let k = shown.get().max(1);
        let (x0, x1, y0, y1) = paths
            .iter()
            .flatten()
            .fold((f64::MAX, f64::MIN, f64::MAX, f64::MIN), |(a, b, c, d), p| (a.min(p.0), b.max(p.0), c.min(p.1), d.max(p.1)));
        let sx = move |v: f64| 15.0 + 270.0 * (v - x0) / (x1 - x0).max(1e-9);
        let sy = move |v: f64| 185.0 - 170.0 * (v - y0) / (y1 - y0).max(1e-9);
        // The answer each path is at on the step shown picks its colour.
        let answers: Vec<String> = reports.with(|r| r.get(k - 1).map(|s| s.boards.clone()).unwrap_or_default());
        let mut distinct: Vec<&String> = Vec::new();
        for a in &answers {
            if !distinct.contains(&a) {
                distinct.push(a);
            }
        }
        let colour = |i: usize| {
            answers.get(i).and_then(|a| distinct.iter().position(|d| *d == a)).and_then(|c| PALETTE.get(c)).copied().unwrap_or("#9ca3af")
        };
        let lines = paths
            .iter()
            .enumerate()
            .map(|(i, path)| {
                let upto = &path[..k.min(path.len())];
                let points = upto.iter().map(|p| format!("{:.1},{:.1}", sx(p.0), sy(p.1))).collect::<Vec<_>>().join(" ");
                let end = upto.last().copied().unwrap_or((0.0, 0.0));
                let focused = focus.get() == i;
                view! {
                    <g class="path" class:focused=focused data-sample=i.to_string()>
                        <polyline points=points stroke=colour(i) fill="none"/>
                        <circle cx=sx(end.0) cy=sy(end.1) r=if focused { "5" } else { "3" } fill=colour(i)><title>{format!("sample {}", i + 1)}</title></circle>
                    </g>
                }
            })
            .collect::<Vec<_>>();
        let rows: Vec<Vec<String>> = paths
            .iter()
            .enumerate()
            .flat_map(|(i, path)| {
                path.iter()
                    .enumerate()
                    .map(move |(s, p)| vec![(i + 1).to_string(), (s + 1).to_string(), format!("{:.4}", p.0), format!("{:.4}", p.1)])
            })
            .collect();
        let data = csv(&["sample", "step", "pc1", "pc2"], rows);
        let caption = format!(
            "Each line is one sample's high-level state h over steps 1-{k}, on the plane of this run's two main directions ({:.0}% + {:.0}% of the spread); the dot is where it is now. Same colour = same answer at this step ({} distinct).",
            100.0 * explained[0],
            100.0 * explained[1],
            distinct.len()
        );
        Some(view! {
            <figure class="plot latent-map" data-distinct=distinct.len().to_string()>
                <svg viewBox="0 0 300 200" role="img" aria-label="Latent map: each sample's state over the steps, projected to two dimensions">{lines}</svg>
                <figcaption>{caption} <PlotExports name="latent-map" data=Signal::stored(data)/></figcaption>
            </figure>
        })
    };
    view! {
        <div class="panel">
            <h2>"The latent map"</h2>
            {move || map().map(IntoAny::into_any).unwrap_or_else(|| view! { <p class="hint">"The map draws once a run has a few steps (a recorded run has none: it appears with the live run)."</p> }.into_any())}
        </div>
    }
}
