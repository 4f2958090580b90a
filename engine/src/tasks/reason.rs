//! A task's own reason why a text is not its puzzle: [`TaskReason`], the error type a task's
//! folder defines, carried whole by [`crate::tasks::PuzzleError::Task`] so that the shared error
//! names no task, while a caller that knows the task still reads the reason's own type back
//! ([`TaskReason::downcast_ref`], as `std::io::Error::get_ref` does for a wrapped error).

use std::error::Error;
use std::fmt;
use std::sync::Arc;

/// A task's own error, shared (cloning copies a pointer). Its text (`Display`) is the error's own
/// sentence, unchanged. Two reasons are equal when their sentences are: a task's error that
/// reads the same is the same reason, whatever the type behind it.
#[derive(Clone, Debug)]
pub struct TaskReason(Arc<dyn Error + Send + Sync + 'static>);

impl TaskReason {
    /// A task's error as a reason.
    pub fn new<E: Error + Send + Sync + 'static>(error: E) -> TaskReason {
        TaskReason(Arc::new(error))
    }

    /// The task's error, when it is a `T`.
    pub fn downcast_ref<T: Error + 'static>(&self) -> Option<&T> {
        self.0.downcast_ref::<T>()
    }
}

impl fmt::Display for TaskReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Error for TaskReason {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.0.source()
    }
}

impl PartialEq for TaskReason {
    fn eq(&self, other: &TaskReason) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for TaskReason {}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, thiserror::Error)]
    #[error("four of them")]
    struct Four;

    /// The sentence is the error's own; its type is read back; equal sentences are equal reasons.
    #[test]
    fn a_reason_reads_as_its_error_and_gives_it_back() {
        let reason = TaskReason::new(Four);
        assert_eq!(reason.to_string(), "four of them");
        assert_eq!(reason.downcast_ref::<Four>(), Some(&Four));
        assert!(reason.downcast_ref::<std::fmt::Error>().is_none());
        assert_eq!(reason.clone(), reason);
        assert_ne!(reason, TaskReason::new(std::fmt::Error));
    }
}
