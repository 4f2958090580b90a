//! Instant start on `/jepa`: the page opens on a recorded session
//! (`public/runs/jepa.json`, made by `native-trainer record --task jepa` through the engine's
//! own session with the page's default settings), drawn in the same plots as a live one, before
//! the worker has started. Pressing Train replaces it with a live session; while nothing was
//! trained here, it shows whenever the settings are its own and leaves the plots empty otherwise.

use engine::studies::regex::session::RecordedSession;
use leptos::prelude::*;

use super::state::{JepaState, Phase};
use super::url::jepa_matches;
use crate::recorded_jepa::jepa_view;
use crate::recorded_runs::JEPA_RUN;
use crate::ui::recorded::fetch_into;

/// Fetches the recorded session (unless the URL asked for a live run) and shows it while the
/// page has not trained and its settings are the session's.
pub(super) fn instant_start(page: JepaState) {
    if page.settings.with_untracked(|s| s.run) {
        return; // the URL asked for a run: it starts live
    }
    fetch_into::<RecordedSession>(JEPA_RUN, page.recorded);
    Effect::new(move |_| {
        let view = page.recorded.with(|r| r.as_ref().map(|r| page.settings.with(|s| jepa_matches(r, s).then(|| (jepa_view(r), r.steps)))));
        if page.phase.get_untracked() != Phase::Idle {
            return; // trained here: the live session stays
        }
        match view.flatten() {
            Some((view, steps)) => page.show_recorded(view, steps),
            None if page.showing_recorded.get_untracked() => page.clear(),
            None => {}
        }
    });
}
