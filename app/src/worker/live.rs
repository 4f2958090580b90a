//! `/jepa`'s side of the worker: two small language models of the regex task, LM only and
//! LM + LLM-JEPA, trained side by side one step at a time with the engine's
//! [`LiveModel`], reporting their figures every few steps and a snapshot (accuracy, both views'
//! embeddings on a PCA plane) every [`SNAPSHOT_EVERY`]. Always on burn-flex: a training step
//! reads its loss back at once, which WebGPU in a browser cannot do synchronously.
//!
//! The session outlives a pause: it is taken out of the worker's state while it trains and put
//! back when a `Cancel` (pause) or a newer request stops it, so "continue" resumes the same
//! models.

use std::cell::RefCell;
use std::rc::Rc;

use burn::module::Module;
use burn::tensor::Device;
use engine::lm::llm_jepa::LlmJepa;
use engine::lm::sft::Example;
use engine::tasks::regex::live::LiveModel;
use engine::tasks::regex::model::{Objective, example};
use engine::tasks::regex::{Pair, pairs};
use engine::tasks::split::{Part, spread};
use engine::weights::regex::{RegexManifest, load_regex};

use super::{State, WEIGHTS_PATH, fetch_bytes, fetch_manifest, now};
use crate::protocol::{LiveProgress, LiveRequest, LiveStart, Response};

pub(super) const SNAPSHOT_EVERY: usize = 50;
const PROGRESS_EVERY: usize = 5;
/// Validation descriptions a snapshot judges, and pairs it projects.
const JUDGED: usize = 48;
const PROJECTED: usize = 40;
/// The shipped weights "start from the end of training" loads.
const TRAINED: [&str; 2] = ["regex-lm", "regex-llm-jepa"];

pub(super) struct Session {
    lm: LiveModel,
    jepa: LiveModel,
    data: Rc<Vec<Example>>,
    judged: Vec<Pair>,
    projected: Vec<Pair>,
}

fn objective(lambda: f64, k: usize) -> Objective {
    // No JEPA dropout live: every step shows the term's effect.
    Objective::LlmJepa(LlmJepa { k, lambda, dropout: 0.0 })
}

fn new_session(seed: u64, lambda: f64, k: usize, ad: &Device) -> Session {
    let data = pairs(Part::Train).iter().map(|p| example(&p.description, &p.regex).expect("task pairs tokenize")).collect();
    let validation = pairs(Part::Validation);
    Session {
        lm: LiveModel::new(Objective::Lm, seed, ad),
        jepa: LiveModel::new(objective(lambda, k), seed, ad),
        data: Rc::new(data),
        judged: spread(&validation, JUDGED),
        projected: spread(&validation[1..], PROJECTED),
    }
}

async fn load_trained(state: &Rc<RefCell<State>>, name: &str, respond: &dyn Fn(Response)) -> Result<(engine::tasks::regex::model::RegexModel, usize), String> {
    let text = fetch_manifest(state, name).await?;
    let manifest = RegexManifest::from_json(&text).map_err(|e| format!("{name}.json: {e}"))?;
    let base = format!("{}{WEIGHTS_PATH}", state.borrow().origin);
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
            let mut s = new_session(req.seed, req.lambda, req.k, ad);
            let (lm, steps) = load_trained(state, TRAINED[0], respond).await?;
            let (jepa, jepa_steps) = load_trained(state, TRAINED[1], respond).await?;
            s.lm = LiveModel::from_model(lm, Objective::Lm, req.seed);
            s.jepa = LiveModel::from_model(jepa, objective(req.lambda, req.k), req.seed);
            s.lm.step = steps;
            s.jepa.step = jepa_steps;
            s
        }
        _ => new_session(req.seed, req.lambda, req.k, ad),
    };
    s.jepa.objective = objective(req.lambda, req.k);
    Ok(s)
}

fn snapshots(s: &Session, run: u64, respond: &dyn Fn(Response)) {
    let plain = Device::flex();
    for (name, m) in [("lm", &s.lm), ("llm-jepa", &s.jepa)] {
        respond(Response::LiveSnapshot { run, model: name.into(), snapshot: m.snapshot(&s.judged, &s.projected, &plain) });
    }
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
    let (mut ce, mut cos, mut n, mut n_cos, mut millis) = ((0.0f64, 0.0f64), 0.0f64, 0usize, 0usize, 0.0f64);
    let stop_at = s.jepa.step + req.steps;
    while s.jepa.step < stop_at {
        gloo_timers::future::TimeoutFuture::new(0).await;
        if !state.borrow().is_current(req.run) {
            break;
        }
        let t0 = now();
        let (_, a) = s.lm.step(&s.data, &ad);
        let (_, b) = s.jepa.step(&s.data, &ad);
        millis += now() - t0;
        ce = (ce.0 + a.ce as f64, ce.1 + b.ce as f64);
        n += 1;
        if let Some(c) = b.jepa {
            cos += c as f64;
            n_cos += 1;
        }
        if n == PROGRESS_EVERY {
            let step = s.jepa.step;
            let jepa_cos = if n_cos > 0 { (cos / n_cos as f64) as f32 } else { f32::NAN };
            respond(Response::LiveProgress(LiveProgress { run: req.run, step, ce: ((ce.0 / n as f64) as f32, (ce.1 / n as f64) as f32), jepa_cos, millis_per_step: millis / n as f64 }));
            (ce, cos, n, n_cos, millis) = ((0.0, 0.0), 0.0, 0, 0, 0.0);
        }
        if s.jepa.step % SNAPSHOT_EVERY == 0 {
            snapshots(&s, req.run, respond);
        }
    }
    let step = s.jepa.step;
    state.borrow_mut().live = Some(s);
    respond(Response::LivePaused { run: req.run, step });
    Ok(())
}
