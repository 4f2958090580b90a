//! A file from elsewhere as a task writes it: `native-trainer data import --format NAME` checks
//! the flags it was given against the options the format takes, reads the input, and writes what
//! the task's importer makes of it (its files, a manifest, and the lines to print). The trainer
//! reads any task's format through this, so a task with an import needs no code of its own in
//! the trainer's `data import`; [`super::test_import`] is how `eval --data` reads one back.

use serde_json::Value;

/// An option of `data import` beyond its input and output; a format names those it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportOption {
    /// `--test`: a test set for `eval --data`.
    Test,
    /// The models' size the puzzles are for (colouring's `--vertices`).
    Size,
    /// `--subsample N`: keep this many, chosen by the seed.
    Subsample,
    /// `--min-difficulty R`: keep those rated at least this.
    MinDifficulty,
    /// `--augment K`: copies written per train puzzle.
    Augment,
}

/// The options `data import` was given (those left out: `None`, `false`, 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportRequest {
    pub test: bool,
    pub size: Option<usize>,
    pub subsample: Option<usize>,
    pub min_difficulty: Option<u32>,
    pub augment: usize,
    pub seed: u64,
}

/// What an import writes and says.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The files beside the manifest (name, contents).
    pub files: Vec<(&'static str, Vec<u8>)>,
    /// The manifest: its `format`, its input and what the import holds.
    pub manifest: Value,
    /// The lines printed before the files written are listed.
    pub lines: Vec<String>,
}

/// A check of the options given, before the input is read: why not, in the sentence printed.
pub type CheckRequest = fn(&ImportRequest) -> Result<(), String>;
/// An importer: the input's name (as the manifest and the errors write it) and its text, to what
/// is written, or the sentence printed (a file's error led by its name).
pub type Import = fn(&ImportRequest, &str, &str) -> Result<Imported, String>;

/// How a task's `data import --format NAME` reads and writes.
#[derive(Clone, Copy, Debug)]
pub struct ImportFormat {
    /// The `--format` name.
    pub name: &'static str,
    /// The options it takes; the trainer refuses the others.
    pub takes: &'static [ImportOption],
    /// Its own rules for the options given.
    pub check: CheckRequest,
    /// The import.
    pub import: Import,
}

/// The import formats of the registry's tasks, in its order, each once (a task of several
/// sizes shares one).
pub fn formats() -> Vec<ImportFormat> {
    #[derive(Clone, Copy)]
    struct Format;
    impl super::TaskVisitor for Format {
        type Output = Option<ImportFormat>;
        fn gram<T: super::TokenTask>(self, task: &T) -> Self::Output {
            task.import_format()
        }
        fn other<T: super::Task>(self, _: &T) -> Self::Output {
            None
        }
    }
    super::registry::each_once(Format, |f| f.name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn colouring_has_the_one_task_import_format() {
        let names: Vec<&str> = super::formats().iter().map(|f| f.name).collect();
        assert_eq!(names, ["coloring"]);
    }
}
