//! `/tree`: route search with the JEPA-Reasoner. Edit or generate a tree, ask for the route from
//! the root to a leaf, and look inside each latent the Reasoner wrote: what the Talker read from
//! it, its cosines to the vocabulary, how much of the right node and of its sibling it holds, and
//! where it lies among the node embeddings (PCA). Parsing, layout, latents and every figure come
//! from the engine.

mod explain;
mod latents_panel;
mod pca_plot;
mod question_panel;
mod reasoner_panel;
mod state;
mod step_card;
mod tree_drawing;

use leptos::prelude::*;

use explain::Explain;
use latents_panel::LatentsPanels;
use question_panel::QuestionPanel;
use reasoner_panel::ReasonerPanel;
use state::TreeState;

use super::browser::{prefers_reduced_motion, read_url, sync_url};
use super::status::{BackendStatus, UrlNotes, load_view};
use crate::url_state::tree::{TreeSettings, WEIGHTS};

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
