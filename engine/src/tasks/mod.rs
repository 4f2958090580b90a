//! The puzzle tasks, one folder each, behind one interface ([`task`]) and one list
//! ([`registry`]): everything the trainer, the solve path and the pages ask of a task comes
//! through these two. `docs/ARCHITECTURE.md` names every file a new task touches. Studies that
//! bring their own models and sessions live in the engine's `studies` folder.

pub mod boards;
pub mod coloring;
pub mod copy;
pub mod copy_maker;
pub mod coverage;
pub mod dataset_error;
pub mod digits;
pub mod error;
pub mod import_format;
pub mod inference;
pub mod nqueens;
pub mod reason;
pub mod recipe;
pub mod registry;
pub mod split;
pub mod sudoku;
pub mod task;
pub mod test_import;
pub mod tree;

pub use copy::{Copies, InputCopy};
pub use copy_maker::CopyMaker;
pub use dataset_error::DatasetError;
pub use error::PuzzleError;
pub use import_format::{ImportFormat, ImportOption, ImportRequest, Imported};
pub use inference::InferenceDefaults;
pub use reason::TaskReason;
pub use recipe::{FullSize, TaskRecipe, Variant};
pub use registry::{TaskError, TaskId, TaskVisitor, visit};
pub use split::{Part, fnv1a64, spread};
pub use task::{Report, Solved, Task, TokenTask};
pub use test_import::TestImport;
