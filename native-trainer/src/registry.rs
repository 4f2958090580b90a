//! The one place a task id becomes a task. Every command (`eval`, `solve`, `split`, `export`,
//! `bench`) is written once over the engine's task interface and reaches its task through
//! [`visit`]; a new task adds its line here and its entry in `engine::tasks::registry`.

use engine::tasks::nqueens::NQueens;
use engine::tasks::sudoku::Sudoku;
use engine::tasks::tree::Trees;
use engine::tasks::{Task, TaskId, TokenTask};

/// What a command does with a task, written once for every task: GRAM/TRM tasks (tokens in and
/// out) and tasks another model solves (the JEPA-Reasoner's trees).
pub trait TaskVisitor {
    type Output;
    fn gram<T: TokenTask>(self, task: &T) -> Self::Output;
    fn other<T: Task>(self, task: &T) -> Self::Output;
}

/// Runs `visitor` on the task `id` names.
pub fn visit<V: TaskVisitor>(id: TaskId, visitor: V) -> V::Output {
    match id {
        TaskId::NQueens(n) => visitor.gram(&NQueens::new(n)),
        TaskId::Sudoku => visitor.gram(&Sudoku),
        TaskId::Tree => visitor.other(&Trees),
    }
}
