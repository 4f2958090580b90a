pub mod nqueens;
pub mod sudoku;
