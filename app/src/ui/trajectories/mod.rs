//! N trajectories of GRAM on one puzzle, as `/nqueens`, `/sudoku`, `/coloring` and `/generate`
//! run them (`/generate` names its button Generate and offers no verified stop and no pick:
//! `page.rs`'s `RUN_LABEL`, `VERIFIED_STOP`, `PICKS`): the run's record, its lifecycle (start,
//! stop, step reports from the worker), what every such page says about it, and the frame
//! (`shell.rs`) and sized input editor (`sized_editor.rs`) the puzzle pages share.

pub mod coverage;
pub mod instant;
pub mod latent_map;
pub mod opening;
pub mod page;
pub mod reasoner;
pub mod session;
pub mod shell;
pub mod sized_editor;
pub mod views;

/// The run's record and status line: plain Rust, tested natively (`crate::run_record`).
pub use crate::run_record as record;
