//! Context-free grammar sequences (the JEPA-Reasoner paper, section 5.2 and appendix B): the grammar the
//! JEPA-Reasoner's robustness study completes and corrupts. [`grammar`] builds a levelled
//! grammar the way Allen-Zhu & Li build theirs (five levels, three terminals, rules of length 3
//! or 4) and samples sequences from it; [`parse`] says whether a sequence derives from the root
//! (or begins one that does) by dynamic programming over spans, and recovers its parse tree;
//! [`data`] holds the split, tokens and completion instances; [`models`] the three model
//! families (T, C, R with its Talkers) in one weights file; [`complete`] runs each;
//! [`sweep`] measures them under token corruption and latent noise, [`floor`] and
//! [`ceiling`] bound it (a completion that reads nothing, and the Bayes-optimal one); [`explore`] is what
//! `/grammar` shows of one sequence, [`recorded`] that view recorded ahead for the page.

pub mod batch;
pub mod ceiling;
pub mod complete;
pub mod data;
pub mod explore;
pub mod floor;
// The study is named after its subject; `grammar::grammar` is the grammar itself (its rules).
#[allow(clippy::module_inception)]
pub mod grammar;
pub mod models;
pub mod parse;
pub mod recorded;
pub mod sweep;

#[cfg(test)]
mod model_tests;

pub use grammar::{Grammar, GrammarSpec, Symbol};
pub use parse::{Chart, Tree};
