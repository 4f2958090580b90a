//! The page's component: its state, the panels around it, and its URL read once.

use leptos::prelude::*;

use super::explain::Explain;
use super::latents_panel::LatentsPanels;
use super::question_panel::QuestionPanel;
use super::reasoner_panel::ReasonerPanel;
use super::state::TreeState;

use super::url::{TreeSettings, WEIGHTS};
use crate::ui::browser::{prefers_reduced_motion, read_url, sync_url};
use crate::ui::status::{BackendStatus, UrlNotes, load_view};

/// What the badge says: this page's model always runs on the CPU.
const BACKEND: (&str, &str) =
    ("CPU", "This small model (about 1.3 M parameters, five latents per answer) always runs on the CPU backend in a Web Worker.");

#[component]
pub fn TreePage() -> impl IntoView {
    let (initial, notes) = read_url::<TreeSettings>();
    let start = initial.run;
    let page = TreeState::new(initial, prefers_reduced_motion());
    let TreeState { settings, worker, result, .. } = page;
    let notes = RwSignal::new(notes);
    sync_url(settings);
    if start {
        page.reason();
    } else {
        page.instant_start();
    }
    let load_view =
        move || load_view(worker.load_of(WEIGHTS), "JEPA-Reasoner", "You can still edit and generate trees; reload the page to try again.");

    view! {
        <section class="tree-page">
            <h1>"Tree routes: a reasoner that thinks in unit vectors"</h1>
            <BackendStatus backend=Some((BACKEND.0.to_string(), BACKEND.1.to_string()))/>
            <UrlNotes notes/>
            {load_view}

            <div class="layout">
                <QuestionPanel page/>
                <ReasonerPanel page/>
            </div>

            <div class="results" hidden=move || result.with(Option::is_none)>
                <LatentsPanels page/>
            </div>

            <Explain/>
        </section>
    }
}
