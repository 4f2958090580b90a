//! The subcommands other than `train`, each written once over the task interface and reaching
//! its task through `engine::tasks::registry::visit`: `eval`, `solve`, `split`, `export`, `bench`,
//! `record` (and `record --task train`, `/train`'s recorded run); the terminal `demo`; `generate` (p(x)) and the digit `classifier` its metrics read;
//! `import` (`data import`), datasets the user brings. A weights file of another family goes to
//! that family's own commands (`crate::reasoner::commands`, `crate::grammar::commands`,
//! `crate::lm::commands`).

pub mod bench;
pub mod classifier;
pub mod convert;
pub mod demo;
pub mod eval;
mod eval_summary;
mod eval_tables;
pub mod export;
pub mod generate;
pub mod import;
pub mod noise;
pub mod record;
pub mod record_train;
pub mod sampling;
pub mod solve;
pub mod split;
