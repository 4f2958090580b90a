//! Every task the playground knows, by id, and the one place an id becomes a task. A new task
//! adds its folder under `tasks/` and its entry here (a [`TaskId`] variant, its id, and its arm
//! in [`visit`]); the trainer's `eval`, `solve`, `split`, `export` and `bench` then work for it,
//! since each is written once over the task interface and reaches its task through [`visit`];
//! so do `record` and the browser's worker (`solve::step_answers::step_task`), and the trainer's
//! presets `gram-<task>`, `trm-<task>` (and `-full`, and a variant's `-<suffix>`) follow from the
//! task's recipe.

use super::boards::{QueensBoards, SudokuGrids};
use super::coloring::Coloring;
use super::digits::Digits;
use super::nqueens::NQueens;
use super::sudoku::Sudoku;
use super::tree::Trees;
use super::{Task, TokenTask};
use crate::gram::GramConfig;

/// A task by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskId {
    /// N-Queens completion on an n x n board (8 and 10: the GRAM paper, Table 1).
    NQueens(usize),
    /// 9x9 Sudoku.
    Sudoku,
    /// Tree route search (the JEPA-Reasoner paper).
    Tree,
    /// 3-colouring of graphs with n vertices (8 and 10: the GRAM paper, Table 1).
    Coloring(usize),
    /// Whole n x n N-Queens boards from nothing (the GRAM paper's p(x), section 3.3).
    QueensBoards(usize),
    /// Full 9x9 Sudoku grids from nothing (the GRAM paper's p(x) on Sudoku).
    SudokuGrids,
    /// Binarized MNIST digits from nothing (the GRAM paper's p(x), section 3.3).
    Digits,
}

/// Why a name or a set of weights gives no task. The text (`Display`) is the sentence the CLI
/// prints (a manifest's error wraps it).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    /// A name that is no task's id (the text lists every id).
    #[error("unknown task {:?}; tasks: {}", .0, known_ids())]
    Unknown(String),
    /// Weights that name no task, and whose config's shapes fit none.
    #[error("these weights name no task and their config (sequence length {seq_len}, vocabulary {vocab}) fits none")]
    NoTaskFits { seq_len: usize, vocab: usize },
    /// Weights that name a task their config's shapes do not fit (`fits`: the task they do fit).
    #[error(
        "the task named is {named}, but the config (sequence length {seq_len}, vocabulary {vocab}) is {}: the two disagree",
        .fits.map_or("no known task's".to_string(), |t| format!("{}'s", t.id()))
    )]
    Disagree { named: String, seq_len: usize, vocab: usize, fits: Option<TaskId> },
}

/// Every id, as [`TaskError::Unknown`] lists them.
fn known_ids() -> String {
    known().map(|t| t.id()).collect::<Vec<_>>().join(", ")
}

/// Every task, in the order the CLI lists them.
pub const ALL: [TaskId; 9] = [
    TaskId::NQueens(8),
    TaskId::NQueens(10),
    TaskId::Sudoku,
    TaskId::Tree,
    TaskId::Coloring(8),
    TaskId::Coloring(10),
    TaskId::QueensBoards(8),
    TaskId::SudokuGrids,
    TaskId::Digits,
];

/// Tasks small enough to learn from scratch in a few minutes on one core, which the page trains
/// live (`/train`): 3-colouring of 6-vertex graphs. They ship no weights and have no page of
/// their own, so they are not in [`ALL`] (whose every task does); ids, the trainer's presets,
/// `eval` and the weights a visitor downloads know them.
pub const LEARNABLE: [TaskId; 1] = [TaskId::Coloring(6)];

/// Every task with an id: [`ALL`], then [`LEARNABLE`].
pub fn known() -> impl Iterator<Item = TaskId> {
    ALL.into_iter().chain(LEARNABLE)
}

impl TaskId {
    /// The id on the command line and in manifests.
    pub fn id(self) -> String {
        match self {
            TaskId::NQueens(n) => format!("nqueens{n}"),
            TaskId::Sudoku => "sudoku".into(),
            TaskId::Tree => "tree".into(),
            TaskId::Coloring(n) => format!("coloring{n}"),
            TaskId::QueensBoards(n) => format!("nqueens{n}-boards"),
            TaskId::SudokuGrids => "sudoku-grids".into(),
            TaskId::Digits => "digits".into(),
        }
    }

    /// Reads an id; an unknown one is an error that lists the known ones.
    pub fn parse(text: &str) -> Result<TaskId, TaskError> {
        known().find(|t| t.id() == text).ok_or_else(|| TaskError::Unknown(text.to_string()))
    }

    /// The task a GRAM/TRM config was built for (by its sequence length and vocabulary). A
    /// generation task shares its puzzle task's shapes (`nqueens8-boards` is `nqueens8`'s,
    /// `sudoku-grids` is `sudoku`'s), so
    /// this names the puzzle task; a manifest's `task` says which it is ([`TaskId::of_weights`]).
    pub fn of_gram_config(config: &GramConfig) -> Option<TaskId> {
        use crate::tasks::{coloring, digits, nqueens, sudoku};
        if config.image_side == Some(digits::SIDE) && config.seq_len == digits::PIXELS {
            return Some(TaskId::Digits);
        }
        if config.seq_len == sudoku::CELLS && config.vocab == sudoku::VOCAB {
            return Some(TaskId::Sudoku);
        }
        if config.vocab == coloring::VOCAB {
            return known().find(|&t| matches!(t, TaskId::Coloring(n) if coloring::seq_len(n) == config.seq_len));
        }
        let n = (config.seq_len as f64).sqrt().round() as usize;
        (config.vocab == nqueens::VOCAB && n * n == config.seq_len && known().any(|t| t == TaskId::NQueens(n)))
            .then_some(TaskId::NQueens(n))
    }
}

impl TaskId {
    /// The task of GRAM/TRM weights: the one they name (a manifest's `task`, a run's preset's),
    /// which their config's shapes must fit, or it is an error naming both. Only weights that name
    /// no task are read from their shapes ([`TaskId::of_gram_config`]); callers say so.
    pub fn of_weights(config: &GramConfig, named: Option<&str>) -> Result<TaskId, TaskError> {
        let by_config = TaskId::of_gram_config(config);
        let (seq_len, vocab) = (config.seq_len, config.vocab);
        let Some(name) = named.filter(|t| !t.is_empty()) else {
            return by_config.ok_or(TaskError::NoTaskFits { seq_len, vocab });
        };
        let named = TaskId::parse(name)?;
        // A generation task has its puzzle task's shapes.
        let shaped_as = match named {
            TaskId::QueensBoards(n) => TaskId::NQueens(n),
            TaskId::SudokuGrids => TaskId::Sudoku,
            t => t,
        };
        if by_config == Some(shaped_as) {
            return Ok(named);
        }
        Err(TaskError::Disagree { named: name.to_string(), seq_len, vocab, fits: by_config })
    }
}

/// What a caller does with a task, written once for every task: GRAM/TRM tasks (tokens in and
/// out) and tasks another model solves (the JEPA-Reasoner's trees).
pub trait TaskVisitor {
    type Output;
    fn gram<T: TokenTask>(self, task: &T) -> Self::Output;
    fn other<T: Task>(self, task: &T) -> Self::Output;
}

/// Runs `visitor` on the task `id` names.
pub fn visit<V: TaskVisitor>(id: TaskId, visitor: V) -> V::Output {
    match id {
        TaskId::NQueens(n) => visitor.gram(&NQueens::new(n)),
        TaskId::Sudoku => visitor.gram(&Sudoku),
        TaskId::Tree => visitor.other(&Trees),
        TaskId::Coloring(n) => visitor.gram(&Coloring::new(n)),
        TaskId::QueensBoards(n) => visitor.gram(&QueensBoards::new(n)),
        TaskId::SudokuGrids => visitor.gram(&SudokuGrids),
        TaskId::Digits => visitor.gram(&Digits),
    }
}

/// What `visitor` finds in the tasks of [`ALL`], in its order, each `key` once (the sizes of one
/// task, or tasks that answer alike, are listed once).
pub fn each_once<V, O, K>(visitor: V, key: impl Fn(&O) -> K) -> Vec<O>
where
    V: TaskVisitor<Output = Option<O>> + Copy,
    K: PartialEq,
{
    let mut found: Vec<O> = Vec::new();
    for item in ALL.into_iter().filter_map(|t| visit(t, visitor)) {
        if !found.iter().any(|f| key(f) == key(&item)) {
            found.push(item);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_unknown_ids_list_the_known_ones() {
        for t in known() {
            assert_eq!(TaskId::parse(&t.id()), Ok(t));
        }
        let err = TaskId::parse("chess").unwrap_err();
        assert_eq!(err, TaskError::Unknown("chess".into()));
        assert_eq!(
            err.to_string(),
            "unknown task \"chess\"; tasks: nqueens8, nqueens10, sudoku, tree, coloring8, coloring10, nqueens8-boards, sudoku-grids, digits, coloring6"
        );
        let queens = crate::tasks::nqueens::gram_mixer_config(8, true);
        let sudoku = crate::tasks::sudoku::gram_config(true);
        assert_eq!(TaskId::of_weights(&queens, Some("nqueens8-boards")), Ok(TaskId::QueensBoards(8)));
        assert_eq!(TaskId::of_weights(&queens, Some("nqueens8")), Ok(TaskId::NQueens(8)));
        assert_eq!(TaskId::of_weights(&queens, None), Ok(TaskId::NQueens(8)));
        assert_eq!(TaskId::of_weights(&sudoku, Some("sudoku-grids")), Ok(TaskId::SudokuGrids));
        // A manifest naming a task its weights cannot be is refused, both named.
        for (config, named, fits) in
            [(&sudoku, "nqueens8-boards", "sudoku's"), (&queens, "sudoku-grids", "nqueens8's"), (&queens, "sudoku", "nqueens8's")]
        {
            let err = TaskId::of_weights(config, Some(named)).unwrap_err();
            assert!(matches!(&err, TaskError::Disagree { named: n, fits: Some(_), .. } if n == named), "{err:?}");
            let err = err.to_string();
            assert!(err.contains(named) && err.contains(fits), "{err}");
        }
        assert_eq!(TaskId::of_weights(&queens, Some("chess")), Err(TaskError::Unknown("chess".into())));
        let nothing = GramConfig { seq_len: 7, ..queens.clone() };
        assert_eq!(TaskId::of_weights(&nothing, None), Err(TaskError::NoTaskFits { seq_len: 7, vocab: queens.vocab }));
        assert_eq!(
            TaskId::of_weights(&nothing, None).unwrap_err().to_string(),
            format!("these weights name no task and their config (sequence length 7, vocabulary {}) fits none", queens.vocab)
        );
        let disagree = TaskId::of_weights(&nothing, Some("sudoku")).unwrap_err();
        assert_eq!(disagree, TaskError::Disagree { named: "sudoku".into(), seq_len: 7, vocab: queens.vocab, fits: None });
        assert!(disagree.to_string().contains("is no known task's: the two disagree"), "{disagree}");
        assert_eq!(TaskId::of_gram_config(&crate::tasks::sudoku::gram_config(true)), Some(TaskId::Sudoku));
        assert_eq!(TaskId::of_gram_config(&crate::tasks::digits::gram_config(false)), Some(TaskId::Digits));
        assert_eq!(TaskId::of_gram_config(&crate::tasks::nqueens::gram_mixer_config(8, false)), Some(TaskId::NQueens(8)));
        for n in [6, 8, 10] {
            assert_eq!(TaskId::of_gram_config(&crate::tasks::coloring::gram_config(n, true)), Some(TaskId::Coloring(n)));
        }
    }

    /// Every id reaches the task that says it is that id, through the one `visit`.
    #[test]
    fn visit_reaches_the_task_each_id_names() {
        struct Id;
        impl TaskVisitor for Id {
            type Output = (String, bool);
            fn gram<T: TokenTask>(self, task: &T) -> (String, bool) {
                (task.id(), true)
            }
            fn other<T: Task>(self, task: &T) -> (String, bool) {
                (task.id(), false)
            }
        }
        for t in ALL {
            assert_eq!(visit(t, Id), (t.id(), t != TaskId::Tree));
        }
    }
}
