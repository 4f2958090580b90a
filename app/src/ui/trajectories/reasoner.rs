//! The settings panel of a page that samples GRAM or TRM (`/nqueens`, `/sudoku`, `/coloring`):
//! the model, the sampling knobs, Solve and Stop (and why Solve is off), and the run's status.
//! A page's state says what the panel reads and does through [`ReasonerPage`]; [`ReasonerPanel`]
//! is then the whole panel.

use leptos::prelude::*;

use crate::ui::controls::run_stop::RunStop;
use crate::ui::controls::sampling::SamplingControls;
use super::session::Session;
use super::views::RunStatus;
use crate::url_state::nqueens::Model;
use crate::url_state::sampling::HasSampling;

/// How the status line and the coverage plot name a run of `model`.
pub fn run_label(model: Model, scale: f64) -> String {
    match model {
        Model::Gram => format!("GRAM, scale {scale:.1}"),
        Model::Trm => "TRM (deterministic)".into(),
    }
}

/// What the settings panel needs from a page that samples GRAM or TRM.
pub trait ReasonerPage: Copy + Send + Sync + 'static {
    type Settings: HasSampling + Send + Sync + 'static;
    type Puzzle: Clone + Send + Sync + 'static;
    fn settings(self) -> RwSignal<Self::Settings>;
    fn session(self) -> Session<Self::Puzzle>;
    /// The model chosen now (tracked).
    fn model(self) -> Model;
    fn set_model(self, model: Model);
    fn solve(self);
    fn stop(self);
    /// Solve is off: the puzzle cannot be solved as it stands (tracked).
    fn blocked(self) -> bool;
    /// What the page says while Solve is off (none: nothing).
    const BLOCKED_HINT: Option<&'static str> = None;
    /// The run button's text.
    const RUN_LABEL: &'static str = "Solve";
    /// Whether the page offers the verified stop (a page with no rule to check does not).
    const VERIFIED_STOP: bool = true;
}

/// The settings panel of a [`ReasonerPage`].
#[component]
pub fn ReasonerPanel<P: ReasonerPage>(page: P) -> impl IntoView {
    view! {
        <ReasonerControls
            settings=page.settings()
            session=page.session()
            model=Signal::derive(move || page.model())
            on_model=move |m| page.set_model(m)
            on_run=move || page.solve()
            on_stop=move || page.stop()
            blocked=Signal::derive(move || page.blocked())
            blocked_hint=P::BLOCKED_HINT
            run_label=P::RUN_LABEL
            verified_stop=P::VERIFIED_STOP
        />
    }
}

#[component]
pub fn ReasonerControls<S, P>(
    settings: RwSignal<S>,
    session: Session<P>,
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
) -> impl IntoView
where
    S: HasSampling + Send + Sync + 'static,
    P: Clone + Send + Sync + 'static,
{
    let is = move |m: Model| model.get() == m;
    let scale_hint = move || {
        if is(Model::Trm) {
            "TRM has no guidance heads: the scale does not change it, and all N samples are the same."
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
            <SamplingControls settings scale_hint verified_stop/>
            <RunStop on_run on_stop blocked running=move || session.running() label=run_label/>
            {blocked_hint.map(|hint| view! { <p class="hint solve-blocked" hidden=move || !blocked.get()>{hint}</p> })}
            <RunStatus session/>
        </div>
    }
}
