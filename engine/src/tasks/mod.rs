pub mod nqueens;
pub mod sudoku;
pub mod tree;
