//! The dataset of the GRAM paper (appendix E.1.1): complete solutions with `k` queens
//! removed, deduplicated by input, and its documented split.

use std::collections::BTreeSet;

use super::board::Board;
use super::solver::{all_solutions, completions};
use crate::tasks::split::{Part, fnv1a64, part_by_hash};

/// Numbers of removed queens used by the paper: {5,6,7} on 8x8 and {7,8,9} on 10x10.
pub fn removed_counts(n: usize) -> Vec<usize> {
    match n {
        8 => vec![5, 6, 7],
        10 => vec![7, 8, 9],
        _ => vec![n / 2, n / 2 + 1, n / 2 + 2],
    }
}

/// The split is a pure function of the puzzle text, so anyone can recompute it:
/// **test iff `fnv1a64(text) % 20 < 3`** (17% of the 8x8 inputs), **validation iff
/// `fnv1a64(text) % 100` is in `15..20`** (5%; the same validation rule as Sudoku's and the
/// trees'), train otherwise, where `text` is the puzzle in the text format (`Q`/`.`, row-major,
/// no newline). In Python:
/// `h=0xcbf29ce484222325; for b in s.encode(): h=((h^b)*0x100000001b3)%2**64; test = h%20<3`.
/// (FNV-1a's low bits are uneven on these texts: `% 20 == 3` alone would hold 2.4%.)
pub fn part_of(puzzle: &Board) -> Part {
    let h = fnv1a64(&puzzle.to_text());
    part_by_hash(h, h % 20 < 3)
}

/// One input of the dataset with all its valid completions.
#[derive(Clone, Debug)]
pub struct Instance {
    pub puzzle: Board,
    pub solutions: Vec<Board>,
}

impl Instance {
    /// Number of removed queens (`n` minus the given ones).
    pub fn removed(&self) -> usize {
        self.puzzle.n() - self.puzzle.queen_count()
    }
}

/// Every unique input of the task (solutions with `k` queens removed, `k` in
/// [`removed_counts`]), sorted by text, with its completions.
pub fn dataset(n: usize) -> Vec<Instance> {
    with_completions(inputs(n))
}

fn with_completions(puzzles: Vec<Board>) -> Vec<Instance> {
    puzzles
        .into_iter()
        .map(|puzzle| {
            let solutions = completions(&puzzle);
            Instance { puzzle, solutions }
        })
        .collect()
}

/// The puzzles of one side of the split, in dataset order, without their completions: what a
/// page needs to offer a held-out puzzle (10x10's test split costs under a millisecond per
/// puzzle this way instead of a completion search each).
pub fn puzzles(n: usize, part: Part) -> Vec<Board> {
    inputs(n).into_iter().filter(|p| part_of(p) == part).collect()
}

/// Every unique input of the task, sorted by text.
fn inputs(n: usize) -> Vec<Board> {
    let mut inputs = BTreeSet::new();
    for solution in all_solutions(n) {
        let qs = solution.queens();
        for k in removed_counts(n) {
            for_each_subset(qs.len(), n - k, &mut |keep| {
                let mut puzzle = Board::empty(n).expect("supported side");
                for &i in keep {
                    puzzle.set(qs[i].0, qs[i].1, true);
                }
                inputs.insert(puzzle.to_text());
            });
        }
    }
    inputs.into_iter().map(|text| Board::parse(&text, n).expect("generated board")).collect()
}

/// The instances of one side of the split, in dataset order (completions searched for that
/// side's puzzles only).
pub fn split(n: usize, part: Part) -> Vec<Instance> {
    with_completions(puzzles(n, part))
}

fn for_each_subset(len: usize, size: usize, f: &mut dyn FnMut(&[usize])) {
    fn go(start: usize, len: usize, size: usize, cur: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if cur.len() == size {
            f(cur);
            return;
        }
        for i in start..len {
            cur.push(i);
            go(i + 1, len, size, cur, f);
            cur.pop();
        }
    }
    go(0, len, size, &mut Vec::with_capacity(size), f);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::nqueens::{BoardError, QUEEN};

    #[test]
    fn solution_counts_match_known_values() {
        assert_eq!(all_solutions(8).len(), 92);
        assert_eq!(all_solutions(10).len(), 724);
        assert_eq!(all_solutions(6).len(), 4);
        assert!(all_solutions(8).iter().all(Board::is_solution));
    }

    #[test]
    fn completions_keep_given_queens_and_are_complete() {
        let puzzle = Board::parse(&format!("Q{}", ".".repeat(63)), 8).unwrap();
        let found = completions(&puzzle);
        assert_eq!(found.len(), 4, "a queen in a corner of 8x8 has 4 completions");
        assert!(found.iter().all(|b| b.completes(&puzzle)));
        // Brute force cross-check: filter all 92 solutions.
        let brute = all_solutions(8).into_iter().filter(|s| s.keeps(&puzzle)).count();
        assert_eq!(brute, found.len());
    }

    #[test]
    fn impossible_puzzles_have_no_completion() {
        let mut b = Board::empty(8).unwrap();
        b.set(0, 0, true);
        b.set(1, 1, true);
        assert_eq!(b.conflicts().len(), 1);
        assert!(completions(&b).is_empty());
        let mut two_in_row = Board::empty(8).unwrap();
        two_in_row.set(3, 0, true);
        two_in_row.set(3, 5, true);
        assert!(completions(&two_in_row).is_empty());
    }

    #[test]
    fn text_and_token_round_trips() {
        for s in all_solutions(8).iter().take(10) {
            assert_eq!(&Board::parse(&s.to_text(), 8).unwrap(), s);
            assert_eq!(&Board::from_tokens(&s.tokens(), 8).unwrap(), s);
            assert_eq!(s.tokens().iter().filter(|&&t| t == QUEEN).count(), 8);
        }
    }

    #[test]
    fn malformed_text_is_a_clear_error() {
        assert_eq!(Board::parse("Q...", 8), Err(BoardError::Length { expected: 64, found: 4 }));
        let bad = format!("{}x{}", ".".repeat(10), ".".repeat(53));
        let err = Board::parse(&bad, 8).unwrap_err();
        assert_eq!(err, BoardError::Char { index: 10, found: 'x', n: 8 });
        assert!(err.to_string().contains("row 2, column 3"), "{err}");
        assert!(matches!(Board::from_tokens(&[0; 64], 8), Err(BoardError::Token { .. })));
        assert_eq!(Board::empty(3), Err(BoardError::Size(3)));
    }

    #[test]
    fn dataset_is_deduplicated_and_every_input_is_solvable() {
        let data = dataset(8);
        let texts: BTreeSet<_> = data.iter().map(|i| i.puzzle.to_text()).collect();
        assert_eq!(texts.len(), data.len());
        for inst in &data {
            assert!((5..=7).contains(&inst.removed()));
            assert!(!inst.solutions.is_empty());
        }
    }

    #[test]
    fn split_is_disjoint_stable_and_near_85_15() {
        let train = split(8, Part::Train);
        let validation = split(8, Part::Validation);
        let test = split(8, Part::Test);
        let train_texts: BTreeSet<_> = train.iter().map(|i| i.puzzle.to_text()).collect();
        assert!(test.iter().chain(&validation).all(|i| !train_texts.contains(&i.puzzle.to_text())));
        assert!(test.iter().all(|i| part_of(&i.puzzle) == Part::Test));
        assert_eq!(train.len() + validation.len() + test.len(), dataset(8).len());
        let frac = validation.len() as f64 / dataset(8).len() as f64;
        assert!((0.035..0.065).contains(&frac), "validation fraction {frac}");
        let frac = test.len() as f64 / dataset(8).len() as f64;
        assert!((0.12..0.18).contains(&frac), "test fraction {frac}");
        // Stable: the rule is a pure function of the text (value computed independently in Python).
        assert_eq!(fnv1a64("Q"), 0xaf64_0c4c_8602_3e1c);
    }

    #[test]
    fn puzzles_are_the_split_s_inputs_in_the_same_order() {
        for n in [8, 10] {
            let test: Vec<Board> = dataset(n).into_iter().map(|i| i.puzzle).filter(|p| part_of(p) == Part::Test).collect();
            assert_eq!(puzzles(n, Part::Test), test, "{n}x{n}");
        }
        assert_eq!(puzzles(10, Part::Test).len(), 8386, "10x10's test split (the figure in docs/results/nqueens.md)");
    }
}
