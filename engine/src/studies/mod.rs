//! The studies: experiments of the papers that bring their own models, data and sessions rather
//! than a puzzle a GRAM/TRM model solves through the task registry (`crate::tasks`).
//!
//! - [`grammar`]: context-free grammar sequences, the JEPA-Reasoner paper's robustness study
//!   (Transformer, COCONUT and the JEPA-Reasoner side by side; `/grammar`);
//! - [`regex`]: descriptions and the regexes they denote, the LLM-JEPA paper's paired views
//!   (`/jepa`);
//! - [`arith`]: multi-step arithmetic, the T-decoder-JEPA study's second task;
//! - [`arc`]: ARC-AGI grids brought by the user, GRAM on the GRAM paper's ARC representation.

pub mod arc;
pub mod arith;
pub mod grammar;
pub mod regex;
