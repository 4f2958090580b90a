//! A Sudoku grid as a small SVG picture (samples, the vote).

use engine::tasks::sudoku::SudokuGrid;
use leptos::prelude::*;

/// A 9x9 grid as a picture: givens in the given colour, the model's digits green where they match
/// the solution and red where they do not, unfilled cells empty. `wrong` cells also get a red square.
pub fn mini_grid(grid: &SudokuGrid, puzzle: &SudokuGrid, solution: Option<&SudokuGrid>) -> impl IntoView + use<> {
    let wrong: Vec<usize> = (0..81).filter(|&i| puzzle.get(i) == 0 && solution.is_some_and(|s| s.get(i) != grid.get(i))).collect();
    picture(grid, puzzle, &wrong)
}

/// A grid with no puzzle or solution behind it (`/generate`'s samples): the cells in a clash (a
/// digit repeated in a row, column or box, by the engine's rules) red.
pub fn mini_grid_clashes(grid: &SudokuGrid) -> impl IntoView + use<> {
    picture(grid, &SudokuGrid::empty(), &grid.conflicts())
}

fn picture(grid: &SudokuGrid, puzzle: &SudokuGrid, wrong: &[usize]) -> impl IntoView + use<> {
    let digits = (0..81)
        .filter(|&i| grid.get(i) != 0)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let class = if puzzle.get(i) != 0 {
                "d given"
            } else if wrong.contains(&i) {
                "d wrong"
            } else {
                "d"
            };
            view! { <text x=c as f64 + 0.5 y=r as f64 + 0.78 class=class text-anchor="middle">{grid.get(i).to_string()}</text> }
        })
        .collect_view();
    let wrong = wrong.iter().map(|i| format!("M{} {}h1v1h-1z", i % 9, i / 9)).collect::<String>();
    view! {
        <svg class="mini-grid" viewBox="0 0 9 9" aria-hidden="true">
            <rect width="9" height="9" class="bg"/>
            <path d=wrong class="wrong-cell"/>
            <path d="M3 0v9M6 0v9M0 3h9M0 6h9" class="box"/>
            {digits}
        </svg>
    }
}
