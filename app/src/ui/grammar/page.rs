//! The page's component: its state, the panels around it, and its URL read once.

use engine::studies::grammar::explore::DRAWS;
use engine::studies::grammar::sweep::CORRUPTION;
use leptos::prelude::*;

use super::answers_panel::AnswersPanel;
use super::curve_plot::CurvePlot;
use super::sequence_view::SequenceView;
use super::state::GrammarState;

use super::url::{CORRUPT, GrammarSettings, NOISE, SEQUENCE, WEIGHTS};
use crate::ui::browser::{read_url, sync_url};
use crate::ui::controls::slider::{SeedInput, Slider};
use crate::ui::recorded::RECORDED_NOTE;
use crate::ui::status::{BackendStatus, Load, UrlNotes, load_view};
use crate::url_state::fields::Decimal;

const BACKEND: (&str, &str) = (
    "CPU",
    "These small models (T, C, R and two Talkers; their size is read from the weights, below) always run on the CPU backend in a Web Worker.",
);

/// A slider over a [`Decimal`] shown in percent: "{name} = 20% of the prefix".
fn percent_slider(
    name: &'static str,
    unit: &'static str,
    d: Decimal,
    get: impl Fn() -> f64 + Copy + Send + Sync + 'static,
    set: impl Fn(f64) + 'static,
) -> impl IntoView {
    view! {
        <Slider
            label=move || format!("{name} = {:.0}{unit}", 100.0 * get())
            aria_label=name
            min="0"
            max=d.max.to_string()
            step="0.01"
            value=move || get().to_string()
            on_input=move |v| { if let Ok(x) = v.parse::<f64>() { set(d.round(x)) } }
        />
    }
}

#[component]
pub fn GrammarPage() -> impl IntoView {
    let (initial, notes) = read_url::<GrammarSettings>();
    let start = initial.run;
    let page = GrammarState::new(initial);
    let GrammarState { settings, worker, run, .. } = page;
    let notes = RwSignal::new(notes);
    sync_url(settings);
    if start {
        page.complete();
    } else {
        page.instant_start();
    }
    let ready = move || matches!(worker.load_of(WEIGHTS), Some(Load::Ready(_)));
    let edit = move |f: &dyn Fn(&mut GrammarSettings)| {
        settings.update(|s| {
            f(s);
            s.run = false;
        })
    };
    let status = move || {
        let r = run.get();
        match r {
            _ if page.pending() => "Completing with T, C and R…".to_string(),
            None => "Press Complete.".to_string(),
            Some(r) if r.error.is_some() => format!("The models could not run: {}", r.error.unwrap_or_default()),
            Some(r) if r.recorded => RECORDED_NOTE.to_string(),
            Some(r) => {
                let done = r.result.as_ref().map_or(0, |(v, _)| v.curve.len());
                if done < CORRUPTION.len() {
                    format!(
                        "Drawing this sequence's curve: {done} of {} corruption levels ({DRAWS} random corruptions each)…",
                        CORRUPTION.len()
                    )
                } else {
                    String::new()
                }
            }
        }
    };
    // The view and the worker's time (none for the recorded run: it was not computed here).
    let result = move || run.with(|r| r.as_ref().and_then(|r| r.result.clone().map(|(v, ms)| (v, (!r.recorded).then_some(ms)))));
    let load = move || load_view(worker.load_of(WEIGHTS), "grammar models", "Reload the page to try again.");

    view! {
        <section class="grammar-page">
            <h1>"Grammar: which model recovers from a corrupted sequence?"</h1>
            <BackendStatus backend=Some((BACKEND.0.to_string(), BACKEND.1.to_string()))/>
            <UrlNotes notes/>
            {load}
            <div class="panel controls">
                <h2>"The test"</h2>
                <label>
                    "Held-out sequence #"
                    <input type="number" min="0" max=SEQUENCE.max.to_string() class="seed" aria-label="Sequence"
                        prop:value=move || settings.with(|s| s.sequence.to_string())
                        on:change=move |ev| { if let Ok(x) = event_target_value(&ev).parse::<usize>() { edit(&|s| s.sequence = x.min(SEQUENCE.max)) } }/>
                </label>
                <button on:click=move |_| edit(&|s| s.sequence = (s.sequence + 1) % (SEQUENCE.max + 1))>"Another sequence"</button>
                {percent_slider("Corruption", "% of the prefix", CORRUPT, move || settings.with(|s| s.corrupt), move |x| edit(&|s| s.corrupt = x))}
                {percent_slider("Latent noise", "% of max |h|", NOISE, move || settings.with(|s| s.noise), move |x| edit(&|s| s.noise = x))}
                <p class="hint">"Corruption replaces that share of the prefix's terminals by other terminals before any model reads it. Latent noise is added to every latent C and R generate (T has none)."</p>
                <SeedInput label="Seed" value=move || settings.with(|s| s.seed) on_change=move |x| edit(&|s| s.seed = x)/>
                <div class="row">
                    <button class="primary" on:click=move |_| page.complete() disabled=move || !ready() || page.pending()>"Complete"</button>
                </div>
                <p class="run-status" aria-live="polite">{status}</p>
            </div>
            {move || result().map(|(v, ms)| view! {
                <SequenceView view=v.clone()/>
                <div class="layout">
                    <AnswersPanel view=v.clone() millis=ms/>
                    <div class="panel"><h2>"This sequence under corruption"</h2><CurvePlot view=v/></div>
                </div>
            })}
            <div class="explain panel">
                <h2>"What you are looking at"</h2>
                <p>"The sequences come from a random context-free grammar built as in the JEPA-Reasoner paper (three terminals, rules of three or four symbols; ours has four levels, the paper's five, so sequences are 81-256 terminals long). All three models share one pretraining on these sequences. T writes the next tokens one by one, each conditioned on the ones it wrote; C first thinks four continuous latents and then writes; R, the JEPA-Reasoner, only writes latents, and a separate Talker turns them into tokens."</p>
                <p>"The paper's claim: because R's reasoning never reads the tokens it wrote, a wrong token cannot derail it, so R should lose less than T as the input is corrupted, and less than C as its latents are perturbed. The grammar is ambiguous, so a completion can differ from the sequence's own and still be valid: both verdicts are shown."</p>
            </div>
        </section>
    }
}
