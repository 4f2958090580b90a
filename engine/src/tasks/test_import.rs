//! A test set from elsewhere, as its task reads it: `native-trainer data import ... --test`
//! writes an import directory (a manifest naming its format, and the file of puzzles), and
//! `eval --data` scores a model on it instead of the split's part. The trainer reads any task's
//! import through this (the task says its format, its file, and how to check and read them), so
//! a task with a test import needs no code of its own in the trainer's eval.

use serde_json::Value;

/// A check of an import's manifest against the model's task.
pub type CheckManifest = Box<dyn Fn(&Value) -> Result<(), String>>;
/// A reader of an import's file: its instances, or why not.
pub type ReadInstances<I> = Box<dyn Fn(&str) -> Result<Vec<I>, String>>;

/// How a task's test import is named, checked and read.
pub struct TestImport<I> {
    /// The task as a sentence names it ("Sudoku", "colouring").
    pub noun: &'static str,
    /// The `format` the import's manifest names.
    pub format: &'static str,
    /// The file beside the manifest that holds the puzzles.
    pub file: &'static str,
    /// The command that makes one.
    pub command: &'static str,
    /// Checks the manifest against the model's task (colouring: the vertex count).
    pub check: CheckManifest,
    /// The instances the file's text holds, every one checked again.
    pub read: ReadInstances<I>,
}

/// The nouns of the registry's tasks that have a test import, in its order ("Sudoku",
/// "colouring"): what `--data` can score.
pub fn nouns() -> Vec<&'static str> {
    #[derive(Clone, Copy)]
    struct Noun;
    impl super::TaskVisitor for Noun {
        type Output = Option<&'static str>;
        fn gram<T: super::TokenTask>(self, task: &T) -> Self::Output {
            task.test_import().map(|i| i.noun)
        }
        fn other<T: super::Task>(self, _: &T) -> Self::Output {
            None
        }
    }
    super::registry::each_once(Noun, |noun| *noun)
}

#[cfg(test)]
mod tests {
    #[test]
    fn sudoku_and_colouring_have_test_imports() {
        assert_eq!(super::nouns(), ["Sudoku", "colouring"]);
    }
}
