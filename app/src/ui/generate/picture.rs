//! A digit sample as a small SVG: each pixel shaded by the model's P(white) after the step, in
//! four levels (one path per level, so a gallery of 64 digits stays 256 elements).

use engine::tasks::digits::SIDE;
use leptos::prelude::*;

/// Lower bounds of the four shades, and their opacities.
const LEVELS: [(f32, f32); 4] = [(0.2, 0.25), (0.4, 0.5), (0.6, 0.8), (0.8, 1.0)];

/// `probs`: P(white) per pixel, row-major (missing pixels read as 0).
pub fn digit_picture(probs: &[f32]) -> impl IntoView + use<> {
    let paths = LEVELS
        .iter()
        .enumerate()
        .map(|(i, &(low, opacity))| {
            let high = LEVELS.get(i + 1).map_or(f32::INFINITY, |l| l.0);
            let d: String = (0..SIDE * SIDE)
                .filter(|&p| probs.get(p).is_some_and(|&x| x >= low && x < high))
                .map(|p| format!("M{} {}h1v1h-1z", p % SIDE, p / SIDE))
                .collect();
            view! { <path d=d class="ink" fill-opacity=opacity.to_string()/> }
        })
        .collect_view();
    view! {
        <svg class="mini digit" viewBox=format!("0 0 {SIDE} {SIDE}") aria-hidden="true">
            <rect width=SIDE height=SIDE class="paper"/>
            {paths}
        </svg>
    }
}
