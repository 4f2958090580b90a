//! The page's held-out measure of a run in training: `inputs` graphs (or boards) of the task's
//! validation part, spread over it, each sampled `samples` times with the task's own inference
//! defaults (steps, guidance scale, settled steps), seed 0: exactly what
//! `native-trainer eval --weights W --part validation --limit INPUTS --samples SAMPLES` computes,
//! so a visitor's downloaded weights give there the figures the page showed (a test in the
//! trainer's `tests/page_training.rs` holds it). The test split is never read here.

use burn::tensor::Device;

use crate::gram::{Gram, SampleOptions};
use crate::solve::evaluate_selected;
use crate::tasks::split::Part;
use crate::tasks::{Report, Task, TaskId, TaskVisitor, TokenTask, spread, visit};

/// How much of the validation part a measure reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HeldOut {
    pub inputs: usize,
    pub samples: usize,
}

/// What the measure found: the first sample's accuracy and the task's second figure
/// (coverage@N for a listed task), in percent, as `eval` prints them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldOutScore {
    pub accuracy: f64,
    pub coverage: f64,
}

struct Measure<'a> {
    model: &'a Gram,
    held_out: HeldOut,
    device: &'a Device,
}

impl TaskVisitor for Measure<'_> {
    type Output = HeldOutScore;
    fn gram<T: TokenTask>(self, task: &T) -> HeldOutScore {
        let options = sampled_as_eval(task, self.held_out.samples);
        on_validation(task, self.model, self.held_out.inputs, &options, task.eval_batch(), self.device)
    }
    fn other<T: Task>(self, _task: &T) -> HeldOutScore {
        unreachable!("GRAM/TRM runs train token tasks")
    }
}

/// `samples` samples of `task`'s inference defaults (steps, guidance scale, settled steps), seed
/// 0: how `eval` samples, and the page's measure and "Try it" with it.
pub(super) fn sampled_as_eval<T: TokenTask>(task: &T, samples: usize) -> SampleOptions {
    let defaults = task.inference_defaults();
    SampleOptions {
        samples,
        guidance_scale: defaults.guidance_scale,
        max_steps: defaults.steps,
        settle: task.default_settle(),
        ..SampleOptions::default()
    }
}

/// `model` (off the autodiff graph) on `inputs` inputs of `task`'s validation part spread over
/// it, sampled as `options` says, `chunk` inputs to a batch: the page's measure and the
/// trainer's quick eval (`super::listed`) alike.
pub(super) fn on_validation<T: TokenTask>(
    task: &T,
    model: &Gram,
    inputs: usize,
    options: &SampleOptions,
    chunk: usize,
    device: &Device,
) -> HeldOutScore {
    let instances = spread(&task.instances(Part::Validation), inputs);
    let (report, _) = evaluate_selected(task, model, &instances, options, &[], chunk, device, |_, _| {});
    let (accuracy, coverage, _) = report.record();
    HeldOutScore { accuracy, coverage }
}

/// The measure of `model` (off the autodiff graph) on `task`'s validation part.
pub fn measure(task: TaskId, model: &Gram, held_out: HeldOut, device: &Device) -> HeldOutScore {
    visit(task, Measure { model, held_out, device })
}
