//! `split`: the inputs of one part of a task's split, one per line, in the task's text format.

use std::io::Write;
use std::process::ExitCode;

use engine::tasks::{Part, Task, TaskId, TokenTask};

use engine::tasks::registry::{TaskVisitor, visit};

pub fn split(task: &str, part: &str, hardest_of: Option<usize>) -> Result<ExitCode, String> {
    let part = Part::parse(part).ok_or_else(|| format!("--part must be train, validation or test, not {part:?}"))?;
    let lines = if let Some(k) = hardest_of {
        if task != "sudoku" {
            return Err(format!("--hardest-of rates Sudoku puzzles; not {task}"));
        }
        engine::tasks::sudoku::rated_set(part, k, engine::tasks::sudoku::RATED_COUNT).iter().map(|i| i.puzzle.to_text()).collect()
    } else if task == "regex" {
        // Paired views: `description<TAB>regex`.
        engine::studies::regex::pairs(part).into_iter().map(|p| format!("{}\t{}", p.description, p.regex)).collect()
    } else {
        visit(TaskId::parse(task).map_err(|e| format!("{e}, regex"))?, SplitLines(part))
    };
    let mut out = std::io::stdout().lock();
    for line in lines {
        writeln!(out, "{line}").map_err(|e| e.to_string())?;
    }
    Ok(ExitCode::SUCCESS)
}

struct SplitLines(Part);

impl TaskVisitor for SplitLines {
    type Output = Vec<String>;

    fn gram<T: TokenTask>(self, task: &T) -> Vec<String> {
        self.other(task)
    }

    fn other<T: Task>(self, task: &T) -> Vec<String> {
        task.instances(self.0).iter().map(|i| task.puzzle_text(task.puzzle_of(i))).collect()
    }
}
