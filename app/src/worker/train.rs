//! `/train`'s side of the worker: one model (GRAM or TRM) trained from scratch with the engine's
//! training step, through the engine's curve ([`CurveRun`], what `native-trainer record --task
//! train` steps too), stepped between the worker's messages: a curve point every few steps, the
//! held-out measure every few more, and on request the weights as files or a trial ("Try it":
//! the model as it is solves a held-out input). Always on burn-flex: a training step reads its
//! loss back at once, which WebGPU in a browser cannot do synchronously.
//!
//! The model outlives a pause: it is taken out of the worker's state while it trains and put
//! back when a `Cancel` (pause) or a newer request stops it, so "resume" continues it.

use std::cell::RefCell;
use std::rc::Rc;

use burn::tensor::Device;
use engine::tasks::TaskId;
use engine::training::curve::{Cadence, CurveRun};
use engine::training::{HeldOut, TrainSpec, Trainer};
use engine::weights::browser::browser_weights;

use super::{State, now};
use crate::protocol::{Response, TRAIN_WIDTHS as WIDTHS, TrainProgress, TrainRequest, TrainStart, TrainedWeights, Trial, TryRequest};

/// A model in training and the curve drawn of it.
pub(super) struct TrainSession(CurveRun);

/// What the page asked of the model and has not had yet.
#[derive(Default)]
pub(super) struct Wanted {
    pub(super) download: bool,
    pub(super) trial: Option<TryRequest>,
}

impl TrainSession {
    /// The model's files, as `native-trainer` reads them.
    fn files(&self) -> TrainedWeights {
        let (bpk, manifest) = browser_weights(&self.0);
        TrainedWeights { name: manifest.name.clone(), bpk, manifest: manifest.to_json() }
    }

    /// The model as it is now on one held-out input.
    fn trial(&self, req: &TryRequest) -> Result<Trial, String> {
        if !(1..=64).contains(&req.samples) {
            return Err(format!("a trial draws 1 to 64 samples (asked for {})", req.samples));
        }
        let t0 = now();
        let trainer = &self.0.trainer;
        let answers =
            engine::training::trial::trial(trainer.spec.task, &trainer.model(), &req.puzzle, req.samples, req.seed, &Device::flex())
                .map_err(|e| e.to_string())?;
        Ok(Trial { puzzle: req.puzzle.clone(), answers, step: trainer.steps_taken(), millis: now() - t0 })
    }

    fn fits(&self, spec: &TrainSpec, seed: u64) -> bool {
        self.0.trainer.spec == *spec && self.0.trainer.seed == seed
    }
}

/// The run a request asks for: the task's recipe at the request's width.
fn spec_of(req: &TrainRequest) -> Result<TrainSpec, String> {
    let task = TaskId::parse(&req.task).map_err(|e| e.to_string())?;
    if !engine::tasks::registry::LEARNABLE.contains(&task) {
        return Err(format!("{} is not a task the page trains (it trains {})", req.task, learnable()));
    }
    if !WIDTHS.contains(&req.width) {
        return Err(format!("width {} is not one the page trains at ({WIDTHS:?})", req.width));
    }
    TrainSpec::at_width(task, req.guidance, req.width)
}

fn learnable() -> String {
    engine::tasks::registry::LEARNABLE.iter().map(|t| t.id()).collect::<Vec<_>>().join(", ")
}

/// Answers what the page asked of the model, if anything.
fn serve(state: &Rc<RefCell<State>>, session: Option<&TrainSession>, respond: &dyn Fn(Response)) {
    let wanted = std::mem::take(&mut state.borrow_mut().train_wanted);
    let none = || "nothing has been trained yet".to_string();
    if wanted.download {
        respond(Response::Trained(session.map(TrainSession::files).ok_or_else(none)));
    }
    if let Some(req) = wanted.trial {
        respond(Response::Tried(session.ok_or_else(none).and_then(|s| s.trial(&req))));
    }
}

/// A download or a trial asked for while nothing trains.
pub(super) fn serve_idle(state: &Rc<RefCell<State>>, respond: &dyn Fn(Response)) {
    let session = state.borrow_mut().train.take();
    serve(state, session.as_ref(), respond);
    state.borrow_mut().train = session;
}

pub(super) async fn train_request(state: &Rc<RefCell<State>>, req: TrainRequest, respond: &dyn Fn(Response)) -> Result<(), String> {
    let spec = spec_of(&req)?;
    if !(1..=100_000).contains(&req.steps)
        || req.point_every == 0
        || req.measure_every == 0
        || req.inputs == 0
        || !(1..=64).contains(&req.samples)
    {
        return Err("steps 1 to 100000, points and measures every 1 or more steps, 1 or more inputs, 1 to 64 samples".into());
    }
    let kept = state.borrow_mut().train.take().filter(|s| req.start == TrainStart::Continue && s.fits(&spec, req.seed));
    let mut session = match kept {
        Some(s) => s,
        None => TrainSession(CurveRun::new(Trainer::new(spec, req.seed, &Device::flex())?)),
    };
    let cadence = Cadence {
        point_every: req.point_every,
        measure_every: req.measure_every,
        held_out: HeldOut { inputs: req.inputs, samples: req.samples },
    };
    let stop_at = session.0.trainer.steps_taken() + req.steps;
    let mut failed = None;
    while session.0.trainer.steps_taken() < stop_at {
        super::turn::next_turn().await;
        serve(state, Some(&session), respond);
        if !state.borrow().is_current(req.run) {
            break;
        }
        match session.0.step(cadence, &now) {
            Ok(Some(r)) => respond(Response::TrainProgress(TrainProgress {
                run: req.run,
                point: r.point,
                millis_per_step: r.millis_per_step,
                measure_millis: r.measure_millis,
            })),
            Ok(None) => {}
            Err(d) => {
                failed = Some(format!(
                    "training diverged at step {} (a loss term was {}); restart with another seed",
                    session.0.trainer.steps_taken() + 1,
                    d.value
                ));
                break;
            }
        }
    }
    let step = session.0.trainer.steps_taken();
    state.borrow_mut().train = Some(session);
    respond(Response::TrainPaused { run: req.run, step });
    failed.map_or(Ok(()), Err)
}
