//! 8x8 N-Queens boards from nothing: the constant input is the empty board, each target one of
//! the 92 solutions (the GRAM paper's p(x) formulation, section 3.3, on boards instead of digits).

use super::report::BoardsReport;
use crate::gram::{Observation, Selection};
use crate::tasks::nqueens::{Board, Instance, NQueens, all_solutions};
use crate::tasks::{Part, PuzzleError, Solved, Task, TaskReason, TaskRecipe, TokenTask};

/// Why a text is not the board-generation task's input: a board with queens (its one input is
/// the empty n x n board). Carried by [`PuzzleError::Task`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("nqueens{n}-boards generates boards from nothing: its one input is the empty board ({} dots), not a board with queens", .n * .n)]
pub struct NotEmptyBoard {
    pub n: usize,
}

impl From<NotEmptyBoard> for PuzzleError {
    fn from(e: NotEmptyBoard) -> Self {
        PuzzleError::Task(TaskReason::new(e))
    }
}

/// Unconditional N-Queens boards on an `n` x `n` board: N-Queens' boards, tokens and rules
/// (delegated to [`NQueens`]), one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueensBoards {
    queens: NQueens,
}

impl QueensBoards {
    pub fn new(n: usize) -> QueensBoards {
        QueensBoards { queens: NQueens::new(n) }
    }

    /// Board side.
    pub fn n(&self) -> usize {
        self.queens.n()
    }

    /// The one instance: the empty board with every solution.
    pub fn instance(&self) -> Instance {
        Instance { puzzle: Board::empty(self.n()).expect("supported side"), solutions: all_solutions(self.n()) }
    }
}

impl Task for QueensBoards {
    type Puzzle = Board;
    type Answer = Board;
    type Instance = Instance;

    fn id(&self) -> String {
        format!("nqueens{}-boards", self.n())
    }

    /// The only input is the constant: the empty board.
    fn parse(&self, text: &str) -> Result<Board, PuzzleError> {
        let board = Board::parse(text, self.n())?;
        if board.queen_count() > 0 {
            return Err(NotEmptyBoard { n: self.n() }.into());
        }
        Ok(board)
    }

    fn puzzle_text(&self, puzzle: &Board) -> String {
        self.queens.puzzle_text(puzzle)
    }

    fn answer_text(&self, answer: &Board) -> String {
        self.queens.answer_text(answer)
    }

    /// n non-attacking queens (the empty input gives no queen to keep).
    fn is_valid(&self, puzzle: &Board, answer: &Board) -> bool {
        self.queens.is_valid(puzzle, answer)
    }

    /// The one input is trained on and scored (module doc: nothing to hold out).
    fn part_of(&self, _puzzle: &Board) -> Part {
        Part::Train
    }

    /// Every part holds the one instance (module doc).
    fn instances(&self, _part: Part) -> Vec<Instance> {
        vec![self.instance()]
    }

    fn puzzle_of<'a>(&self, instance: &'a Instance) -> &'a Board {
        &instance.puzzle
    }
}

impl TokenTask for QueensBoards {
    /// p(x) (the GRAM paper, section 3.3): the shipped 8x8 pair's mixer network and batch, the
    /// empty board in, one of the 92 solutions out, 2,000 steps.
    fn recipe(&self) -> TaskRecipe {
        TaskRecipe { config: crate::tasks::nqueens::gram_mixer_config(self.n(), true), batch: 64, steps: 2000, full: None }
    }

    /// N-Queens' shading: P(queen) per cell.
    fn shading(&self, obs: &Observation, row: usize) -> Vec<f32> {
        self.queens.shading(obs, row)
    }

    type Report = BoardsReport;

    fn tokens(&self, puzzle: &Board) -> Vec<u32> {
        self.queens.tokens(puzzle)
    }

    fn answer_from_prediction(&self, tokens: &[u32]) -> Board {
        self.queens.answer_from_prediction(tokens)
    }

    fn puzzle_from_tokens(&self, tokens: &[u32]) -> Option<Board> {
        self.queens.puzzle_from_tokens(tokens).filter(|b| b.queen_count() == 0)
    }

    fn targets(&self, instance: &Instance) -> Vec<Vec<u32>> {
        self.queens.targets(instance)
    }

    /// A solution written with board tokens only (N-Queens' check; the input must be empty).
    fn is_right_prediction(&self, x: &[u32], prediction: &[u32]) -> bool {
        self.puzzle_from_tokens(x).is_some() && self.queens.is_right_prediction(x, prediction)
    }

    /// Unused by the report (it scores every sample), and what `solve` selects: the LPRM, as
    /// N-Queens.
    fn default_selection(&self) -> Selection {
        Selection::Lprm
    }

    /// 0.25, as N-Queens completion: the last quarter of the steps without noise lets the
    /// recursion repair a board the noisy steps left one queen off. Measured on validation draws
    /// only (`gram-nqueens8-boards`, scale 1, 64 samples, sampling seeds 1-15; seed 0 is the test
    /// draw): valid share at 8 / 16 / 32 steps 98.54 / 98.54 / 98.96% without settle, 99.06 /
    /// 99.69 / 100.00% with, distinct valid boards 43.7 / 43.5 / 43.3 against 43.8 / 43.9 / 43.7
    /// (docs/results/notes/generation.md).
    fn default_settle(&self) -> f64 {
        0.25
    }

    fn eval_batch(&self) -> usize {
        1
    }

    fn input_noun(&self) -> &'static str {
        "inputs"
    }

    fn new_report(&self, samples: usize) -> BoardsReport {
        BoardsReport::new(samples, all_solutions(self.n()).len() as u128)
    }

    fn score(&self, report: &mut BoardsReport, _instance: &Instance, solved: &Solved<Board>) {
        let text = |step: &Vec<Board>| step.iter().map(|b| (b.to_text(), b.is_solution())).collect::<Vec<_>>();
        report.add(&text(&solved.samples), &solved.samples_by_step.iter().map(text).collect::<Vec<_>>());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_input_is_the_empty_board_with_all_92_solutions() {
        let task = QueensBoards::new(8);
        assert_eq!(task.id(), "nqueens8-boards");
        for part in [Part::Train, Part::Validation, Part::Test] {
            let all = task.instances(part);
            assert_eq!(all.len(), 1);
            assert_eq!(all[0].puzzle.queen_count(), 0);
            assert_eq!(task.targets(&all[0]).len(), 92);
        }
        let empty = ".".repeat(64);
        assert!(task.parse(&empty).is_ok());
        let one = format!("Q{}", ".".repeat(63));
        assert_eq!(task.parse(&one).unwrap_err().reason::<NotEmptyBoard>(), Some(&NotEmptyBoard { n: 8 }));
        assert_eq!(
            task.parse(&one).unwrap_err().to_string(),
            "nqueens8-boards generates boards from nothing: its one input is the empty board (64 dots), not a board with queens"
        );
        let x = task.tokens(&task.parse(&empty).unwrap());
        let solution = &task.targets(&task.instance())[5];
        assert!(task.is_right_prediction(&x, solution));
        assert!(!task.is_right_prediction(&x, &vec![crate::tasks::nqueens::QUEEN; 64]), "64 queens are no solution");
        assert!(!task.is_right_prediction(solution, solution), "a board with queens is not the input");
    }
}
