//! Instant start, what every page with a recorded run shares: fetching the run
//! (`public/runs/<name>.json`, made by `native-trainer record` from the shipped weights with the
//! page's default settings), and handing over to the live model once its weights are ready. The
//! GRAM pages use it through `trajectories::instant`; `/tree`, `/grammar` and `/jepa` directly.

use leptos::prelude::*;
use serde::de::DeserializeOwned;

use super::fetch::fetch_json;
use super::model_worker::ModelWorker;
use super::status::Load;
use crate::recorded_runs::RUNS_PATH;

/// What `/tree` and `/grammar` say while their recorded run is on screen.
pub const RECORDED_NOTE: &str =
    "Recorded ahead from the shipped weights (native-trainer record), shown while the model loads; the live model takes over once loaded.";

/// The recorded run `name` (`None` when it cannot be fetched or read: the page then waits for
/// the live model, as without a recording).
pub async fn fetch_recorded<T: DeserializeOwned>(name: &str) -> Option<T> {
    fetch_json(&format!("{RUNS_PATH}/{name}.json")).await
}

/// Fetches the recorded run `name` into `into` in the background: the training pages' instant
/// start (`/jepa`, `/train`).
pub fn fetch_into<T: DeserializeOwned + Send + Sync + 'static>(name: &'static str, into: RwSignal<Option<T>>) {
    leptos::task::spawn_local(async move {
        if let Some(run) = fetch_recorded::<T>(name).await {
            into.set(Some(run));
        }
    });
}

/// Calls `go_live` when a recorded run is on screen (`showing`, tracked) and the worker has the
/// weights `weights` ready; `go_live` replaces the recorded run with a live one, so `showing`
/// turns false and it is called once. A failed load never calls it: the recorded run stays.
pub fn live_once_ready(worker: ModelWorker, weights: &'static str, showing: impl Fn() -> bool + 'static, go_live: impl Fn() + 'static) {
    Effect::new(move |_| {
        if showing() && matches!(worker.load_of(weights), Some(Load::Ready(_))) {
            go_live();
        }
    });
}
