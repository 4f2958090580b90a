//! `/jepa`'s recorded training session (`public/runs/jepa.json`, made by `native-trainer record
//! --task jepa`): whether it is the session the page's settings ask for, and its figures as the
//! page's plots. Plain Rust, tested natively against the committed file.

use engine::studies::regex::live::Snapshot;
use engine::studies::regex::session::RecordedSession;

/// A recorded session as `/jepa` draws it: the loss curves' points (step, LM-only CE, LM +
/// LLM-JEPA CE, JEPA cosine), the accuracy at each snapshot (step, LM-only %, LM + LLM-JEPA
/// %), and each model's last snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct JepaView {
    pub curve: Vec<(usize, f32, f32, f32)>,
    pub accuracy: Vec<(usize, f64, f64)>,
    pub last: Option<(Snapshot, Snapshot)>,
}

pub fn jepa_view(session: &RecordedSession) -> JepaView {
    let mut accuracy: Vec<(usize, f64, f64)> = Vec::new();
    // As the live page: one point per snapshot step, in order.
    for (lm, jepa) in session.snapshots.iter().filter(|(lm, jepa)| lm.step == jepa.step) {
        if accuracy.last().is_none_or(|last| last.0 < lm.step) {
            accuracy.push((lm.step, lm.semantic, jepa.semantic));
        }
    }
    JepaView {
        curve: session.progress.iter().map(|p| (p.step, p.ce.0, p.ce.1, p.jepa_cos)).collect(),
        accuracy,
        last: session.snapshots.last().cloned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recorded_runs::{JEPA_RUN, RUNS_PATH};
    use crate::ui::jepa::url::{JepaSettings, jepa_matches};

    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    fn jepa_session() -> RecordedSession {
        let path = root().join(format!("public{RUNS_PATH}/{JEPA_RUN}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str(&text).unwrap()
    }

    /// `/jepa` opens on its recorded session: the page's default settings, the engine's
    /// recorded length, a progress point every 5 steps and both snapshots every 50.
    #[test]
    fn the_committed_jepa_session_is_the_pages_default_session() {
        use engine::studies::regex::session::{PROGRESS_EVERY, PROJECTED, RECORDED_STEPS, SNAPSHOT_EVERY};
        let session = jepa_session();
        let settings = JepaSettings::default();
        assert!(jepa_matches(&session, &settings), "not the default session; re-record");
        assert_eq!(session.steps, RECORDED_STEPS, "re-record with the engine's RECORDED_STEPS");
        assert!(session.steps <= crate::ui::jepa::url::MAX_LIVE_STEPS, "a session the page could train in one request");
        let steps: Vec<usize> = session.progress.iter().map(|p| p.step).collect();
        assert_eq!(steps, (1..=session.steps / PROGRESS_EVERY).map(|i| i * PROGRESS_EVERY).collect::<Vec<_>>());
        assert_eq!(session.snapshots.len(), 1 + session.steps / SNAPSHOT_EVERY);
        for (i, (lm, jepa)) in session.snapshots.iter().enumerate() {
            assert_eq!((lm.step, jepa.step), (i * SNAPSHOT_EVERY, i * SNAPSHOT_EVERY));
            assert!([lm, jepa].iter().all(|s| s.text.len() == PROJECTED && s.code.len() == PROJECTED));
        }
        let view = jepa_view(&session);
        assert_eq!((view.curve.len(), view.accuracy.len()), (session.progress.len(), session.snapshots.len()));
        assert_eq!(view.last.as_ref().map(|l| l.1.step), Some(session.steps - session.steps % SNAPSHOT_EVERY));
        // What the page's text says a class sees: the JEPA model's views aligned, the LM's not.
        let (lm, jepa) = view.last.unwrap();
        assert!(jepa.cosine > lm.cosine + 0.3, "cos {} vs {}", jepa.cosine, lm.cosine);
        // Other settings are another session.
        for other in [
            JepaSettings { seed: 1, ..settings.clone() },
            JepaSettings { lambda: 2.0, ..settings.clone() },
            JepaSettings { k: 2, ..settings.clone() },
            JepaSettings { trained: true, ..settings.clone() },
        ] {
            assert!(!jepa_matches(&session, &other), "{other:?}");
        }
        assert!(jepa_matches(&session, &JepaSettings { run: true, ..settings }), "the run flag is not a setting of the session");
    }
}
