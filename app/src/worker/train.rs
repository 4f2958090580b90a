//! `/train`'s side of the worker: one model (GRAM or TRM) trained from scratch with the engine's
//! training step (`engine::training::Trainer`, the one `native-trainer train` runs), stepped
//! between the worker's messages; a curve point every few steps, the held-out measure every
//! few more (`engine::training::held_out`), and the weights as files on request. Always on
//! burn-flex: a training step reads its loss back at once, which WebGPU in a browser cannot do
//! synchronously.
//!
//! The model outlives a pause: it is taken out of the worker's state while it trains and put
//! back when a `Cancel` (pause) or a newer request stops it, so "resume" continues it.

use std::cell::RefCell;
use std::rc::Rc;

use burn::tensor::Device;
use engine::tasks::TaskId;
use engine::training::{HeldOut, TrainSpec, Trainer};
use engine::weights::browser::browser_weights;

use super::{State, now};
use crate::protocol::{CurvePoint, Response, TRAIN_WIDTHS as WIDTHS, TrainProgress, TrainRequest, TrainStart, TrainedWeights};

/// A model in training and what the page has been shown of it.
pub(super) struct TrainSession {
    trainer: Trainer,
    curve: Vec<CurvePoint>,
    /// Seconds of training steps so far (the held-out measures apart).
    seconds: f64,
}

impl TrainSession {
    /// The model's files, as `native-trainer` reads them.
    pub(super) fn files(&self) -> TrainedWeights {
        let (bpk, manifest) = browser_weights(&self.trainer, self.seconds, &self.curve);
        TrainedWeights { name: manifest.name.clone(), bpk, manifest: manifest.to_json() }
    }

    fn fits(&self, spec: &TrainSpec, seed: u64) -> bool {
        self.trainer.spec == *spec && self.trainer.seed == seed
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
    let spec = TrainSpec::of_task(task, req.guidance).ok_or_else(|| format!("{} has no training recipe", req.task))?;
    Ok(TrainSpec { config: spec.config.clone().with_d_model(req.width), ..spec })
}

fn learnable() -> String {
    engine::tasks::registry::LEARNABLE.iter().map(|t| t.id()).collect::<Vec<_>>().join(", ")
}

/// Answers a pending download, if the page asked for one.
fn serve_download(state: &Rc<RefCell<State>>, session: Option<&TrainSession>, respond: &dyn Fn(Response)) {
    if std::mem::take(&mut state.borrow_mut().download_wanted) {
        respond(Response::Trained(session.map(TrainSession::files).ok_or_else(|| "nothing has been trained yet".to_string())));
    }
}

/// A download asked for while nothing trains.
pub(super) fn download(state: &Rc<RefCell<State>>, respond: &dyn Fn(Response)) {
    let session = state.borrow_mut().train.take();
    serve_download(state, session.as_ref(), respond);
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
        None => TrainSession { trainer: Trainer::new(spec, req.seed, &Device::flex())?, curve: Vec::new(), seconds: 0.0 },
    };
    let held_out = HeldOut { inputs: req.inputs, samples: req.samples };
    let stop_at = session.trainer.steps_taken() + req.steps;
    let (mut loss, mut valid, mut millis, mut n) = (0.0f32, 0.0f64, 0.0f64, 0usize);
    let mut failed = None;
    while session.trainer.steps_taken() < stop_at {
        gloo_timers::future::TimeoutFuture::new(0).await;
        serve_download(state, Some(&session), respond);
        if !state.borrow().is_current(req.run) {
            break;
        }
        let t0 = now();
        let out = match session.trainer.step() {
            Ok(out) => out,
            Err(d) => {
                failed = Some(format!(
                    "training diverged at step {} (a loss term was {}); restart with another seed",
                    session.trainer.steps_taken() + 1,
                    d.value
                ));
                break;
            }
        };
        let spent = now() - t0;
        (millis, n) = (millis + spent, n + 1);
        session.seconds += spent / 1000.0;
        loss += out.ce + out.kl;
        valid += out.valid;
        let step = session.trainer.steps_taken();
        if step % req.point_every == 0 {
            let measured = (step % req.measure_every == 0).then(|| {
                let t1 = now();
                let score = session.trainer.held_out(held_out);
                ((score.accuracy, score.coverage), now() - t1)
            });
            let point = CurvePoint {
                step,
                seconds: session.seconds,
                loss: loss / n as f32,
                valid: valid / n as f64,
                held_out: measured.map(|(s, _)| s),
            };
            session.curve.push(point);
            respond(Response::TrainProgress(TrainProgress {
                run: req.run,
                point,
                millis_per_step: millis / n as f64,
                measure_millis: measured.map(|(_, ms)| ms),
            }));
            (loss, valid, millis, n) = (0.0, 0.0, 0.0, 0);
        }
    }
    let step = session.trainer.steps_taken();
    state.borrow_mut().train = Some(session);
    respond(Response::TrainPaused { run: req.run, step });
    failed.map_or(Ok(()), Err)
}
