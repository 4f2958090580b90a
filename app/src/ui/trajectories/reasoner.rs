//! The settings panel of a page that samples GRAM or TRM (`/nqueens`, `/sudoku`, `/coloring`):
//! the model, the sampling knobs, Solve and Stop (and why Solve is off), and the run's status.
//! A page's state says what the panel reads and does through [`ReasonerPage`]; [`ReasonerPanel`]
//! is then the whole panel.

use engine::gram::select::Selection;
use leptos::prelude::*;

pub use super::page::{ReasonerPage, run_label};
use super::session::Session;
use super::views::RunStatus;
use crate::protocol::Intervention;
use crate::ui::controls::run_stop::RunStop;
use crate::ui::controls::sampling::SamplingControls;
use crate::ui::model_worker::ModelWorker;
use crate::url_state::gram_page::Model;
use crate::url_state::sampling::HasSampling;

/// Sizes of the "perturb" burst offered (sigma against the RMS-normalised state, RMS 1), the
/// default first. Measured on `gram-nqueens8`, empty board, scale 0, a burst on one sample at
/// step 3: at 1 and 2 the sample fell back to the others' board (seeds 0 and 3), at 4 it ended
/// on another board for both seeds, at 8 it had left by the step of the burst.
pub const PERTURB_SIGMAS: [f64; 3] = [4.0, 1.0, 8.0];

/// The settings panel of a [`ReasonerPage`].
#[component]
pub fn ReasonerPanel<P: ReasonerPage>(page: P) -> impl IntoView {
    super::instant::instant_start(page);
    view! {
        <ReasonerControls
            settings=page.settings()
            session=page.session()
            worker=page.worker()
            model=Signal::derive(move || page.model())
            on_model=move |m| page.set_model(m)
            on_run=move || page.solve()
            on_stop=move || page.stop()
            blocked=Signal::derive(move || page.blocked())
            blocked_hint=P::BLOCKED_HINT
            run_label=P::RUN_LABEL
            verified_stop=P::VERIFIED_STOP
            copies=P::COPIES
            copies_label=P::COPIES_LABEL
            picks=P::PICKS
        />
    }
}

#[component]
pub fn ReasonerControls<S, P>(
    settings: RwSignal<S>,
    session: Session<P>,
    worker: ModelWorker,
    /// The model chosen now.
    #[prop(into)]
    model: Signal<Model>,
    on_model: impl Fn(Model) + Copy + Send + Sync + 'static,
    on_run: impl Fn() + 'static,
    on_stop: impl Fn() + 'static,
    /// Solve is disabled (the puzzle cannot be solved as it stands).
    #[prop(into)]
    blocked: Signal<bool>,
    /// What the page says while Solve is disabled (none: nothing).
    blocked_hint: Option<&'static str>,
    /// The run button's text.
    #[prop(default = "Solve")]
    run_label: &'static str,
    /// Offer the verified stop.
    #[prop(default = true)]
    verified_stop: bool,
    /// Offer shuffled copies of the puzzle, one per sample.
    #[prop(default = false)]
    copies: bool,
    /// What the copies checkbox says.
    #[prop(default = "")]
    copies_label: &'static str,
    /// Offer the choice of how one answer is picked.
    #[prop(default = true)]
    picks: bool,
) -> impl IntoView
where
    S: HasSampling + Send + Sync + 'static,
    P: Clone + Send + Sync + 'static,
{
    let is = move |m: Model| model.get() == m;
    let burst = RwSignal::new(PERTURB_SIGMAS[0]);
    // The slider acts on the run on screen from its next step (and is the next run's scale).
    let on_scale = Callback::new(move |scale: f64| {
        session.intervene(worker, |step, _| Intervention::Scale { step, scale }, &format!("scale {scale:.1}"));
    });
    let scale_hint = move || {
        if is(Model::Trm) {
            if copies {
                "TRM has no guidance heads: the scale does not change it, and without PTRM's latent noise (below) or a copy per sample all N samples are the same."
            } else {
                "TRM has no guidance heads: the scale does not change it, and without PTRM's latent noise (below) all N samples are the same."
            }
        } else {
            "0 = the mean path only (deterministic), 1 = the learned prior, above 1 = amplified noise."
        }
    };
    view! {
        <div class="panel controls">
            <h2>"Reasoner"</h2>
            <fieldset class="model">
                <legend>"Model"</legend>
                <label>
                    <input type="radio" name="model" prop:checked=move || is(Model::Gram) on:change=move |_| on_model(Model::Gram)/>
                    "GRAM (stochastic guidance)"
                </label>
                <label>
                    <input type="radio" name="model" prop:checked=move || is(Model::Trm) on:change=move |_| on_model(Model::Trm)/>
                    "TRM (deterministic)"
                </label>
            </fieldset>
            <SamplingControls settings scale_hint verified_stop copies copies_label on_scale ptrm=picks/>
            <RunStop on_run on_stop blocked running=move || session.running() label=run_label/>
            <div class="row perturb-row">
                <button
                    class="perturb"
                    disabled=move || !session.unfolding()
                    title="Adds a burst of latent noise to the sample in focus at the next step; the other samples go on as they were."
                    on:click=move |_| {
                        let sigma = burst.get_untracked();
                        session.intervene(worker, |step, sample| Intervention::Perturb { step, sample, sigma }, &format!("perturbed (sigma {sigma})"));
                    }
                >
                    {move || format!("Perturb sample {}", session.focus.get() + 1)}
                </button>
                <label>
                    "burst σ "
                    <select aria-label="Burst size" on:change=move |e| { if let Ok(x) = event_target_value(&e).parse() { burst.set(x) } }>
                        {PERTURB_SIGMAS.iter().map(|x| view! { <option value=x.to_string()>{x.to_string()}</option> }).collect_view()}
                    </select>
                </label>
            </div>
            {blocked_hint.map(|hint| view! { <p class="hint solve-blocked" hidden=move || !blocked.get()>{hint}</p> })}
            {picks.then(|| view! { <PickSwitch pick=session.pick/> })}
            <RunStatus session/>
        </div>
    }
}

/// How one answer is picked among the N samples (the GRAM paper, eqs. 15 and 16; PTRM's best-Q,
/// arXiv 2605.19943); the samples strip
/// marks the pick with a star beside its LPRM value.
#[component]
fn PickSwitch(pick: RwSignal<Selection>) -> impl IntoView {
    let is = move |s: Selection| pick.get() == s;
    view! {
        <fieldset class="pick">
            <legend>"One answer, picked by"</legend>
            <label>
                <input type="radio" name="pick" prop:checked=move || is(Selection::Vote) on:change=move |_| pick.set(Selection::Vote)/>
                "majority vote"
            </label>
            <label>
                <input type="radio" name="pick" prop:checked=move || is(Selection::Lprm) on:change=move |_| pick.set(Selection::Lprm)/>
                "LPRM value (the model's own estimate that an answer is right)"
            </label>
            <label>
                <input type="radio" name="pick" prop:checked=move || is(Selection::Q) on:change=move |_| pick.set(Selection::Q)/>
                "Q-head (the highest halting logit at the step: PTRM's best-Q)"
            </label>
        </fieldset>
    }
}
