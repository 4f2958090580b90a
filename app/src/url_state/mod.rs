//! What a teacher shares: each page's state as URL query parameters. Parsing never fails: a bad
//! value keeps its default and leaves a note the page shows, and an unknown key is noted too.
//!
//! - [`UrlState`] (in `page`): a page's state as a query, with the one parse loop;
//! - [`fields`]: the readers of single parameters and the wording of the notes;
//! - [`sampling`]: `n`, `scale`, `seed`, `steps`, `backend`, `run`, shared by the GRAM pages;
//! - [`nqueens`], [`sudoku`], [`tree`], [`coloring`], [`generate`]: each page's own parameters on top;
//! - [`query`]: query strings as text (native decoding for tests, encoding of the tree line).
//!
//! Plain Rust, tested natively (`cargo test -p app --lib`), including a fuzzer of every parser.

pub mod coloring;
pub mod fields;
pub mod generate;
pub mod grammar;
pub mod jepa;
pub mod nqueens;
mod page;
pub mod query;
pub mod sampling;
pub mod sudoku;
pub mod tree;

#[cfg(test)]
mod fuzz;

pub use page::UrlState;
