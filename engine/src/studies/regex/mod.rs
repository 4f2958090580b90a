//! Descriptions and the regexes they denote (the LLM-JEPA paper's NL-to-regex): the paired-view
//! task of the LLM-JEPA study. [`language`] enumerates the meanings, their English descriptions
//! and canonical regexes, and the split; [`syntax`] reads the regex subset Python's `re` and
//! Rust's `regex` share; [`automaton`] decides whether two regexes accept the same lines
//! (exactly, with a shortest witness when they differ); [`tokens`] is the one vocabulary;
//! [`model`] the LM; [`live`] training step by step for the browser; [`session`] `/jepa`'s two
//! models trained side by side, live or recorded; [`score`] exact and semantic match.

pub mod automaton;
pub mod language;
pub mod live;
pub mod model;
pub mod score;
pub mod session;
pub mod syntax;
pub mod tokens;

pub use automaton::{Equivalence, Nfa, equivalent, same_language};
pub use language::{Meaning, Pair, pairs};
pub use tokens::Vocab;
