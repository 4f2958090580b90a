//! The sampling knobs of a GRAM page: N, guidance scale (with the page's hint under it),
//! supervision steps and seed. Every change clears the URL's `run=1`: the link then shows the
//! settings, not a run that was never made with them.

use leptos::prelude::*;

use super::slider::{SeedInput, Slider};
use crate::url_state::sampling::{HasSampling, MAX_RESTARTS, MAX_SCALE, MAX_STEPS, SCALE, Sampling};

#[component]
pub fn SamplingControls<S>(
    settings: RwSignal<S>,
    /// What the guidance scale does for this page's model(s).
    #[prop(into)]
    scale_hint: Signal<&'static str>,
    /// Offer the verified stop and its restarts (a page with no rule to check does not).
    #[prop(default = true)]
    verified_stop: bool,
    /// Told each new guidance scale as the visitor moves the slider (a page whose runs can take
    /// it mid-run).
    #[prop(optional)]
    on_scale: Option<Callback<f64>>,
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
        {verified_stop.then(|| view! {
            <label class="check">
                <input
                    type="checkbox"
                    prop:checked=move || read().stop
                    on:change=move |e| {
                        let on = event_target_checked(&e);
                        edit(&|s| s.stop = on)
                    }
                />
                "Stop at the first sample that passes the rules (the rule check is exact and free; the paper runs every step, then votes)"
            </label>
            <Show when=move || read().stop>
                <Slider
                    label=move || format!("Restarts when nothing passes = {}", read().restarts)
                    aria_label="Restarts"
                    min="0"
                    max=MAX_RESTARTS.to_string()
                    value=move || read().restarts.to_string()
                    on_input=move |v| { if let Ok(n) = v.parse() { edit(&|s| s.restarts = n) } }
                />
                <p class="hint">"A budget of steps with no sample passing starts all N again with fresh noise, up to this many times."</p>
            </Show>
        })}
    }
}
