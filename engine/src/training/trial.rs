//! `/train`'s "Try it": the model in training solves one of the held-out inputs its curves
//! measure, sampled as the measure samples (the task's inference defaults), and the page shows
//! each sample's answer. The run is the page's step loop ([`LiveRun`]) taken to its end.

use burn::tensor::Device;

use super::held_out::sampled_as_eval;
use crate::gram::Gram;
use crate::solve::Copies;
use crate::solve::error::SolveError;
use crate::solve::lane::Lane;
use crate::solve::live::{LiveRun, RunSpec};
use crate::solve::share::Share;
use crate::solve::step_answers::step_task;
use crate::tasks::split::{Part, spread};
use crate::tasks::{Task, TaskId, TaskVisitor, TokenTask, visit};

/// The puzzle texts of the `inputs` validation inputs the held-out measure reads
/// (`super::held_out`), in its order.
pub fn held_out_puzzles(task: TaskId, inputs: usize) -> Vec<String> {
    struct Puzzles(usize);
    impl TaskVisitor for Puzzles {
        type Output = Vec<String>;
        fn gram<T: TokenTask>(self, task: &T) -> Vec<String> {
            spread(&task.instances(Part::Validation), self.0).iter().map(|i| task.puzzle_text(task.puzzle_of(i))).collect()
        }
        fn other<T: Task>(self, _task: &T) -> Vec<String> {
            Vec::new()
        }
    }
    visit(task, Puzzles(inputs))
}

/// `model` (off the autodiff graph) on `puzzle`: `samples` answers as puzzle text, drawn from
/// `seed` with the task's inference defaults. A malformed puzzle is the task's sentence.
pub fn trial(task: TaskId, model: &Gram, puzzle: &str, samples: usize, seed: u64, device: &Device) -> Result<Vec<String>, SolveError> {
    struct Options(usize);
    impl TaskVisitor for Options {
        type Output = Option<crate::gram::SampleOptions>;
        fn gram<T: TokenTask>(self, task: &T) -> Self::Output {
            Some(sampled_as_eval(task, self.0))
        }
        fn other<T: Task>(self, _task: &T) -> Self::Output {
            None
        }
    }
    let step = step_task(task)?;
    let options = visit(task, Options(samples)).ok_or_else(|| SolveError::NotGram(task.id()))?;
    let spec = RunSpec {
        options: crate::gram::SampleOptions { seed, ..options },
        verified_stop: false,
        restarts: 0,
        copies: Copies::None,
        interventions: Vec::new(),
        lane: Lane::ALONE,
        share: Share::ALL,
    };
    let mut run = LiveRun::new(model, step.as_ref(), puzzle, spec, device)?;
    let mut boards = Vec::new();
    while !run.is_done() {
        boards = run.step().boards;
    }
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::coloring::{Colouring, Graph};
    use crate::training::{HeldOut, TrainSpec, Trainer};

    fn model(guidance: bool) -> Gram {
        Trainer::new(TrainSpec::at_width(TaskId::Coloring(6), guidance, 32).unwrap(), 3, &Device::flex()).unwrap().model()
    }

    /// "Try it" solves the measure's own graphs: one answer per sample, each a colouring of the
    /// graph's 6 vertices; TRM, deterministic, repeats one answer; a malformed graph is refused.
    #[test]
    fn a_trial_answers_each_sample_of_a_held_out_graph() {
        let task = TaskId::Coloring(6);
        let puzzles = held_out_puzzles(task, HeldOut { inputs: 16, samples: 10 }.inputs);
        assert_eq!(puzzles.len(), 16);
        assert!(puzzles.iter().all(|p| Graph::parse(p, 6).is_ok()), "{puzzles:?}");
        let (gram, trm) = (model(true), model(false));
        let answers = trial(task, &gram, &puzzles[0], 6, 0, &Device::flex()).unwrap();
        assert_eq!(answers.len(), 6);
        for a in &answers {
            assert!(Colouring::parse_answer(a, 6).is_ok(), "{a}");
        }
        assert_eq!(answers, trial(task, &gram, &puzzles[0], 6, 0, &Device::flex()).unwrap(), "same seed, same answers");
        let trm_answers = trial(task, &trm, &puzzles[0], 6, 0, &Device::flex()).unwrap();
        assert!(trm_answers.iter().all(|a| *a == trm_answers[0]), "{trm_answers:?}");
        let err = trial(task, &gram, "01x", 6, 0, &Device::flex()).unwrap_err();
        assert!(matches!(err, SolveError::BadPuzzle { .. }), "{err}");
    }
}
