pub mod nqueens;
