//! The task text and token parsers: N-Queens boards, Sudoku grids and tree lines. Each input is
//! a random string or a mutated valid one; an accepted input must survive the round trip and
//! the checks the `solve` commands run on it (conflicts and completions, the Sudoku assessment).

use engine::gram::noise::NoiseSource;
use engine::tasks::nqueens::{self, Board};
use engine::tasks::sudoku::{self, Difficulty, FAMOUS, SudokuGrid};
use engine::tasks::tree::{self, TreeTask};

use super::harness::{Fuzz, Rng, escape_str};
use super::mutate::{mutate_text, mutate_tokens, random_text};

/// Board sides: the two the models use, and some the parser must refuse.
fn side(rng: &mut Rng) -> usize {
    match rng.below(20) {
        0..=8 => 8,
        9..=17 => 10,
        _ => {
            let any = rng.below(40);
            *rng.pick(&[0, 1, 3, 4, 5, 16, 17, 255, usize::MAX, usize::MAX / 2, 1 << 32, any])
        }
    }
}

/// Valid boards: every solution of 8x8 and 10x10, the same with 1-9 queens removed at input
/// time, and empty boards.
pub struct QueensSeeds {
    boards: Vec<Board>,
    texts: Vec<String>,
}

impl QueensSeeds {
    pub fn new() -> QueensSeeds {
        let mut boards = nqueens::all_solutions(8);
        boards.extend(nqueens::all_solutions(10));
        boards.push(Board::empty(8).unwrap());
        boards.push(Board::empty(10).unwrap());
        let texts = boards.iter().map(Board::to_text).collect();
        QueensSeeds { boards, texts }
    }

    fn board(&self, rng: &mut Rng) -> Board {
        let mut b = rng.pick(&self.boards).clone();
        for _ in 0..rng.below(10) {
            let qs = b.queens();
            if let Some(&(r, c)) = qs.get(rng.below(qs.len().max(1))) {
                b.set(r, c, false);
            }
        }
        b
    }
}

const QUEEN_CHARS: &[char] = &['.', '.', '.', 'Q', 'q', '\n', ' '];

/// `Board::parse(text, n)`; an accepted board round-trips and goes through the `solve` checks.
pub fn nqueens_text(fuzz: &mut Fuzz, index: u64, rng: &mut Rng, seeds: &QueensSeeds) {
    let n = side(rng);
    let text = match rng.below(10) {
        0 | 1 => random_text(rng, QUEEN_CHARS, 400),
        2 => seeds.board(rng).to_string(), // the multi-line Display form
        _ => {
            let seed = seeds.board(rng).to_text();
            let others: Vec<&str> = (0..2).map(|_| rng.pick(&seeds.texts).as_str()).collect();
            mutate_text(rng, &seed, QUEEN_CHARS, &["Q", ".", "........", "..........", "\n"], &others)
        }
    };
    fuzz.case(
        index,
        || format!("Board::parse({}, {n})", escape_str(&text)),
        || {
            let board = Board::parse(&text, n).map_err(|e| e.to_string())?;
            assert_eq!(board.n(), n);
            assert_eq!(Board::parse(&board.to_text(), n).as_ref(), Ok(&board), "text round trip");
            assert_eq!(Board::from_tokens(&board.tokens(), n).as_ref(), Ok(&board), "token round trip");
            // What `solve` does with a board before running a model on it.
            if board.conflicts().is_empty() && n <= 10 {
                assert!(nqueens::completions(&board).iter().all(|c| c.completes(&board)));
            }
            Ok(())
        },
    );
}

/// `Board::from_tokens(tokens, n)`.
pub fn nqueens_tokens(fuzz: &mut Fuzz, index: u64, rng: &mut Rng, seeds: &QueensSeeds) {
    let n = side(rng);
    let tokens: Vec<u32> = if rng.one_in(5) {
        let len = if rng.one_in(2) { rng.len(300) } else { n.min(20) * n.min(20) };
        (0..len).map(|_| super::mutate::random_token(rng, nqueens::VOCAB as u32)).collect()
    } else {
        let seed = seeds.board(rng).tokens();
        mutate_tokens(rng, &seed, nqueens::VOCAB as u32)
    };
    fuzz.case(
        index,
        || format!("Board::from_tokens(&{tokens:?}, {n})"),
        || {
            let board = Board::from_tokens(&tokens, n).map_err(|e| e.to_string())?;
            assert_eq!(board.tokens(), tokens, "token round trip");
            assert_eq!(board.n(), n);
            Ok(())
        },
    );
}

/// Valid grids: the famous hard puzzles, generated puzzles of every band and their solutions,
/// the empty grid.
pub struct SudokuSeeds {
    grids: Vec<SudokuGrid>,
    texts: Vec<String>,
}

impl SudokuSeeds {
    pub fn new() -> SudokuSeeds {
        let mut grids: Vec<SudokuGrid> = FAMOUS.iter().map(|(_, t)| SudokuGrid::parse(t).unwrap()).collect();
        for (k, d) in Difficulty::ALL.iter().enumerate() {
            for s in 0..3 {
                let inst = d.generate(1000 * k as u64 + s);
                grids.push(inst.puzzle);
                grids.push(inst.solution);
            }
        }
        grids.push(SudokuGrid::empty());
        let texts = grids.iter().map(SudokuGrid::to_text).collect();
        SudokuSeeds { grids, texts }
    }
}

const SUDOKU_CHARS: &[char] = &['.', '.', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ' ', '\n'];

/// `SudokuGrid::parse(text)`; an accepted grid round-trips and goes through `assess` (the
/// clash / no solution / several solutions check `solve` runs before the model).
pub fn sudoku_text(fuzz: &mut Fuzz, index: u64, rng: &mut Rng, seeds: &SudokuSeeds) {
    let text = if rng.one_in(5) {
        random_text(rng, SUDOKU_CHARS, 300)
    } else {
        let seed = rng.pick(&seeds.texts).clone();
        let others: Vec<&str> = (0..2).map(|_| rng.pick(&seeds.texts).as_str()).collect();
        mutate_text(rng, &seed, SUDOKU_CHARS, &[".", "0", "9", "........."], &others)
    };
    fuzz.case(
        index,
        || format!("SudokuGrid::parse({})", escape_str(&text)),
        || {
            let grid = SudokuGrid::parse(&text).map_err(|e| e.to_string())?;
            assert_eq!(SudokuGrid::parse(&grid.to_text()).as_ref(), Ok(&grid), "text round trip");
            assert_eq!(SudokuGrid::from_tokens(&grid.tokens()).as_ref(), Ok(&grid), "token round trip");
            match sudoku::assess(&grid) {
                Ok(_) => assert!(sudoku::unique_solution(&grid).is_some_and(|s| s.solves(&grid))),
                Err(why) => assert!(!why.to_string().is_empty(), "assess gave an empty reason"),
            }
            Ok(())
        },
    );
}

/// `SudokuGrid::from_tokens(tokens)`, and `from_prediction` (which takes any tokens).
pub fn sudoku_tokens(fuzz: &mut Fuzz, index: u64, rng: &mut Rng, seeds: &SudokuSeeds) {
    let tokens: Vec<u32> = if rng.one_in(5) {
        let len = if rng.one_in(2) { rng.len(300) } else { sudoku::CELLS };
        (0..len).map(|_| super::mutate::random_token(rng, sudoku::VOCAB as u32)).collect()
    } else {
        let seed = rng.pick(&seeds.grids).tokens();
        mutate_tokens(rng, &seed, sudoku::VOCAB as u32)
    };
    fuzz.case(
        index,
        || format!("SudokuGrid::from_tokens(&{tokens:?})"),
        || {
            let predicted = SudokuGrid::from_prediction(&tokens);
            assert_eq!(predicted.to_text().len(), sudoku::CELLS);
            let grid = SudokuGrid::from_tokens(&tokens).map_err(|e| e.to_string())?;
            assert_eq!(grid.tokens(), tokens, "token round trip");
            assert_eq!(predicted, grid, "a valid sequence reads the same as a prediction");
            Ok(())
        },
    );
}

/// Valid lines: held-out tasks, random tasks from a fixed seed, the appendix-A example.
pub fn tree_seeds() -> Vec<String> {
    let mut rng = NoiseSource::new(17);
    let mut lines: Vec<String> = tree::test_set(20).iter().map(TreeTask::input_text).collect();
    lines.extend((0..40).map(|_| TreeTask::random(&mut rng).input_text()));
    lines.push("NL, NO, LJ, LI, OA, OM, JB, JH, IG, IF, AD, AE, MK, MC[ROOT]N[TARGET]K[ROUTE]".into());
    lines.push("AB, AC[ROOT]A[TARGET]C[ROUTE]".into());
    lines
}

const TREE_CHARS: &[char] = &['A', 'B', 'C', 'D', 'N', 'Z', ',', ' ', '[', ']', 'R', 'O', 'T'];
const TREE_DICT: &[&str] = &["[ROOT]", "[TARGET]", "[ROUTE]", ", ", ",", "AB", "A", "[", "]", "NOMK", "[EOS]"];

/// `TreeTask::parse(line)`; an accepted task's own text parses back to it.
pub fn tree_text(fuzz: &mut Fuzz, index: u64, rng: &mut Rng, seeds: &[String]) {
    let line = if rng.one_in(6) {
        random_text(rng, TREE_CHARS, 200)
    } else {
        let seed = rng.pick(seeds).clone();
        let others: Vec<&str> = (0..2).map(|_| rng.pick(seeds).as_str()).collect();
        mutate_text(rng, &seed, TREE_CHARS, TREE_DICT, &others)
    };
    fuzz.case(
        index,
        || format!("TreeTask::parse({})", escape_str(&line)),
        || {
            let task = TreeTask::parse(&line).map_err(|e| e.to_string())?;
            assert_eq!(TreeTask::parse(&task.input_text()).as_ref(), Ok(&task), "text round trip");
            let route = task.route();
            assert!(route.len() >= 2 && route.len() <= tree::MAX_LEVELS, "route {route:?}");
            assert!(task.full_tokens().len() <= tree::MAX_LEN);
            assert_eq!(task.tree.layout().len(), task.tree.edges().len() + 1);
            Ok(())
        },
    );
}
