//! The frame every plot against samples has: 0 to 100% up, 1 to `x_max` across, a caption list.

use leptos::prelude::*;

use super::export::PlotExports;

/// `body` is drawn inside the axes (a 300x160 SVG whose plot area spans x 30-290 and y 130-10);
/// `legend` fills the caption's list; `export` names the plot's files and gives its data as CSV.
pub fn plot_frame(
    aria_label: &'static str,
    x_label: &'static str,
    x_max: usize,
    body: impl IntoView + 'static,
    legend: impl IntoView + 'static,
    export: (&'static str, String),
) -> impl IntoView {
    let (name, data) = export;
    view! {
        <figure class="plot">
            <svg viewBox="0 0 300 160" role="img" aria-label=aria_label>
                <line x1="30" y1="130" x2="290" y2="130" class="axis"/>
                <line x1="30" y1="10" x2="30" y2="130" class="axis"/>
                <text x="26" y="14" class="tick" text-anchor="end">"100%"</text>
                <text x="26" y="132" class="tick" text-anchor="end">"0"</text>
                <text x="290" y="146" class="tick" text-anchor="end">{x_max.to_string()}</text>
                <text x="160" y="156" class="tick" text-anchor="middle">{x_label}</text>
                {body}
            </svg>
            <figcaption>
                <ul class="legend">{legend}</ul>
                <PlotExports name data=Signal::stored(data)/>
            </figcaption>
        </figure>
    }
}
