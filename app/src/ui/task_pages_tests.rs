//! Which page shows each task of the engine's registry, the query that opens it there and the
//! shipped weights the page then runs: what adding a task asks of the app, walked over every task
//! of the registry. Test code: a new task fails to compile here until it has its page.

use engine::tasks::TaskId;

use crate::ui::generate::url::Kind;
use crate::ui::tree::url::{TreeSettings, WEIGHTS};
use crate::url_state::UrlState;
use crate::url_state::gram_page::{GramSettings, Model, PageInput};

/// Where a task of the engine's registry is shown: its page, the query that opens it there, and
/// the shipped weights the page then runs.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskPage {
    /// The page's path (`/nqueens`), a row of `crate::pages::PAGES`.
    pub path: &'static str,
    /// The query (without `?`) that opens this task on the page.
    pub query: String,
    /// The weights the page's URL state runs for it: GRAM's then TRM's (`/tree`: the reasoner's).
    pub weights: Vec<String>,
    /// What the page's URL state noted about the query (nothing, for a right link).
    pub notes: Vec<String>,
}

/// The page of every task of the registry: a new task fails to compile here until it has one.
pub fn page_of(task: TaskId) -> TaskPage {
    use engine::tasks::{coloring::Graph, nqueens::Board, sudoku::SudokuGrid};
    match task {
        TaskId::NQueens(n) => gram_page::<Board>(format!("size={n}")),
        TaskId::Sudoku => gram_page::<SudokuGrid>(String::new()),
        TaskId::Tree => {
            let notes = TreeSettings::from_query("").1;
            TaskPage { path: TreeSettings::PATH, query: String::new(), weights: vec![WEIGHTS.into()], notes }
        }
        TaskId::Coloring(n) => gram_page::<Graph>(format!("size={n}")),
        TaskId::QueensBoards(_) => gram_page::<Kind>(format!("kind={}", Kind::Queens8.key())),
        TaskId::SudokuGrids => gram_page::<Kind>(format!("kind={}", Kind::Sudoku.key())),
        TaskId::Digits => gram_page::<Kind>(format!("kind={}", Kind::Digits.key())),
    }
}

/// A GRAM page opened with `query`, and the weights its URL state then runs for each model.
fn gram_page<I: PageInput>(query: String) -> TaskPage {
    let (settings, notes) = GramSettings::<I>::from_query(&query);
    let weights = [Model::Gram, Model::Trm].map(|model| GramSettings { model, ..settings.clone() }.weights());
    TaskPage { path: I::PATH, query, weights: weights.to_vec(), notes }
}

mod tests {
    use super::*;
    use engine::tasks::registry::ALL;

    /// What adding a task asks of the app (docs/ARCHITECTURE.md, "Adding a task"), walked over
    /// every task of the engine's registry: a routed page, a URL that opens the task there
    /// without a note, shipped weights of that task for each model the page offers, and the
    /// page's recorded run.
    #[test]
    fn every_registered_task_has_its_page_url_weights_and_recorded_run() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        for task in ALL {
            let page = page_of(task);
            let name = page.path.trim_start_matches('/');
            assert!(crate::pages::page(name).is_some(), "{}: {} is not routed", task.id(), page.path);
            assert!(page.notes.is_empty(), "{}: {:?}", task.id(), page.notes);
            for w in &page.weights {
                let path = root.join(format!("public/weights/{w}.json"));
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}: {e}", task.id(), path.display()));
                let identity = engine::weights::identity::identify(&text).unwrap_or_else(|e| panic!("{w}: {e}"));
                assert_eq!(identity.task, Some(task), "{w} is shown for {} but is another task's", task.id());
            }
            let run = root.join(format!("public{}/{name}.json", crate::recorded_runs::RUNS_PATH));
            assert!(run.exists(), "{}: no recorded run {}", task.id(), run.display());
        }
    }
}
