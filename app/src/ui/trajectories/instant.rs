//! Instant start: a GRAM page shows its recorded run (`public/runs/<page>.json`, made by
//! `native-trainer record` from the shipped weights with the page's default settings) the moment
//! it opens, when that is the run its settings ask for and nothing ran yet; once the model's
//! weights are ready, a live run of the same settings replaces it. A failed load leaves the
//! recorded run on screen beside the load's message.

use engine::solve::recorded::RecordedRun;
use leptos::prelude::*;

use super::page::ReasonerPage;
use crate::recorded_runs::{Wanted, matches};
use crate::ui::recorded::fetch_recorded;
use crate::ui::status::Load;
use crate::url_state::sampling::HasSampling;

/// Fetches the page's recorded run and shows it if it fits; replaces it live once the weights load.
pub fn instant_start<P: ReasonerPage>(page: P) {
    let session = page.session();
    let settings = page.settings();
    if settings.with_untracked(|s| s.sampling().run) {
        return; // the URL asked for a run: it starts live
    }
    leptos::task::spawn_local(async move {
        let Some(recorded) = fetch_recorded::<RecordedRun>(P::RECORDED).await else { return };
        let Some(order) = page.order() else { return };
        let fits = settings
            .with_untracked(|s| matches(&recorded, &Wanted { weights: &order.weights, puzzle: &order.puzzle, sampling: s.sampling() }));
        if fits {
            session.show_recorded(&recorded, order.task, format!("Recorded run: {}", order.label));
        }
    });
    Effect::new(move |_| {
        if !session.showing_recorded() {
            return;
        }
        let weights = session.run.with(|r| r.as_ref().map(|_| page.order().map(|o| o.weights))).flatten();
        let ready = weights.is_some_and(|w| matches!(page.worker().load_of(&w), Some(Load::Ready(_))));
        if ready {
            page.solve();
        }
    });
}
