//! How a GRAM/TRM task trains, said by the task itself ([`super::TokenTask::recipe`]): the
//! browser-size recipe that made its shipped GRAM/TRM pair, and the paper's full size where the
//! paper has the experiment. The trainer's presets `gram-<task>`, `trm-<task>` and
//! `gram-<task>-full`, `trm-<task>-full` are built from these for every task of the registry, and
//! `gram-<task>-<suffix>`, `trm-<task>-<suffix>` from a task's [`Variant`]s.

use crate::gram::GramConfig;

/// A task's training recipes. TRM trains with GRAM's batch and steps: equal compute per
/// optimiser step count (a TRM step is cheaper: no prior or posterior heads).
#[derive(Clone, Debug)]
pub struct TaskRecipe {
    /// The shipped GRAM's network; TRM's is the same without guidance.
    pub config: GramConfig,
    /// Trajectories per optimiser step.
    pub batch: usize,
    /// Optimiser steps of a whole run.
    pub steps: usize,
    /// The GRAM paper's full size (appendix D, Table 7); none where the paper has no such run.
    pub full: Option<FullSize>,
}

/// The GRAM paper's full-size run of a task: appendix D's network on the task's own
/// vocabulary and length, with these task-specific settings, trained Table 7's epochs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FullSize {
    /// The mixer core (the paper: Sudoku only) instead of attention.
    pub mixer: bool,
    /// Inner recursion steps K.
    pub k_inner: usize,
    /// The KL weight beta (Table 8).
    pub beta: f64,
    /// Table 7's epochs.
    pub epochs: usize,
    /// Training inputs one epoch passes over (the paper's split sizes).
    pub train_inputs: usize,
}

/// Another network for a task, trained by the task's own recipe: N-Queens' mixer core, graph
/// colouring's attention core. GRAM's config; TRM's is the same without guidance.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The presets' suffix (`gram-coloring8-attn`: `attn`).
    pub suffix: &'static str,
    pub config: GramConfig,
    /// Trajectories per optimiser step and optimiser steps of a whole run.
    pub batch: usize,
    pub steps: usize,
}

/// The variants of the task `id` names (none for a task without a recipe).
pub fn variants_of(id: super::TaskId) -> Vec<Variant> {
    struct Variants;
    impl super::TaskVisitor for Variants {
        type Output = Vec<Variant>;
        fn gram<T: super::TokenTask>(self, task: &T) -> Self::Output {
            task.variants()
        }
        fn other<T: super::Task>(self, _: &T) -> Self::Output {
            Vec::new()
        }
    }
    super::visit(id, Variants)
}

/// The recipe of the task `id` names: every GRAM/TRM task has one, the tree task none (its
/// presets are the JEPA-Reasoner's).
pub fn recipe_of(id: super::TaskId) -> Option<TaskRecipe> {
    struct Recipe;
    impl super::TaskVisitor for Recipe {
        type Output = Option<TaskRecipe>;
        fn gram<T: super::TokenTask>(self, task: &T) -> Self::Output {
            Some(task.recipe())
        }
        fn other<T: super::Task>(self, _: &T) -> Self::Output {
            None
        }
    }
    super::visit(id, Recipe)
}
