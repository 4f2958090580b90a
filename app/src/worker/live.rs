//! `/jepa`'s side of the worker: the engine's training [`Session`] (two small language models
//! of the regex task, LM only and LM + LLM-JEPA, trained side by side; their figures every few
//! steps and a snapshot every 50), stepped between the worker's messages: this file keeps the
//! loop, cancellation, timing and the messages. Always on burn-flex: a training step reads its
//! loss back at once, which WebGPU in a browser cannot do synchronously.
//!
//! The session outlives a pause: it is taken out of the worker's state while it trains and put
//! back when a `Cancel` (pause) or a newer request stops it, so "continue" resumes the same
//! models.

use std::cell::RefCell;
use std::rc::Rc;

use burn::module::Module;
use burn::tensor::Device;
use engine::studies::regex::model::RegexModel;
use engine::studies::regex::session::{Averages, PROGRESS_EVERY, Session};
use engine::weights::regex::load_regex;

use super::manifest::{ModelManifest, manifest};
use super::{State, WEIGHTS_PATH, fetch_bytes, now};
use crate::protocol::{LiveProgress, LiveRequest, LiveStart, Response};

/// The shipped weights "start from the end of training" loads.
const TRAINED: [&str; 2] = ["regex-lm", "regex-llm-jepa"];

async fn load_trained(state: &Rc<RefCell<State>>, name: &str, respond: &dyn Fn(Response)) -> Result<(RegexModel, usize), String> {
    let manifest = match manifest(state, name).await? {
        ModelManifest::Regex(m) => m,
        other => return Err(format!("{name} holds {} weights, not a regex language model", other.family())),
    };
    let base = format!("{}{WEIGHTS_PATH}", state.borrow().site_root);
    let progress = |loaded, total| respond(Response::LoadProgress { model: name.into(), loaded, total });
    let bytes = fetch_bytes(&format!("{base}/{name}.bpk"), manifest.bytes as u64, &progress).await?;
    let model = load_regex(&manifest, &bytes, &Device::flex()).map_err(|e| format!("{name}.bpk: {e}"))?;
    respond(Response::Loaded { model: name.into(), summary: format!("{} steps of the trainer", manifest.steps) });
    Ok((model.train(), manifest.steps))
}

async fn session_for(state: &Rc<RefCell<State>>, req: &LiveRequest, ad: &Device, respond: &dyn Fn(Response)) -> Result<Session, String> {
    let kept = state.borrow_mut().live.take();
    let mut s = match (req.start, kept) {
        (LiveStart::Continue, Some(s)) => s,
        (LiveStart::Trained, _) => {
            let lm = load_trained(state, TRAINED[0], respond).await?;
            let jepa = load_trained(state, TRAINED[1], respond).await?;
            Session::from_trained(req.seed, req.lambda, req.k, lm, jepa, ad)
        }
        _ => Session::new(req.seed, req.lambda, req.k, ad),
    };
    s.retune(req.lambda, req.k);
    Ok(s)
}

fn snapshots(s: &Session, run: u64, respond: &dyn Fn(Response)) {
    let (lm, jepa) = s.snapshots(&Device::flex());
    respond(Response::LiveSnapshot { run, model: "lm".into(), snapshot: lm });
    respond(Response::LiveSnapshot { run, model: "llm-jepa".into(), snapshot: jepa });
}

pub(super) async fn live_request(state: &Rc<RefCell<State>>, req: LiveRequest, respond: &dyn Fn(Response)) -> Result<(), String> {
    if !(req.lambda.is_finite() && (0.0..=4.0).contains(&req.lambda)) || req.k > 4 || !(1..=100_000).contains(&req.steps) {
        return Err(format!("lambda is 0 to 4, k 0 to 4 and steps 1 to 100000 (got {}, {}, {})", req.lambda, req.k, req.steps));
    }
    let ad = Device::flex().autodiff();
    let mut s = session_for(state, &req, &ad, respond).await?;
    if req.start != LiveStart::Continue {
        snapshots(&s, req.run, respond);
    }
    // Progress every PROGRESS_EVERY steps of this request, timed here (the worker's clock).
    let (mut averages, mut millis) = (Averages::default(), 0.0f64);
    let stop_at = s.step_count() + req.steps;
    while s.step_count() < stop_at {
        super::turn::next_turn().await;
        if !state.borrow().is_current(req.run) {
            break;
        }
        let t0 = now();
        let stepped = s.step(&mut averages, &ad);
        millis += now() - t0;
        if let Some(p) = stepped.progress {
            respond(Response::LiveProgress(LiveProgress {
                run: req.run,
                step: p.step,
                ce: p.ce,
                jepa_cos: p.jepa_cos,
                millis_per_step: millis / PROGRESS_EVERY as f64,
            }));
            millis = 0.0;
        }
        if stepped.snapshot_due {
            snapshots(&s, req.run, respond);
        }
    }
    let step = s.step_count();
    state.borrow_mut().live = Some(s);
    respond(Response::LivePaused { run: req.run, step });
    Ok(())
}
