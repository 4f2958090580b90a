//! The contract every page's URL state keeps: read decoded `key=value` pairs in order (a bad
//! value noted, never an error), and write the query that reproduces the state.

use super::{fields, query};

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
