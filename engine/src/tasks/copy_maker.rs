//! Which tasks make answer-preserving copies of their inputs, by the registry: a task says what
//! it copies ([`CopyMaker`], from [`crate::tasks::TokenTask::copy_maker`]), and a sentence that
//! refuses a copy to a task without one names the tasks that have it ([`augmenting`],
//! [`restarting`]), so the list grows with the registry.

/// The copies a task makes, and what a sentence listing such tasks calls it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyMaker {
    /// The task in a sentence ("Sudoku", "graph colouring").
    pub noun: &'static str,
    /// Copies of a training pair for `train --augment` ([`crate::tasks::TokenTask::augment`]).
    pub augment: bool,
    /// Copies of an input for a verified run's restarts and `--copies samples`
    /// ([`crate::tasks::TokenTask::restart_copy`]).
    pub restart: bool,
}

/// The registry's copy makers, in its order, each noun once.
fn makers() -> Vec<CopyMaker> {
    #[derive(Clone, Copy)]
    struct Maker;
    impl super::TaskVisitor for Maker {
        type Output = Option<CopyMaker>;
        fn gram<T: super::TokenTask>(self, task: &T) -> Self::Output {
            task.copy_maker()
        }
        fn other<T: super::Task>(self, _: &T) -> Self::Output {
            None
        }
    }
    super::registry::each_once(Maker, |m| m.noun)
}

/// The tasks whose training pairs `train --augment` copies, as a sentence lists them
/// ("graph colouring"; "A, B or C").
pub fn augmenting() -> String {
    or_list(makers().iter().filter(|m| m.augment).map(|m| m.noun).collect())
}

/// The tasks whose inputs a verified run's restarts and `--copies samples` copy, as a sentence
/// lists them ("Sudoku or graph colouring").
pub fn restarting() -> String {
    or_list(makers().iter().filter(|m| m.restart).map(|m| m.noun).collect())
}

/// Nouns joined as one alternative: "A", "A or B", "A, B or C".
fn or_list(nouns: Vec<&str>) -> String {
    match nouns.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => nouns.concat(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sudoku_and_colouring_make_copies() {
        assert_eq!(super::restarting(), "Sudoku or graph colouring");
        assert_eq!(super::augmenting(), "graph colouring");
        assert_eq!(super::or_list(vec!["A", "B", "C"]), "A, B or C");
    }
}
