//! Context-free grammar sequences (seed 000, section 5.2 and appendix B): the grammar the
//! JEPA-Reasoner's robustness study completes and corrupts. [`grammar`] builds a levelled
//! grammar the way Allen-Zhu & Li build theirs (five levels, three terminals, rules of length 3
//! or 4) and samples sequences from it; [`parse`] says whether a sequence derives from the root
//! (or begins one that does) by dynamic programming over spans, and recovers its parse tree.
//! The models and the task behind the interface come with issue 22's training.

pub mod grammar;
pub mod parse;

pub use grammar::{Grammar, GrammarSpec, Symbol};
pub use parse::{Chart, Tree};
