//! How the browser (and a recorded run) reads a puzzle and one supervision step of its
//! trajectories for the page, for any GRAM/TRM task of the registry: the puzzle's tokens, each
//! sample's answer as text, and the probabilities the page shades with. The task's own
//! [`TokenTask`] methods say each of these; [`StepTask`] is them behind one object, so the
//! worker and `record` hold "the task the manifest names" without a list of tasks of their own.

use super::error::SolveError;
use crate::gram::Observation;
use crate::gram::noise::NoiseSource;
use crate::tasks::{InputCopy, Task, TaskId, TaskVisitor, TokenTask, visit};

/// One sample's answer at a step: its text and what the page shades it with.
pub struct SampleAnswer {
    pub text: String,
    /// The task's shading ([`TokenTask::shading`]): N-Queens and its boards P(queen) per cell,
    /// Sudoku and its grids P(digit 1..9) per cell, colouring P(colour 0..3) per vertex, digits
    /// P(white) per pixel.
    pub probs: Vec<f32>,
}

/// What a step loop needs from the task a manifest names.
pub trait StepTask: Send + Sync {
    /// The task's id (`nqueens8`, `coloring10`, ...).
    fn id(&self) -> String;
    /// The puzzle text as tokens; a malformed or impossible puzzle is [`SolveError::BadPuzzle`].
    fn tokens(&self, puzzle: &str) -> Result<Vec<u32>, SolveError>;
    /// The rule check: `prediction` answers the puzzle whose tokens are `x`.
    fn is_right(&self, x: &[u32], prediction: &[u32]) -> bool;
    /// The task's measured settle fraction (`TokenTask::default_settle`).
    fn settle(&self) -> f64;
    /// Trajectory `row`'s answer after the step `obs`.
    fn answer(&self, obs: &Observation, row: usize) -> SampleAnswer;
    /// A restart's answer-preserving copy of the input `x` (`TokenTask::restart_copy`).
    fn restart_copy(&self, x: &[u32], rng: &mut NoiseSource) -> Option<InputCopy>;
}

impl<T: TokenTask> StepTask for T {
    fn id(&self) -> String {
        Task::id(self)
    }

    fn tokens(&self, puzzle: &str) -> Result<Vec<u32>, SolveError> {
        let puzzle = self.parse(puzzle).map_err(|source| SolveError::BadPuzzle { noun: self.puzzle_noun(), source })?;
        Ok(TokenTask::tokens(self, &puzzle))
    }

    fn is_right(&self, x: &[u32], prediction: &[u32]) -> bool {
        self.is_right_prediction(x, prediction)
    }

    fn settle(&self) -> f64 {
        self.default_settle()
    }

    fn answer(&self, obs: &Observation, row: usize) -> SampleAnswer {
        let answer = self.answer_from_prediction(&obs.predictions[row]);
        SampleAnswer { text: self.answer_text(&answer), probs: self.shading(obs, row) }
    }

    fn restart_copy(&self, x: &[u32], rng: &mut NoiseSource) -> Option<InputCopy> {
        TokenTask::restart_copy(self, x, rng)
    }
}

/// The step loop's view of the task `task` (a manifest's id) names, through the registry.
pub fn step_task(task: TaskId) -> Result<Box<dyn StepTask>, SolveError> {
    struct Boxed;
    impl TaskVisitor for Boxed {
        type Output = Result<Box<dyn StepTask>, SolveError>;
        fn gram<T: TokenTask>(self, task: &T) -> Self::Output {
            Ok(Box::new(task.clone()))
        }
        fn other<T: Task>(self, task: &T) -> Self::Output {
            Err(SolveError::NotGram(task.id()))
        }
    }
    visit(task, Boxed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::PuzzleError;
    use crate::tasks::registry::ALL;
    use crate::tasks::sudoku::{GridError, SudokuError, SudokuProblem};

    /// Every GRAM/TRM task of the registry has a step loop view, and it reads its own puzzle text.
    #[test]
    fn every_token_task_reaches_the_step_loop() {
        for t in ALL {
            match step_task(t) {
                Ok(s) => assert_eq!(s.id(), t.id()),
                Err(e) => assert!(t == TaskId::Tree && e == SolveError::NotGram("tree".into()), "{e}"),
            }
        }
        let queens = step_task(TaskId::NQueens(8)).unwrap();
        assert!(queens.tokens("QQ").unwrap_err().to_string().starts_with("bad board: "));
        assert!(step_task(TaskId::Coloring(8)).unwrap().tokens("1").unwrap_err().to_string().starts_with("bad graph: "));
        let bad = step_task(TaskId::Sudoku).unwrap().tokens("1").unwrap_err();
        assert_eq!(bad, SolveError::BadPuzzle { noun: "puzzle", source: PuzzleError::from(GridError::Length(1)) });
        assert_eq!(bad.to_string(), "bad puzzle: a Sudoku has 81 cells, this line has 1");
        // A proper grid the oracle refuses is the task's reason, wrapped whole.
        let empty = step_task(TaskId::Sudoku).unwrap().tokens(&".".repeat(81)).unwrap_err();
        assert_eq!(
            empty,
            SolveError::BadPuzzle { noun: "puzzle", source: SudokuError::Impossible(SudokuProblem::SeveralSolutions).into() }
        );
        assert_eq!(empty.to_string(), "bad puzzle: impossible puzzle: this puzzle has more than one solution");
        assert_eq!(step_task(TaskId::Tree).err().map(|e| e.to_string()), Some("tree weights are not GRAM/TRM weights".into()));
    }
}
