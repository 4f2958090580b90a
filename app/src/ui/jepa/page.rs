//! The page's component: its state, the panels around it, and its URL read once.

use leptos::prelude::*;

use super::curves::{AccuracyPlot, LossPlot};
use super::scatter::Scatter;
use super::state::{JepaState, Phase};

use super::url::{JepaSettings, K, LAMBDA, MAX_LIVE_STEPS};
use crate::ui::browser::{read_url, sync_url};
use crate::ui::controls::slider::{SeedInput, Slider};
use crate::ui::status::{BackendStatus, UrlNotes};

const BACKEND: (&str, &str) = (
    "CPU",
    "Both models train on the CPU backend in a Web Worker (a training step reads its loss back at once, which WebGPU in a browser cannot do).",
);

#[component]
pub fn JepaPage() -> impl IntoView {
    let (initial, notes) = read_url::<JepaSettings>();
    let autostart = initial.run;
    let page = JepaState::new(initial);
    let JepaState { settings, phase, step, .. } = page;
    let notes = RwSignal::new(notes);
    sync_url(settings);
    super::recorded::instant_start(page);
    if autostart {
        page.start();
    }
    let tune = move |f: &dyn Fn(&mut JepaSettings)| {
        settings.update(|s| f(s));
        page.retune();
    };
    let status = move || {
        let ms = page.millis_per_step.get();
        match (phase.get(), page.error.get()) {
            (_, Some(e)) => format!("Training stopped: {e}"),
            (Phase::Idle, _) if page.showing_recorded.get() => {
                format!("Recorded session (computed ahead, same settings, {} steps): press Train to train live.", step.get())
            }
            (Phase::Idle, _) => "Press Train: both models start from the same random weights.".into(),
            (Phase::Training, _) if step.get() == 0 => "Starting…".into(),
            (Phase::Training, _) => format!(
                "Training: step {}, {:.0} ms per step of both models (pauses by itself after {MAX_LIVE_STEPS} more).",
                step.get(),
                ms
            ),
            (Phase::Paused, _) => format!("Paused at step {}.", step.get()),
        }
    };
    view! {
        <section class="jepa-page">
            <h1>"LLM-JEPA, trained live: does a second view help a language model?"</h1>
            <BackendStatus backend=Some((BACKEND.0.to_string(), BACKEND.1.to_string()))/>
            <UrlNotes notes/>
            <div class="panel controls">
                <h2>"Training"</h2>
                <Slider
                    label=Signal::derive(move || format!("JEPA weight λ = {:.1}", settings.with(|s| s.lambda)))
                    aria_label="JEPA weight lambda" min="0" max=LAMBDA.max.to_string() step="0.1"
                    value=Signal::derive(move || settings.with(|s| s.lambda.to_string()))
                    on_input=move |v| { if let Ok(x) = v.parse::<f64>() { tune(&|s| s.lambda = LAMBDA.round(x)) } }/>
                <Slider
                    label=Signal::derive(move || format!("[PRED] tokens k = {}", settings.with(|s| s.k)))
                    aria_label="PRED tokens k" min="0" max=K.max.to_string()
                    value=Signal::derive(move || settings.with(|s| s.k.to_string()))
                    on_input=move |v| { if let Ok(x) = v.parse::<usize>() { tune(&|s| s.k = x.min(K.max)) } }/>
                <label class="check">
                    <input type="checkbox" aria-label="Start from the trained weights" prop:checked=move || settings.with(|s| s.trained)
                        on:change=move |ev| settings.update(|s| { s.trained = event_target_checked(&ev); s.run = false })/>
                    " start from the end of training (the shipped weights)"
                </label>
                <SeedInput label="Seed" value=Signal::derive(move || settings.with(|s| s.seed)) on_change=move |x| settings.update(|s| { s.seed = x; s.run = false })/>
                <div class="row">
                    <button class="primary" on:click=move |_| page.start()>{move || if phase.get() == Phase::Idle { "Train" } else { "Restart" }}</button>
                    <button on:click=move |_| page.pause() disabled=move || phase.get() != Phase::Training>"Pause"</button>
                    <button on:click=move |_| page.resume() disabled=move || phase.get() != Phase::Paused>"Resume"</button>
                </div>
                <p class="run-status" aria-live="polite">{status}</p>
            </div>
            <div class="layout">
                <div class="panel"><h2>"Loss"</h2><LossPlot curve=page.curve/><ul class="legend"><li class="series-a">"LM only"</li><li class="series-b">"LM + LLM-JEPA"</li></ul></div>
                <div class="panel"><h2>"Held-out accuracy"</h2><AccuracyPlot points=page.accuracy/></div>
            </div>
            <div class="layout">
                <div class="panel"><Scatter title="LM only" model="lm" snapshot=page.lm/></div>
                <div class="panel"><Scatter title="LM + LLM-JEPA" model="llm-jepa" snapshot=page.jepa/></div>
            </div>
            <div class="explain panel">
                <h2>"What you are looking at"</h2>
                <p>"Each example has two views of one thing: an English description (\"lines with the word dog followed by a digit\") and the regular expression it means (.*dog.*[0-9].*). Both models are the same small transformer and read the same batches; both learn to write the regex after the description. The second also gets LLM-JEPA's extra loss: its embedding of the description (the state after k [PRED] tokens) should point the same way as its embedding of the regex, computed in the same forward pass with a mask that keeps the two views from seeing each other."</p>
                <p>"Watch the two planes: each circle is a description, each square its regex, joined by a line. With the JEPA term the lines shrink as the views align; without it they stay apart. Whether that alignment also makes the model write better regexes is the paper's claim: the accuracy curve shows it live on held-out descriptions, and the table in docs/results/lm-jepa.md measures it over several seeds, with all the training data and with a tenth of it."</p>
                <p>"A catch worth showing a class: a cosine loss can also be satisfied by collapse, every embedding pointing the same way whatever the input. Each plane is scaled to fit, so it cannot show that; the spread under it can. Here the JEPA model's spread falls towards 0 within a few dozen steps: its two views agree because both became almost one vector (the positions it compares carry no other loss), not because they came to share the meaning of each example."</p>
            </div>
        </section>
    }
}
