//! The contract every page's URL state keeps: read decoded `key=value` pairs in order (a bad
//! value noted, never an error), and write the query that reproduces the state.

use super::{fields, query};

/// The e2e tests' URL switches, which no page reads as its state (`ui/model_worker`).
pub const TEST_SWITCHES: [&str; 2] = ["gpufail", "gpuhardware"];

/// A page's share-able state, read from its URL and written back to it.
pub trait UrlState: Default {
    /// The page's path, e.g. `/nqueens`.
    const PATH: &'static str;

    /// Applies one decoded `key=value`: a bad value keeps the current one and leaves a note.
    /// Returns false for a key the page does not read.
    fn apply(&mut self, key: &str, value: &str, notes: &mut Vec<String>) -> bool;

    /// The query string (without `?`) that reproduces this state.
    fn to_query(&self) -> String;

    /// Keys read before all others, in their order: those that set the defaults of the rest.
    fn read_first(_key: &str) -> bool {
        false
    }

    /// Reads decoded query parameters in order, [`UrlState::read_first`]'s keys first (a later
    /// value wins); returns the state and one note per value that was ignored, in the query's order.
    fn from_pairs(pairs: &[(String, String)]) -> (Self, Vec<String>) {
        let mut state = Self::default();
        let mut notes: Vec<(usize, String)> = Vec::new();
        let (first, rest): (Vec<_>, Vec<_>) = pairs.iter().enumerate().partition(|(_, (key, _))| Self::read_first(key));
        for (i, (key, value)) in first.into_iter().chain(rest) {
            let mut own = Vec::new();
            // The e2e tests' switches, read by the worker's link: `gpufail` injects a WebGPU
            // failure, `gpuhardware` presents a software adapter as a hardware one.
            if !state.apply(key, value, &mut own) && !TEST_SWITCHES.contains(&key.as_str()) {
                own.push(fields::unknown(key));
            }
            notes.extend(own.into_iter().map(|note| (i, note)));
        }
        notes.sort_by_key(|(i, _)| *i);
        (state, notes.into_iter().map(|(_, note)| note).collect())
    }

    /// [`UrlState::from_pairs`] of a raw query string (`?` optional), decoded as the browser does.
    fn from_query(query: &str) -> (Self, Vec<String>) {
        Self::from_pairs(&query::decode(query))
    }
}
