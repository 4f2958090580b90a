//! The training pairs of a task whose oracle lists every answer (N-Queens, graph colouring):
//! every (input, answer) pair of its train part, drawn uniformly, each draw a random
//! answer-preserving copy when asked (`train --augment`) and the task makes one; and the quick
//! evaluation on its validation part. Written once over the task interface: a new listed task
//! needs nothing here.
//!
//! The test part is out of reach: [`Listed`] holds the train and validation parts only, so
//! nothing chosen during training (quick evals, when to stop) ever looks at the test split.

use burn::tensor::Device;

use super::held_out::on_validation;
use super::source::{Pair, TrainSource};
use crate::gram::noise::NoiseSource;
use crate::gram::{Gram, SampleOptions};
use crate::tasks::split::Part;
use crate::tasks::{Task, TaskId, TaskVisitor, TokenTask, visit};

/// Every (input, answer) pair of a listed task's train part: `inputs[i]` with `targets[i][s]`.
pub struct Listed {
    pub task: TaskId,
    pub inputs: Vec<Vec<u32>>,
    pub targets: Vec<Vec<Vec<u32>>>,
    pub pairs: Vec<(usize, usize)>,
    /// Inputs in the validation part.
    pub validation: usize,
    /// Each draw a random answer-preserving copy (`TokenTask::augment`).
    pub augment: bool,
}

/// A listed task's train part as tokens, and the size of its validation part.
struct ListTrain;

impl TaskVisitor for ListTrain {
    type Output = (Vec<Vec<u32>>, Vec<Vec<Vec<u32>>>, usize);
    fn gram<T: TokenTask>(self, task: &T) -> Self::Output {
        let train = task.instances(Part::Train);
        let inputs = train.iter().map(|i| task.tokens(task.puzzle_of(i))).collect();
        let targets = train.iter().map(|i| task.targets(i)).collect();
        (inputs, targets, task.instances(Part::Validation).len())
    }
    fn other<T: Task>(self, _task: &T) -> Self::Output {
        unreachable!("GRAM/TRM presets train token tasks")
    }
}

/// The task's check of a training prediction against its input.
struct Reward<'a> {
    x: &'a [u32],
    prediction: &'a [u32],
}

impl TaskVisitor for Reward<'_> {
    type Output = bool;
    fn gram<T: TokenTask>(self, task: &T) -> bool {
        task.is_right_prediction(self.x, self.prediction)
    }
    fn other<T: Task>(self, _task: &T) -> bool {
        unreachable!("GRAM/TRM presets train token tasks")
    }
}

/// Whether `prediction` is a valid answer to the input `x` of `task` (its validator).
pub fn is_right(task: TaskId, x: &[u32], prediction: &[u32]) -> bool {
    visit(task, Reward { x, prediction })
}

/// A random answer-preserving copy of a training pair, where the task makes one.
struct Augment<'a> {
    x: &'a [u32],
    y: &'a [u32],
    rng: &'a mut NoiseSource,
}

impl TaskVisitor for Augment<'_> {
    type Output = Option<(Vec<u32>, Vec<u32>)>;
    fn gram<T: TokenTask>(self, task: &T) -> Self::Output {
        task.augment(self.x, self.y, self.rng)
    }
    fn other<T: Task>(self, _task: &T) -> Self::Output {
        unreachable!("GRAM/TRM presets train token tasks")
    }
}

/// Draws of a copy before a draw falls back to the pair as it is (a copy outside the train part
/// is drawn again).
const AUGMENT_TRIES: usize = 4;

/// Accuracy and the task's second figure on `inputs` validation instances.
struct QuickEval<'a> {
    model: &'a Gram,
    inputs: usize,
    options: SampleOptions,
    device: &'a Device,
}

impl TaskVisitor for QuickEval<'_> {
    type Output = (f64, f64);
    fn gram<T: TokenTask>(self, task: &T) -> (f64, f64) {
        let score = on_validation(task, self.model, self.inputs, &self.options, 32, self.device);
        (score.accuracy, score.coverage)
    }
    fn other<T: Task>(self, _task: &T) -> (f64, f64) {
        unreachable!("GRAM/TRM presets train token tasks")
    }
}

/// The quick evals' sampling: 5 samples of 8 steps, no halting.
pub fn quick_options() -> SampleOptions {
    SampleOptions { samples: 5, max_steps: 8, halting: false, ..SampleOptions::default() }
}

impl Listed {
    /// The train part of `task` (a listed task: its oracle gives every answer). `augment`: draw
    /// answer-preserving copies; an error when the task makes none.
    pub fn new(task: TaskId, augment: bool) -> Result<Listed, String> {
        let (inputs, targets, validation) = visit(task, ListTrain);
        if augment {
            // A task with no copy gives none on any draw: say so rather than train unaugmented.
            let mut rng = NoiseSource::new(0);
            let makes_copies = (0..16).any(|k| {
                let (x, y) = (&inputs[k % inputs.len()], &targets[k % inputs.len()][0]);
                visit(task, Augment { x, y, rng: &mut rng }).is_some()
            });
            if !makes_copies {
                let makers = crate::tasks::copy_maker::augmenting();
                return Err(format!("--augment: {} has no answer-preserving copy of its pairs ({makers} has)", task.id()));
            }
        }
        let pairs = targets.iter().enumerate().flat_map(|(i, t)| (0..t.len()).map(move |s| (i, s))).collect();
        Ok(Listed { task, inputs, targets, pairs, validation, augment })
    }

    /// The run's first line's account of its data.
    pub fn describe(&self) -> String {
        format!(
            "train {} inputs / {} (input, answer) pairs{}, validation {} inputs",
            self.inputs.len(),
            self.pairs.len(),
            if self.augment { " x random answer-preserving copies" } else { "" },
            self.validation
        )
    }

    /// (accuracy of the first sample, the task's second figure: coverage@N for a listed task) of
    /// `model` (off the autodiff graph) on `inputs` validation inputs spread over the part,
    /// sampled as `options` says.
    pub fn quick_eval(&self, model: &Gram, inputs: usize, options: SampleOptions, device: &Device) -> (f64, f64) {
        visit(self.task, QuickEval { model, inputs, options, device })
    }
}

impl TrainSource for Listed {
    fn draw(&self, rng: &mut NoiseSource) -> Pair {
        let (i, s) = self.pairs[rng.index(self.pairs.len())];
        let (x, y) = (&self.inputs[i], &self.targets[i][s]);
        let copy = if self.augment { (0..AUGMENT_TRIES).find_map(|_| visit(self.task, Augment { x, y, rng: &mut *rng })) } else { None };
        let (x, y) = copy.unwrap_or_else(|| (x.clone(), y.clone()));
        Pair { x, y }
    }

    fn reward(&self, pair: &Pair, prediction: &[u32]) -> f32 {
        if is_right(self.task, &pair.x, prediction) { 1.0 } else { 0.0 }
    }
}
