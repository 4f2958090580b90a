//! The held-out sequence as the grammar derives it: the root, then two levels of non-terminals
//! as bars over the terminals they produce (the parse tree the parser recovers, folded), then
//! the terminals themselves; the prefix the models read (flipped terminals red), the cut, and
//! the true continuation after it.

use engine::studies::grammar::explore::GrammarView;
use leptos::prelude::*;

/// Width of one terminal in the drawing (SVG units).
const CELL: f64 = 9.0;
const ROW: f64 = 18.0;

#[component]
pub(super) fn SequenceView(view: GrammarView) -> impl IntoView {
    let n = view.sequence.len();
    let width = n as f64 * CELL;
    let depth = view.derivation.iter().map(|s| s.depth).max().unwrap_or(0) + 1;
    let top = depth as f64 * ROW;
    let bars = view
        .derivation
        .iter()
        .map(|s| {
            let (x, w, y) = (s.start as f64 * CELL, (s.end - s.start) as f64 * CELL, s.depth as f64 * ROW);
            view! {
                <g class=format!("span depth-{}", s.depth)>
                    <rect x=x y=y width=w height=ROW - 3.0 rx="2"/>
                    <text x=x + w / 2.0 y=y + ROW - 7.0 text-anchor="middle">{s.name.clone()}</text>
                </g>
            }
        })
        .collect::<Vec<_>>();
    let flipped = view.flipped.clone();
    let cells = (0..n)
        .map(|i| {
            let shown = if i < view.cut { view.seen[i] } else { view.sequence[i] };
            let class = if flipped.contains(&i) {
                "cell flipped"
            } else if i < view.cut {
                "cell prefix"
            } else if i < view.cut + 8 {
                "cell truth"
            } else {
                "cell rest"
            };
            view! {
                <g class=class>
                    <rect x=i as f64 * CELL y=top width=CELL - 0.5 height=ROW/>
                    <text x=i as f64 * CELL + CELL / 2.0 y=top + ROW - 5.0 text-anchor="middle">{(shown + 1).to_string()}</text>
                </g>
            }
        })
        .collect::<Vec<_>>();
    let cut_x = view.cut as f64 * CELL;
    let summary = format!(
        "A held-out sequence of {n} terminals, derived from the root N0_0. The models read the first {} (the prefix{}) and complete the next ones.",
        view.cut,
        if flipped.is_empty() { String::new() } else { format!(", {} of them flipped, in red", flipped.len()) }
    );
    let clean: String = view.sequence.iter().map(|s| char::from(b'1' + *s as u8)).collect();
    let rules = view.rules.join("\n");
    view! {
        <figure class="derivation" data-sequence=clean data-cut=view.cut.to_string()>
            // Focusable, so a keyboard can scroll a long sequence sideways (axe: scrollable-region-focusable).
            <div class="scroll" tabindex="0" role="region" aria-label="The sequence (scrolls sideways)">
                <svg viewBox=format!("0 0 {width} {}", top + ROW + 4.0) width=width role="img" aria-label="The sequence and its derivation">
                    {bars}
                    {cells}
                    <line x1=cut_x y1="0" x2=cut_x y2=top + ROW + 4.0 class="cut"/>
                </svg>
            </div>
            <figcaption>{summary}" Bars: the grammar's non-terminals down to two levels below the root, each over the terminals it produces; grey after the cut: the sequence's own continuation."</figcaption>
            <details>
                <summary>{format!("The grammar's {} rules", view.rules.len())}</summary>
                <pre class="rules">{rules}</pre>
            </details>
        </figure>
    }
}
