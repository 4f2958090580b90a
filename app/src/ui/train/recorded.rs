//! Instant start on `/train`: the page opens on a recorded run (`public/runs/train.json`, made
//! by `native-trainer record --task train` with the page's own training code, seed 0, width 64,
//! 2,000 steps), drawn in the same plots as a live one. Train replaces it with a live run; while
//! nothing was trained here, it shows whenever the settings are its own and the plots are empty
//! otherwise.

use engine::training::recorded::RecordedTraining;
use leptos::prelude::*;

use super::state::{Phase, TrainState};
use super::url::train_matches;
use crate::recorded_runs::TRAIN_RUN;
use crate::ui::recorded::fetch_into;

/// Fetches the recorded run (unless the URL asked for a live one) and shows it while the page
/// has not trained and its settings are the run's.
pub(super) fn instant_start(page: TrainState) {
    if page.settings.with_untracked(|s| s.run) {
        return; // the URL asked for a run: it starts live
    }
    fetch_into::<RecordedTraining>(TRAIN_RUN, page.recorded);
    Effect::new(move |_| {
        let fits = page.recorded.with(|r| r.as_ref().filter(|r| page.settings.with(|s| train_matches(r, s))).cloned());
        if page.sides().iter().any(|s| s.phase.get_untracked() != Phase::Idle) {
            return; // trained here: the live run stays
        }
        match fits {
            Some(run) => page.show_recorded(&run),
            None if page.showing_recorded.get_untracked() => page.clear(),
            None => {}
        }
    });
}
