//! One model's two views on a plane: each validation pair's description embedding (circle) and
//! regex embedding (square), joined by a line, on the first two principal axes of both views
//! together. Aligned views draw short lines.

use engine::studies::regex::live::Snapshot;
use leptos::prelude::*;

use crate::ui::plots::export::{PlotExports, csv};

#[component]
pub(super) fn Scatter(title: &'static str, model: &'static str, #[prop(into)] snapshot: Signal<Option<Snapshot>>) -> impl IntoView {
    let body = move || {
        snapshot.with(|s| {
            let Some(s) = s else { return view! { <p class="hint">"Waiting for the first snapshot…"</p> }.into_any() };
            let all = s.text.iter().chain(&s.code);
            let span = all.clone().fold(1e-6f32, |m, p| m.max(p.0.abs()).max(p.1.abs()));
            let at = |p: (f32, f32)| (110.0 + 100.0 * p.0 / span, 110.0 - 100.0 * p.1 / span);
            let marks = s
                .text
                .iter()
                .zip(&s.code)
                .map(|(&t, &c)| {
                    let ((tx, ty), (cx, cy)) = (at(t), at(c));
                    view! {
                        <line x1=tx y1=ty x2=cx y2=cy class="pair"/>
                        <circle cx=tx cy=ty r="3" class="text-view"/>
                        <rect x=cx - 3.0 y=cy - 3.0 width="6" height="6" class="code-view"/>
                    }
                })
                .collect::<Vec<_>>();
            view! {
                <svg viewBox="0 0 220 220" role="img" aria-label=format!("{title}: description and regex embeddings")>{marks}</svg>
                <p class="readout" data-cos=format!("{:.3}", s.cosine) data-spread=format!("{:.4}", s.spread) data-step=s.step.to_string() data-semantic=format!("{:.1}", s.semantic)>
                    {format!("step {}: cos(description, regex) = {:.2}; {:.0}% of held-out regexes right", s.step, s.cosine, s.semantic)}
                    <br/>
                    {format!("spread of the description embeddings: {:.4} (0 = all one vector)", s.spread)}
                </p>
            }
            .into_any()
        })
    };
    view! {
        <figure class="plot scatter" data-model=model>
            <h3>{title}</h3>
            {body}
            <figcaption>
                "○ description, □ its regex, a line between the two views of one pair."
                <PlotExports
                    name=format!("{model}-embeddings")
                    data=Signal::derive(move || {
                        snapshot.with(|s| {
                            let rows = s.iter().flat_map(|s| {
                                s.text.iter().zip(&s.code).enumerate().map(|(i, (t, c))| {
                                    vec![i.to_string(), t.0.to_string(), t.1.to_string(), c.0.to_string(), c.1.to_string()]
                                })
                            });
                            csv(&["pair", "text_pc1", "text_pc2", "code_pc1", "code_pc2"], rows.collect::<Vec<_>>())
                        })
                    })
                />
            </figcaption>
        </figure>
    }
}
