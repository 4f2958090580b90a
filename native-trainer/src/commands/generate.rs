//! `generate`: samples drawn from nothing by generation weights (the GRAM paper's p(x), section 3.3:
//! the constant input, the stochastic recursion, the decoder's answer), one JSON line each,
//! `{"sample": TEXT, "valid": bool}`, TEXT in the task's answer format (an N-Queens board: `Q`/`.`,
//! row-major; a digit: 28 rows of `0`/`1` joined by `/`, without `valid`: digits have no rule).
//! A Sudoku grid is 81 digits, row-major. N-Queens and Sudoku completion weights (`nqueens8`,
//! `sudoku`) are run on the empty board or grid: the baseline.

use std::path::Path;
use std::process::ExitCode;

use burn::tensor::Device;
use engine::gram::{Gram, SampleOptions};
use engine::solve::solve;
use engine::tasks::boards::{QueensBoards, SudokuGrids};
use engine::tasks::digits::{Digit, Digits};
use engine::tasks::sudoku::SudokuGrid;
use engine::tasks::{TaskId, TokenTask};
use serde_json::json;

use super::sampling::{check_ranges, named_task, task_of};
use crate::gram::weights::load_weights;

pub fn generate(weights: &Path, options: SampleOptions, device: &Device) -> Result<ExitCode, String> {
    check_ranges(&options)?;
    let (model, config, manifest) = load_weights(weights, device)?;
    let lines = match task_of(&config, named_task(weights, manifest.as_ref()).as_deref())? {
        // N-Queens completion weights asked to complete the empty board: the baseline a
        // generation model is measured against (they never saw an input with no queen).
        TaskId::QueensBoards(n) | TaskId::NQueens(n) => {
            let task = QueensBoards::new(n);
            sample_lines(&task, &task.instance().puzzle, true, &model, &options, device)
        }
        // Sudoku completion weights on the empty grid: the baseline, as for N-Queens.
        TaskId::SudokuGrids | TaskId::Sudoku => sample_lines(&SudokuGrids, &SudokuGrid::empty(), true, &model, &options, device),
        // The one input (every part's instance holds it); digits have no rule, so no `valid`.
        TaskId::Digits => sample_lines(&Digits, &Digit::blank(), false, &model, &options, device),
        other => {
            return Err(format!(
                "{} holds a {} model, which completes puzzles (use solve); generate needs generation weights, e.g. nqueens8-boards, sudoku-grids or digits (train --preset gram-nqueens8-boards, gram-sudoku-grids, gram-digits), or N-Queens or Sudoku weights (run on the empty board or grid)",
                weights.display(),
                other.id()
            ));
        }
    };
    for line in lines {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// `options.samples` samples of `task` drawn from its one `input`, one JSON line each:
/// `{"sample": TEXT}`, with `"valid"` (the task's rule check) when `with_valid`.
fn sample_lines<T: TokenTask>(
    task: &T,
    input: &T::Puzzle,
    with_valid: bool,
    model: &Gram,
    options: &SampleOptions,
    device: &Device,
) -> Vec<String> {
    let solved = solve(task, model, std::slice::from_ref(input), options, task.default_selection(), 1, device);
    solved[0]
        .samples
        .iter()
        .map(|a| {
            let mut line = json!({ "sample": task.answer_text(a) });
            if with_valid {
                line["valid"] = json!(task.is_valid(input, a));
            }
            line.to_string()
        })
        .collect()
}
