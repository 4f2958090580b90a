//! The sampling knobs of a GRAM page: N, guidance scale (with the page's hint under it),
//! supervision steps and seed. Every change clears the URL's `run=1`: the link then shows the
//! settings, not a run that was never made with them.

use leptos::prelude::*;

use super::slider::{SeedInput, Slider};
use crate::url_state::sampling::{HasSampling, MAX_RESTARTS, MAX_SCALE, MAX_STEPS, NOISE, SCALE, Sampling, UNTIL_VERIFIED};

/// PTRM latent-noise sigmas offered (the URL may hold any other from 0 to 16; it is then offered too).
pub const PTRM_SIGMAS: [f64; 7] = [0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];

/// The choices for the PTRM select: the usual ones and the current value.
fn ptrm_choices(current: f64) -> Vec<f64> {
    let mut v = PTRM_SIGMAS.to_vec();
    if !v.contains(&current) {
        v.push(current);
        v.sort_by(f64::total_cmp);
    }
    v
}

/// What PTRM's noise does, and the sigmas chosen on validation puzzles (docs/results/ptrm.md).
const PTRM_HINT: &str = "PTRM (Sghaier et al. 2026): Gaussian noise on the reasoning latent before every step, so even TRM's N runs differ; pick the answer by the Q-head below. Chosen on validation puzzles (docs/results/ptrm.md): σ 8 for TRM on N-Queens, 1 on Sudoku.";

#[component]
pub fn SamplingControls<S>(
    settings: RwSignal<S>,
    /// What the guidance scale does for this page's model(s).
    #[prop(into)]
    scale_hint: Signal<&'static str>,
    /// Offer the verified stop and its restarts (a page with no rule to check does not).
    #[prop(default = true)]
    verified_stop: bool,
    /// Offer shuffled copies of the puzzle, one per sample (a task that makes them): with the
    /// verified stop, or on their own where the page's copies need no stop
    /// ([`Sampling::copies_free`]).
    #[prop(default = false)]
    copies: bool,
    /// What the copies checkbox says.
    #[prop(default = "")]
    copies_label: &'static str,
    /// Told each new guidance scale as the visitor moves the slider (a page whose runs can take
    /// it mid-run).
    #[prop(optional)]
    on_scale: Option<Callback<f64>>,
    /// Offer PTRM's test-time latent noise (pages that pick one answer among the N).
    #[prop(default = false)]
    ptrm: bool,
) -> impl IntoView
where
    S: HasSampling + Send + Sync + 'static,
{
    let edit = move |f: &dyn Fn(&mut Sampling)| {
        settings.update(|s| {
            let sampling = s.sampling_mut();
            f(sampling);
            sampling.run = false;
        })
    };
    let read = move || settings.with(|s| s.sampling().clone());
    // Whether the copies need the stop is the page's, fixed for its life.
    let free = settings.with_untracked(|s| s.sampling().copies_free);
    // The copies checkbox: under the stop, or on its own where the copies need none.
    let copies_check =
        move || view! { <Check checked=move || read().copies on_change=move |on| edit(&|s| s.copies = on) label=copies_label/> };
    view! {
        <Slider
            label=move || format!("Samples N = {}", read().samples)
            aria_label="Samples N"
            min="1"
            max=S::MAX_SAMPLES.to_string()
            value=move || read().samples.to_string()
            on_input=move |v| { if let Ok(n) = v.parse() { edit(&|s| s.samples = n) } }
        />
        <Slider
            label=move || format!("Guidance scale = {:.1}", read().scale)
            aria_label="Guidance scale"
            min="0"
            max=MAX_SCALE.to_string()
            step="0.1"
            value=move || read().scale.to_string()
            on_input=move |v| {
                if let Ok(x) = v.parse::<f64>() {
                    edit(&|s| s.scale = SCALE.round(x));
                    if let Some(f) = on_scale { f.run(SCALE.round(x)) }
                }
            }
        />
        <p class="hint">{move || scale_hint.get()}</p>
        <Slider
            label=move || format!("Supervision steps = {}", read().steps)
            aria_label="Supervision steps"
            min="1"
            max=MAX_STEPS.to_string()
            value=move || read().steps.to_string()
            on_input=move |v| { if let Ok(n) = v.parse() { edit(&|s| s.steps = n) } }
        />
        <SeedInput label="Seed" value=move || read().seed on_change=move |x| edit(&|s| s.seed = x)/>
        {ptrm.then(|| view! {
            <label class="ptrm">
                "Test-time latent noise (PTRM) σ "
                <select
                    aria-label="PTRM latent noise"
                    on:change=move |e| { if let Ok(x) = event_target_value(&e).parse::<f64>() { edit(&|s| s.noise = NOISE.round(x)) } }
                >
                    {move || ptrm_choices(read().noise).into_iter().map(|x| {
                        let name = if x == 0.0 { "0 (off)".to_string() } else { x.to_string() };
                        view! { <option value=x.to_string() selected=move || read().noise == x>{name}</option> }
                    }).collect_view()}
                </select>
            </label>
            <p class="hint">{PTRM_HINT}</p>
        })}
        {verified_stop.then(|| view! {
            <Check
                checked=move || read().stop
                on_change=move |on| edit(&|s| s.stop = on)
                label="Stop at the first sample that passes the rules (the rule check is exact and free; the paper runs every step, then votes)"
            />
            <Show when=move || read().stop>
                {(copies && !free).then(copies_check)}
                <Slider
                    label=move || match read().restarts {
                        UNTIL_VERIFIED => "Restarts when nothing passes = until one passes".to_string(),
                        r => format!("Restarts when nothing passes = {r}"),
                    }
                    aria_label="Restarts"
                    min="0"
                    max=(MAX_RESTARTS + 1).to_string()
                    value=move || read().restarts.min(MAX_RESTARTS + 1).to_string()
                    on_input=move |v| {
                        if let Ok(n) = v.parse::<usize>() {
                            edit(&|s| s.restarts = if n > MAX_RESTARTS { UNTIL_VERIFIED } else { n })
                        }
                    }
                />
                <p class="hint">"A budget of steps with no sample passing starts all N again with fresh noise, up to this many times; at the slider's end, until a sample passes or you press Stop."</p>
            </Show>
        })}
        {(copies && free).then(copies_check)}
    }
}

/// A labelled checkbox: `checked` read, `on_change` told the new state.
#[component]
fn Check(checked: impl Fn() -> bool + Send + Sync + 'static, on_change: impl Fn(bool) + 'static, label: &'static str) -> impl IntoView {
    view! {
        <label class="check">
            <input type="checkbox" prop:checked=checked on:change=move |e| on_change(event_target_checked(&e))/>
            {label}
        </label>
    }
}
