//! T, C and R side by side: the tokens each wrote after the prefix, each marked right or wrong
//! against the sequence's own continuation, and the grammar's verdict on the completion.

use engine::studies::grammar::explore::{GrammarView, Written};
use leptos::prelude::*;

fn model_name(m: &str) -> &'static str {
    match m {
        "t" => "T: Transformer (writes tokens)",
        "c" => "C: COCONUT (4 latent thoughts, then tokens)",
        "r" => "R: JEPA-Reasoner + Dual-Talker (latents, then a Talker)",
        _ => "R (Mono-Talker)",
    }
}

#[component]
fn AnswerRow(w: Written, truth: Vec<String>) -> impl IntoView {
    let skipped =
        (0..w.offset).map(|_| view! { <span class="tok thought" title="a latent thought, no token">"·"</span> }).collect::<Vec<_>>();
    let tokens = w
        .tokens
        .iter()
        .zip(&w.right)
        .map(|(t, &ok)| view! { <span class="tok" class:ok=ok class:bad=!ok>{t.clone()}</span> })
        .collect::<Vec<_>>();
    let right = w.right.iter().filter(|&&r| r).count();
    let verdict = match w.valid {
        Some(true) => "valid: the grammar accepts the prefix followed by these tokens".to_string(),
        Some(false) => "invalid: no sequence of the grammar begins this way".to_string(),
        None => "C's thoughts are not tokens, so the grammar cannot judge its completion".to_string(),
    };
    let truth = truth[w.offset..w.offset + w.tokens.len()].join(" ");
    view! {
        <li class="answer" data-model=w.model.clone() data-right=right.to_string() data-valid=w.valid.map_or("none".to_string(), |v| v.to_string())>
            <span class="who">{model_name(&w.model)}</span>
            <span class="tokens">{skipped}{tokens}</span>
            <span class="score">{format!("{right} of {} right (the sequence goes on {truth})", w.tokens.len())}</span>
            <span class="verdict" class:ok=w.valid == Some(true) class:bad=w.valid == Some(false)>{verdict}</span>
        </li>
    }
}

#[component]
pub(super) fn AnswersPanel(
    view: GrammarView,
    /// The worker's time; none for the run recorded ahead.
    millis: Option<f64>,
) -> impl IntoView {
    let truth: Vec<String> = view.sequence[view.cut..view.cut + 8].iter().map(|s| (s + 1).to_string()).collect();
    let rows = view.answers.iter().cloned().map(|w| view! { <AnswerRow w truth=truth.clone()/> }).collect::<Vec<_>>();
    view! {
        <div class="panel answers">
            <h2>"The completions"</h2>
            <ul class="answers" aria-label="Completions">{rows}</ul>
            <p class="hint">{match millis {
                Some(ms) => format!("The three completions took {ms:.0} ms on the CPU; the curve beside them follows a corruption level at a time."),
                None => "These completions and the curve beside them were recorded ahead from the shipped weights; the live models redo them once loaded.".to_string(),
            }}</p>
        </div>
    }
}
