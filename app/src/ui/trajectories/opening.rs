//! How every page that samples GRAM or TRM opens, written once: the URL kept in step with what
//! is on screen, the run the URL asked for started, and above the panels the backend, what the
//! URL's values became, and how the model's weights are loading.

use leptos::prelude::*;

use super::page::ReasonerPage;
use crate::ui::browser::sync_url;
use crate::ui::status::{BackendStatus, UrlNotes, load_view};

/// Keeps the URL saying how to reproduce what is on screen, and starts the run a shared link
/// asked for (`run=1`).
pub fn open<P: ReasonerPage>(page: P) {
    let settings = page.settings();
    let start = settings.with_untracked(|s| s.sampling.run);
    sync_url(settings);
    if start {
        page.solve();
    }
}

/// The lines above a GRAM page's panels: backend, URL notes, the model's load.
#[component]
pub fn PageStatus<P: ReasonerPage>(
    page: P,
    /// What the URL's values became (`Ignored n="abc" ...`).
    notes: Vec<String>,
    /// What still works while the weights do not load.
    still_works: &'static str,
) -> impl IntoView {
    let (settings, worker) = (page.settings(), page.worker());
    let notes = RwSignal::new(notes);
    let load = move || {
        let (model, weights) = settings.with(|s| (s.model, s.weights()));
        load_view(worker.load_of(&weights), model.label(), still_works)
    };
    view! {
        <BackendStatus backend=worker.backend/>
        <UrlNotes notes/>
        {load}
    }
}
