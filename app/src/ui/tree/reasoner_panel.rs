//! The settings panel of `/tree`: latent noise and its seed, Find the route, the verdict, and
//! the runs tried on this tree.

use leptos::prelude::*;

use super::state::{TreeState, route_or_garbled};
use super::url::{MAX_NOISE, NOISE, TreeSettings, WEIGHTS};
use crate::ui::controls::slider::{SeedInput, Slider};
use crate::ui::recorded::RECORDED_NOTE;
use crate::ui::status::Load;

#[component]
pub(super) fn ReasonerPanel(page: TreeState) -> impl IntoView {
    let TreeState { settings, run, history, worker, .. } = page;
    let edit = move |f: &dyn Fn(&mut TreeSettings)| {
        settings.update(|s| {
            f(s);
            s.run = false;
        })
    };
    let ready = move || matches!(worker.load_of(WEIGHTS), Some(Load::Ready(_)));

    let verdict = move || {
        let r = run.get()?;
        if let Some(e) = &r.error {
            return Some(view! { <p class="verdict bad" role="alert">{format!("The Reasoner could not run: {e}")}</p> }.into_any());
        }
        let (e, ms) = r.result.clone()?;
        let want = r.task.route_text();
        let said = route_or_garbled(&e.route);
        let noise = if r.noise > 0.0 { format!(" with latent noise {:.0}% (seed {})", 100.0 * r.noise, r.seed) } else { String::new() };
        let (class, text) = if e.correct {
            (
                "verdict ok",
                format!(
                    "The Talker wrote the route {said}{noise}: correct, it is the path from {} to {}.",
                    r.task.tree.root() as char,
                    r.task.target as char
                ),
            )
        } else {
            ("verdict bad", format!("The Talker wrote {said}{noise}: wrong, the route is {want}."))
        };
        Some(view! {
            <div>
                <p class=class role="status" data-route=e.route.clone().unwrap_or_default() data-correct=e.correct.to_string()>{text}</p>
                <p class="hint">{
                    if r.recorded {
                        format!("{} latents, recorded ahead from the shipped weights.", e.steps.len())
                    } else {
                        format!("{} latents, Talker and analysis in {:.0} ms on the CPU.", e.steps.len(), ms)
                    }
                }</p>
            </div>
        }
        .into_any())
    };

    let history_view = move || {
        history
            .get()
            .into_iter()
            .rev()
            .map(|t| {
                let line = format!(
                    "noise {:.0}%, seed {}: {} ({})",
                    100.0 * t.noise,
                    t.seed,
                    t.route,
                    if t.correct { "correct" } else { "wrong" }
                );
                view! { <li class:ok=t.correct class:bad=!t.correct>{line}</li> }
            })
            .collect::<Vec<_>>()
    };

    let run_status = move || {
        if page.pending() {
            "Reasoning…".to_string()
        } else if page.showing_recorded() {
            RECORDED_NOTE.to_string()
        } else if run.with(Option::is_none) {
            "Press Find the route.".to_string()
        } else {
            String::new()
        }
    };

    view! {
        <div class="panel controls">
            <h2>"Reasoner"</h2>
            <Slider
                label=move || format!("Latent noise = {:.0}% of max |h|", 100.0 * settings.with(|s| s.noise))
                aria_label="Latent noise"
                min="0"
                max=MAX_NOISE.to_string()
                step="0.01"
                value=move || settings.with(|s| s.noise.to_string())
                on_input=move |v| { if let Ok(x) = v.parse::<f64>() { edit(&|s| s.noise = NOISE.round(x)) } }
            />
            <p class="hint">"Gaussian noise added to every latent before it is read and looped back (sigma as a share of the latent's largest component). The paper's robustness test goes to 15%."</p>
            <SeedInput label="Noise seed" value=move || settings.with(|s| s.seed) on_change=move |x| edit(&|s| s.seed = x)/>
            <div class="row">
                <button class="primary" on:click=move |_| page.reason() disabled=move || !ready() || page.pending()>"Find the route"</button>
            </div>
            <p class="run-status" aria-live="polite">{run_status}</p>
            {verdict}
            <h3>"Tried on this tree"</h3>
            <p class="hint" hidden=move || !history.with(Vec::is_empty)>"No runs yet. Each run on this tree is listed here with its noise, seed and route."</p>
            <ul class="history" aria-label="Runs on this tree">{history_view}</ul>
        </div>
    }
}
