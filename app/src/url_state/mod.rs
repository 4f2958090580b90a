//! What a teacher shares: each page's state as URL query parameters. Parsing never fails: a bad
//! value keeps its default and leaves a note the page shows, and an unknown key is noted too.
//!
//! - [`fields`]: the readers of single parameters and the wording of the notes;
//! - [`sampling`]: `n`, `scale`, `seed`, `steps`, `backend`, `run`, shared by the GRAM pages;
//! - [`nqueens`], [`sudoku`], [`tree`]: each page's own parameters on top;
//! - [`query`]: query strings as text (native decoding for tests, encoding of the tree line).
//!
//! Plain Rust, tested natively (`cargo test -p app --lib`).

pub mod fields;
pub mod nqueens;
pub mod query;
pub mod sampling;
pub mod sudoku;
pub mod tree;


/// A page's share-able state, read from its URL and written back to it.
pub trait UrlState: Default {
    /// The page's path, e.g. `/nqueens`.
    const PATH: &'static str;

    /// Applies one decoded `key=value`: a bad value keeps the current one and leaves a note.
    /// Returns false for a key the page does not read.
    fn apply(&mut self, key: &str, value: &str, notes: &mut Vec<String>) -> bool;

    /// The query string (without `?`) that reproduces this state.
    fn to_query(&self) -> String;

    /// Reads decoded query parameters in order (a later value wins); returns the state and one
    /// note per value that was ignored.
    fn from_pairs(pairs: &[(String, String)]) -> (Self, Vec<String>) {
        let mut state = Self::default();
        let mut notes = Vec::new();
        for (key, value) in pairs {
            if !state.apply(key, value, &mut notes) {
                notes.push(fields::unknown(key));
            }
        }
        (state, notes)
    }

    /// [`UrlState::from_pairs`] of a raw query string (`?` optional), decoded as the browser does.
    fn from_query(query: &str) -> (Self, Vec<String>) {
        Self::from_pairs(&query::decode(query))
    }
}
