//! The recorded `/jepa` session (`record_session`) is the session the browser's worker steps by
//! hand, rounded. Alone in its own test binary, so its own process: burn initialises parameters
//! lazily from the device's seeded generator, which is shared by every test of a binary, and a
//! test running beside this one in another thread would draw from it between the two sessions.

use burn::tensor::Device;
use engine::studies::regex::session::{Averages, PROJECTED, RecordedSession, Session, record_session};

/// The recorded session is the session stepped by hand as the worker steps it, rounded:
/// progress every 5 steps, snapshots at 0 and 50, and its JSON reads back the same. (The
/// step-0 snapshots are part of it: burn initialises parameters lazily, from the device's
/// seeded generator in the order they are first read, so reading them for the snapshot
/// before the first step gives other initial weights than a first training step would.)
#[test]
fn a_recording_is_the_session_the_worker_steps() {
    let plain = Device::flex();
    let ad = plain.clone().autodiff();
    let rec = record_session(1.0, 1, 3, 50, &plain, |_| {});
    assert_eq!((rec.progress.len(), rec.snapshots.len()), (10, 2));
    assert_eq!(rec.progress.iter().map(|p| p.step).collect::<Vec<_>>(), (1..=10).map(|i| 5 * i).collect::<Vec<_>>());
    assert_eq!((rec.snapshots[0].0.step, rec.snapshots[1].1.step), (0, 50));
    assert_eq!((rec.snapshots[1].0.text.len(), rec.snapshots[1].1.code.len()), (PROJECTED, PROJECTED));
    let mut s = Session::new(3, 1.0, 1, &ad);
    let first = s.snapshots(&plain);
    let mut averages = Averages::default();
    let mut by_hand = Vec::new();
    for _ in 0..50 {
        by_hand.extend(s.step(&mut averages, &ad).progress);
    }
    let again = RecordedSession { progress: by_hand, snapshots: vec![first, s.snapshots(&plain)], ..rec.clone() }.rounded();
    assert_eq!(again, rec);
    let first = &rec.progress[0];
    assert!(first.ce.0 > 1.0 && first.ce.1 > 1.0 && first.jepa_cos.is_finite(), "{first:?}");
    let text = serde_json::to_string(&rec).unwrap();
    assert_eq!(serde_json::from_str::<RecordedSession>(&text).unwrap(), rec);
}
