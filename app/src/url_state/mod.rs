//! What a teacher shares: each page's state as URL query parameters. Parsing never fails: a bad
//! value keeps its default and leaves a note the page shows, and an unknown key is noted too.
//!
//! - [`UrlState`] (in `page`): a page's state as a query, with the one parse loop;
//! - [`fields`]: the readers of single parameters and the wording of the notes;
//! - [`sampling`]: `n`, `scale`, `seed`, `steps`, `backend`, `run`, shared by the GRAM pages;
//! - [`gram_page`]: what every GRAM page's URL holds (its input, the model, the sampling), once;
//! - [`sized`]: the held-out inputs and text sizes of the pages with models of two sizes;
//! - each page's own input on top lives in its folder (`ui/<page>/url.rs`);
//! - [`query`]: query strings as text (native decoding for tests, encoding of the tree line).
//!
//! Plain Rust, tested natively (`cargo test -p app --lib`), including a fuzzer of every parser.

pub mod fields;
pub mod gram_page;
mod page;
pub mod query;
pub mod sampling;
pub mod sized;

#[cfg(test)]
mod fuzz_tests;

pub use page::UrlState;
