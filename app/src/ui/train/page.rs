//! The page's component: its state, the panels around it, and its URL read once.

use leptos::prelude::*;

use super::curves::{Figure, TwoCurves};
use super::state::{Phase, Side, TrainState};
use super::url::{HELD_OUT_INPUTS, HELD_OUT_SAMPLES, MAX_STEPS, TrainSettings, WIDTHS};
use crate::ui::browser::{read_url, sync_url};
use crate::ui::coloring::trial::{TrialPanel, TrialSide};
use crate::ui::controls::slider::SeedInput;
use crate::ui::status::{BackendStatus, UrlNotes};

const BACKEND: (&str, &str) = (
    "CPU",
    "Both models train on the CPU backend, each in a Web Worker of its own. Not on WebGPU: a training step reads its loss and its answers' rewards back before the next step, and WebGPU in a browser reads back only asynchronously, between frames.",
);

/// One model's line: where its training is, its speed, and its latest held-out measure.
fn side_status(side: Side, recorded: bool) -> String {
    let name = side.name();
    let measured = side.measured().map_or(String::new(), |(s, a, c)| {
        format!("; held out (step {s}): {a:.0}% of graphs answered validly, {c:.0}% of their colourings found")
    });
    match (side.phase.get(), side.error.get()) {
        (_, Some(e)) => format!("{name} stopped: {e}"),
        (Phase::Idle, _) if recorded => format!(
            "{name}: a recorded run (computed ahead by native-trainer record with this page's training code, {} steps){measured}. Train runs it here, live.",
            side.curve.with(|c| c.last().map_or(0, |p| p.step))
        ),
        (Phase::Idle, _) => format!("{name}: not trained yet."),
        (Phase::Training, _) if side.step.get() == 0 => format!("{name}: starting…"),
        (Phase::Training, _) => {
            format!("{name}: training, step {}, {:.0} ms a step{measured}.", side.step.get(), side.millis_per_step.get())
        }
        (Phase::Paused, _) => format!("{name}: paused at step {}{measured}.", side.step.get()),
    }
}

/// What the trial panel reads of one model.
fn trial_side(side: Side) -> TrialSide {
    TrialSide { name: side.name(), id: side.model_id(), tried: side.tried.into(), trying: side.trying.into() }
}

#[component]
pub fn TrainPage() -> impl IntoView {
    let (initial, notes) = read_url::<TrainSettings>();
    let autostart = initial.run;
    let page = TrainState::new(initial);
    let TrainState { settings, gram, trm, .. } = page;
    let notes = RwSignal::new(notes);
    sync_url(settings);
    super::recorded::instant_start(page);
    if autostart {
        page.start();
    }
    let idle = move || page.sides().iter().all(|s| s.phase.get() == Phase::Idle);
    let paused = move || !page.training() && !idle();
    let download_button = move |side: Side| {
        view! {
            <button on:click=move |_| page.download(side) disabled=move || side.step.get() == 0>
                {format!("Download {}", side.name())}
            </button>
        }
    };
    view! {
        <section class="train-page">
            <h1>"Watch GRAM learn to find many answers while TRM learns one"</h1>
            <BackendStatus backend=Some((BACKEND.0.to_string(), BACKEND.1.to_string()))/>
            <UrlNotes notes/>
            <div class="panel controls">
                <h2>"Training"</h2>
                <p>"Both models learn to 3-colour graphs of 6 vertices from scratch, at the same batch and steps, from the same seed. They are the same network; GRAM adds a learned noise (stochastic guidance) to each reasoning step."</p>
                <label>
                    "Width "
                    <select aria-label="Width" on:change=move |ev| {
                        if let Ok(w) = event_target_value(&ev).parse::<usize>() { settings.update(|s| { s.width = w; s.run = false }) }
                    }>
                        {WIDTHS.iter().map(|&w| {
                            let label = if w == 64 { format!("{w} (the recipe's)") } else { format!("{w} (quicker)") };
                            view! { <option value=w.to_string() selected=move || settings.with(|s| s.width == w)>{label}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <SeedInput label="Seed" value=Signal::derive(move || settings.with(|s| s.seed)) on_change=move |x| settings.update(|s| { s.seed = x; s.run = false })/>
                <div class="row">
                    <button class="primary" on:click=move |_| page.start()>{move || if idle() { "Train" } else { "Restart" }}</button>
                    <button on:click=move |_| page.pause() disabled=move || !page.training()>"Pause"</button>
                    <button on:click=move |_| page.resume() disabled=move || !paused()>"Resume"</button>
                    {download_button(gram)}
                    {download_button(trm)}
                </div>
                <p class="run-status" aria-live="polite" data-model="gram">{move || side_status(gram, page.showing_recorded.get())}</p>
                <p class="run-status" aria-live="polite" data-model="trm">{move || side_status(trm, page.showing_recorded.get())}</p>
            </div>
            <div class="layout">
                <div class="panel">
                    <h2>"Held-out coverage"</h2>
                    <TwoCurves figure=Figure::Coverage gram trm label="Held-out coverage of both models"
                        caption="Share of each held-out graph's proper colourings that its samples found, averaged over the graphs."/>
                    <ul class="legend"><li class="series-a">"GRAM"</li><li class="series-b">"TRM"</li></ul>
                </div>
                <div class="panel">
                    <h2>"Held-out accuracy"</h2>
                    <TwoCurves figure=Figure::Accuracy gram trm label="Held-out accuracy of both models"
                        caption="Share of held-out graphs whose first sample is a proper colouring."/>
                </div>
                <div class="panel">
                    <h2>"Training loss"</h2>
                    <TwoCurves figure=Figure::Loss gram trm label="Training loss of both models"
                        caption="Cross-entropy of the answers (plus GRAM's KL term), mean over the points' steps."/>
                </div>
            </div>
            <TrialPanel
                puzzle=Signal::derive(move || page.trial_puzzle())
                label=Signal::derive(move || format!("Held-out graph {} of {HELD_OUT_INPUTS}", page.trial_graph.get() + 1))
                sides=[trial_side(gram), trial_side(trm)]
                can_try=Signal::derive(move || gram.step.get() > 0 && trm.step.get() > 0)
                on_try=Callback::new(move |()| page.try_it())
                on_next=Callback::new(move |()| page.next_graph())
                intro=format!("Both models, as they are now, colour one of the {HELD_OUT_INPUTS} held-out graphs the curves measure, {HELD_OUT_SAMPLES} times each. Works while they train.")
                waiting="Train first: Try it asks the models in training (the recorded run has no weights here)."
            />
            <div class="explain panel">
                <h2>"What you are looking at"</h2>
                <p>{format!(
                    "Every 25 steps each model colours {HELD_OUT_INPUTS} graphs it never trained on, {HELD_OUT_SAMPLES} times each. Accuracy asks whether the first try is a proper colouring (no edge joins two vertices of one colour); coverage asks how many of a graph's different proper colourings the {HELD_OUT_SAMPLES} tries found. A graph of 6 vertices often has a dozen colourings or more."
                )}</p>
                <p>"TRM is deterministic: however often it tries, it repeats one answer, so its coverage stays near one colouring per graph while its accuracy climbs. GRAM samples a noise at every reasoning step from a prior it learned; trained against a posterior that sees the answer, it learns to reach different colourings from different noise. That is the GRAM paper's claim, and here it is learned live."</p>
                <p>{format!(
                    "Training pauses by itself after {MAX_STEPS} steps; Resume goes on. The downloaded files (the weights as .bpk and their manifest) open in the trainer: native-trainer eval --weights gram-coloring6-browser.bpk --part validation --limit {HELD_OUT_INPUTS} --samples {HELD_OUT_SAMPLES} prints the figures this page last showed."
                )}</p>
            </div>
        </section>
    }
}
