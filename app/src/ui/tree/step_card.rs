//! The card of one latent: what the Talker read from it, its cosines to the closest token
//! embeddings, and how much of the right node and of its sibling it holds.

use engine::tasks::tree::reasoner::StepView;
use leptos::prelude::*;

/// The card of one latent: the Talker's token, the top cosines and the sibling plane.
pub(super) fn step_view(i: usize, s: &StepView) -> AnyView {
    let ok = s.token == s.expected;
    let head = format!("Latent {i}: the Talker read {} (the route needs {}) — {}", s.token, s.expected, if ok { "right" } else { "wrong" });
    let top = s
        .top
        .iter()
        .map(|(tok, c)| {
            let w = format!("{:.0}%", 100.0 * c.max(0.0));
            view! {
                <li>
                    <span class="tok">{tok.clone()}</span>
                    <span class="bar"><span style:width=w></span></span>
                    <span class="val">{format!("{c:.3}")}</span>
                </li>
            }
        })
        .collect_view();
    let sibling = s.sibling.clone().map(|(c, sib, a, b, rank, pairs)| {
        let major = a > b;
        let share = 100.0 * rank as f64 / pairs as f64;
        let text = format!(
            "On the plane of {c} (the right node) and its sibling {sib}: α = {a:.2} for {c}, β = {b:.2} for {sib}. {}",
            if major { format!("{c} is the major contributor.") } else { format!("{sib}, the wrong sibling, dominates.") }
        );
        let rank_text =
            format!("Of all {pairs} pairs of token embeddings, this plane is number {rank} closest to the latent (top {share:.1}%).");
        let total = (a.abs() + b.abs()).max(1e-9);
        view! {
            <div class="sibling" data-major=major.to_string()>
                <p>{text}</p>
                <div class="ab" aria-hidden="true">
                    <span class="a" style:width=format!("{:.0}%", 100.0 * a.abs() / total)>{c.clone()}</span>
                    <span class="b" style:width=format!("{:.0}%", 100.0 * b.abs() / total)>{sib.clone()}</span>
                </div>
                <p>{rank_text}</p>
            </div>
        }
    });
    let no_sibling = s.sibling.is_none().then(|| {
        let why = if s.expected.starts_with('[') || s.expected == "-" { "the end of the route" } else { "the root, which has no sibling" };
        view! { <p class="hint">{format!("No sibling plane here: this latent stands for {why}.")}</p> }
    });
    view! {
        <div class="step-card" data-token=s.token.clone() data-expected=s.expected.clone()>
            <h3 class:ok=ok class:bad=!ok>{head}</h3>
            <p class="hint">"Cosine of the latent with the five closest token embeddings:"</p>
            <ol class="cosines">{top}</ol>
            {sibling}
            {no_sibling}
        </div>
    }
    .into_any()
}
