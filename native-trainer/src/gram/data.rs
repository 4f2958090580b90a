//! What training reads, per task: for a task whose oracle lists every answer (N-Queens, graph
//! colouring) every (input, answer) pair of its train part (`engine::training::Listed`,
//! which the page's training shares); for Sudoku a pool of generated
//! puzzles drawn through a fresh random augmentation each time (the GRAM paper and TRM train Sudoku on
//! augmented copies), or with `train --data DIR` the puzzles a user imported (`data import`,
//! `imports.rs`) as written; and the validation part the quick evals score. Written once over
//! the task interface: a new listed task needs nothing here.
//!
//! The test part is out of reach here: [`TrainData`] holds the train and validation parts only,
//! so nothing chosen during training (quick evals, when to stop) ever looks at the test split.

use std::path::{Path, PathBuf};

use burn::module::Module;
use burn::tensor::Device;
use engine::gram::noise::NoiseSource;
use engine::gram::{Gram, Trajectories};
use engine::solve::evaluate;
use engine::studies::arc::{self, dataset::examples};
use engine::tasks::sudoku::{self, Augmentation, Part, Sudoku};
use engine::tasks::{TaskId, spread};
use engine::training::listed::{is_right, quick_options};
use engine::training::{Listed, TrainSource};

pub use engine::training::Pair;

pub enum TrainData {
    /// Every (input, answer) pair of a listed task's train part (with `augment`, each draw a
    /// random answer-preserving copy when the task makes one: `train --augment`).
    Listed(Listed),
    Sudoku {
        pool: Vec<sudoku::Instance>,
        spec: sudoku::PoolSpec,
        validation: Vec<sudoku::Instance>,
    },
    /// A `sudoku-csv` import's train part, drawn as written (the import chose any augmentation),
    /// and its validation part.
    ImportedSudoku {
        dir: PathBuf,
        pool: Vec<sudoku::Instance>,
        validation: Vec<sudoku::Instance>,
    },
    /// An `arc` import's (input, output) canvases: the train part (every task's demonstration
    /// pairs) and the validation part (the training tasks' test pairs; `engine::studies::arc::dataset`).
    Arc {
        dir: PathBuf,
        tasks: usize,
        train: Vec<Pair>,
        validation: Vec<Pair>,
    },
}

/// Givens of the generated training puzzles (inclusive) unless a run says otherwise
/// (`train --givens`): the test bands' 22..=40.
pub const SUDOKU_TRAIN_GIVENS: (usize, usize) = sudoku::TRAIN_GIVENS;
/// The fewest givens `train --givens` may ask for: below it every target gives the same minimal
/// puzzles (the generator stops where no further removal keeps the solution unique).
pub const SUDOKU_MIN_TARGET: usize = sudoku::RATED_GIVENS.0;
/// Generated base puzzles; each draw augments one (~1.2e12 variants per base).
pub const SUDOKU_POOL: usize = 20_000;
/// Validation puzzles per difficulty band, for the quick evals.
pub const SUDOKU_VALIDATION_PER_BAND: usize = sudoku::TEST_PER_BAND;

/// Percent of `pairs` whose output the first of 5 samples gives exactly, and any of them.
fn arc_exact(model: &Gram, pairs: &[Pair], device: &Device) -> (f64, f64) {
    let (options, mut first, mut any) = (quick_options(), 0, 0);
    for chunk in pairs.chunks(8) {
        let inputs: Vec<Vec<u32>> = chunk.iter().map(|p| p.x.clone()).collect();
        let last = Trajectories::new(model, &inputs, options.clone(), device).run(|_| {});
        for (rows, pair) in last.predictions.chunks(options.samples).zip(chunk) {
            first += (rows[0] == pair.y) as usize;
            any += rows.contains(&pair.y) as usize;
        }
    }
    let pct = |k: usize| 100.0 * k as f64 / pairs.len().max(1) as f64;
    (pct(first), pct(any))
}

impl TrainData {
    /// `pool`: how Sudoku's generated pool is made (default: the plain generator over
    /// [`SUDOKU_TRAIN_GIVENS`]); no other task has one. `augment`: draw answer-preserving copies
    /// (a listed task that makes them; Sudoku's pool is always augmented).
    pub fn new(task: TaskId, seed: u64, pool: Option<sudoku::PoolSpec>, augment: bool) -> Result<TrainData, String> {
        match task {
            TaskId::Sudoku => Ok(TrainData::sudoku(
                SUDOKU_POOL,
                pool.unwrap_or(sudoku::PoolSpec::plain(SUDOKU_TRAIN_GIVENS)),
                SUDOKU_VALIDATION_PER_BAND,
                seed,
            )),
            TaskId::Tree => unreachable!("GRAM/TRM presets train token tasks"),
            task => Listed::new(task, augment).map(TrainData::Listed),
        }
    }

    /// A run's data: the import in `data` if it names one, else the task's own (`task` `None`:
    /// an ARC preset, which has only imports). `puzzle_ids`: ARC inputs lead with their puzzle
    /// id (a model with puzzle-embedding positions).
    pub fn for_run(
        task: Option<TaskId>,
        seed: u64,
        pool: Option<sudoku::PoolSpec>,
        data: Option<&Path>,
        puzzle_ids: bool,
        augment: bool,
    ) -> Result<TrainData, String> {
        match (task, data) {
            (_, Some(dir)) => TrainData::imported(task, dir, puzzle_ids),
            (Some(task), None) => TrainData::new(task, seed, pool, augment),
            (None, None) => Err("ARC presets train on an import: give --data DIR".into()),
        }
    }

    /// `train --data DIR`: the import in `dir`: a `sudoku-csv` import for a Sudoku preset, an
    /// `arc` import for an ARC preset (`task` `None`), its inputs led by their puzzle ids when
    /// `puzzle_ids` (`engine::gram::puzzle_embedding`).
    pub fn imported(task: Option<TaskId>, dir: &Path, puzzle_ids: bool) -> Result<TrainData, String> {
        let input =
            |e: &arc::ArcExample| if puzzle_ids { std::iter::once(e.puzzle_id).chain(e.x.iter().copied()).collect() } else { e.x.clone() };
        let pairs = |examples: Vec<arc::ArcExample>| examples.iter().map(|e| Pair { x: input(e), y: e.y.clone() }).collect::<Vec<_>>();
        match task {
            Some(TaskId::Sudoku) => {
                let (pool, validation) = crate::gram::imports::read_sudoku(dir)?;
                Ok(TrainData::ImportedSudoku { dir: dir.to_path_buf(), pool, validation })
            }
            None => {
                let tasks = crate::gram::imports::read_arc(dir)?;
                let (train, validation) = (pairs(examples(&tasks, Part::Train)), pairs(examples(&tasks, Part::Validation)));
                if train.is_empty() || validation.is_empty() {
                    return Err(format!(
                        "--data {}: no train or no validation pair (validation: the test pairs of tasks outside an evaluation subset)",
                        dir.display()
                    ));
                }
                Ok(TrainData::Arc { dir: dir.to_path_buf(), tasks: tasks.len(), train, validation })
            }
            Some(task) => Err(format!("--data: {} presets train on their own data", task.id())),
        }
    }

    /// A pool of `pool` train-part puzzles from `seed` made as `spec` says (each generated down
    /// to a target number of givens drawn uniformly from its range, the hardest of its K by the
    /// solver's rating; a target the generator cannot reach gives a minimal puzzle: no given can
    /// go), and `per_band` validation puzzles per band.
    pub fn sudoku(pool: usize, spec: sudoku::PoolSpec, per_band: usize, seed: u64) -> TrainData {
        TrainData::Sudoku { pool: sudoku::train_pool(pool, spec, seed), spec, validation: sudoku::validation_set(per_band) }
    }

    fn task(&self) -> TaskId {
        match self {
            TrainData::Listed(listed) => listed.task,
            TrainData::Sudoku { .. } | TrainData::ImportedSudoku { .. } => TaskId::Sudoku,
            TrainData::Arc { .. } => unreachable!("ARC has no task interface"),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            TrainData::Listed(listed) => listed.describe(),
            TrainData::Sudoku { pool, spec, validation } => {
                let (lo, hi) = pool.iter().fold((usize::MAX, 0), |(lo, hi), i| (lo.min(i.givens()), hi.max(i.givens())));
                let (median, p90, p99, most) = sudoku::rating_summary(pool);
                let hardest = if spec.hardest_of > 1 { format!(", each the hardest of {}", spec.hardest_of) } else { String::new() };
                format!(
                    "train {} generated puzzles (target givens {}-{}, made {lo}-{hi}{hardest}; solver guesses median {median}, 90th percentile {p90}, 99th {p99}, most {most}) x random augmentation, validation {} puzzles",
                    pool.len(),
                    spec.givens.0,
                    spec.givens.1,
                    validation.len()
                )
            }
            TrainData::ImportedSudoku { dir, pool, validation } => format!(
                "train {} imported puzzles from {} (as written), validation {} imported puzzles",
                pool.len(),
                dir.display(),
                validation.len()
            ),
            TrainData::Arc { dir, tasks, train, validation } => format!(
                "train {} ARC pairs of {tasks} tasks from {} (30x30 canvases), validation {} pairs",
                train.len(),
                dir.display(),
                validation.len()
            ),
        }
    }

    /// A fast training-time signal on `inputs` validation puzzles with 5 samples: (accuracy of
    /// the first sample, coverage@5) for listed tasks; (accuracy, solved by any of 5) for Sudoku.
    pub fn quick_eval(&self, model: &Gram, inputs: usize, device: &Device) -> (f64, f64, &'static str) {
        let plain = model.valid();
        match self {
            TrainData::Listed(listed) => {
                let (accuracy, coverage) = listed.quick_eval(&plain, inputs, quick_options(), device);
                (accuracy, coverage, "coverage@5")
            }
            TrainData::Sudoku { validation, .. } | TrainData::ImportedSudoku { validation, .. } => {
                let subset = spread(validation, inputs);
                let r = evaluate(&Sudoku, &plain, &subset, &quick_options(), 32, device, |_, _| {});
                (r.overall().accuracy(), r.overall().pass_at(5), "solved-by-any-of-5")
            }
            TrainData::Arc { validation, .. } => {
                let (first, any) = arc_exact(&plain, &spread(validation, inputs), device);
                (first, any, "exact-by-any-of-5")
            }
        }
    }
}

impl TrainSource for TrainData {
    /// A random training pair.
    fn draw(&self, rng: &mut NoiseSource) -> Pair {
        match self {
            TrainData::Listed(listed) => listed.draw(rng),
            TrainData::Sudoku { pool, .. } => loop {
                let inst = &pool[rng.index(pool.len())];
                let aug = Augmentation::random(rng);
                let puzzle = aug.apply(&inst.puzzle);
                // An augmented copy can land in the validation or test part: draw again.
                if sudoku::part_of(&puzzle) == Part::Train {
                    break Pair { x: puzzle.tokens(), y: aug.apply(&inst.solution).tokens() };
                }
            },
            TrainData::ImportedSudoku { pool, .. } => {
                let inst = &pool[rng.index(pool.len())];
                Pair { x: inst.puzzle.tokens(), y: inst.solution.tokens() }
            }
            TrainData::Arc { train, .. } => train[rng.index(train.len())].clone(),
        }
    }

    /// r = 1 when the prediction is a valid answer to the pair's input (the task's validator).
    /// ARC: the prediction is the pair's output canvas, every token.
    fn reward(&self, pair: &Pair, prediction: &[u32]) -> f32 {
        let right = match self {
            TrainData::Arc { .. } => pair.y == prediction,
            _ => is_right(self.task(), &pair.x, prediction),
        };
        if right { 1.0 } else { 0.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::tasks::Task;

    /// Training reads only the train part of a listed task, every drawn target is a right answer
    /// to its input (an augmented colouring copy too), and the validation part the quick eval
    /// reads is disjoint from it.
    #[test]
    fn listed_training_holds_no_test_input_and_rewards_its_targets() {
        use engine::tasks::coloring::{self, Coloring, Graph};
        use engine::tasks::nqueens::{self, Board, NQueens};
        for (task, augment) in [(TaskId::NQueens(8), false), (TaskId::Coloring(8), false), (TaskId::Coloring(8), true)] {
            let data = TrainData::new(task, 0, None, augment).unwrap();
            let TrainData::Listed(Listed { inputs, pairs, validation, .. }) = &data else { unreachable!() };
            assert!(*validation > 0 && !pairs.is_empty());
            let mut rng = NoiseSource::new(1);
            for _ in 0..300 {
                let pair = data.draw(&mut rng);
                let part = match task {
                    TaskId::NQueens(n) => nqueens::part_of(&Board::from_tokens(&pair.x, n).unwrap()),
                    _ => coloring::part_of(&Graph::from_tokens(&pair.x, 8).unwrap()),
                };
                assert_eq!(part, Part::Train);
                assert_eq!(data.reward(&pair, &pair.y), 1.0, "{task:?}: the target answers its input");
            }
            let expected = match task {
                TaskId::NQueens(n) => NQueens::new(n).instances(Part::Train).len(),
                _ => Coloring::new(8).instances(Part::Train).len(),
            };
            assert_eq!(inputs.len(), expected);
        }
        // A wrong colouring (every vertex colour 0) earns nothing.
        let data = TrainData::new(TaskId::Coloring(8), 0, None, false).unwrap();
        let pair = data.draw(&mut NoiseSource::new(3));
        let wrong: Vec<u32> = pair.y.iter().map(|&t| if t >= coloring::FIRST_COLOUR { coloring::FIRST_COLOUR } else { t }).collect();
        assert_eq!(data.reward(&pair, &wrong), 0.0);
    }

    #[test]
    fn sudoku_training_holds_no_test_input_and_evals_on_validation() {
        use engine::tasks::sudoku::SudokuGrid;
        let data = TrainData::sudoku(200, sudoku::PoolSpec::plain(SUDOKU_TRAIN_GIVENS), 3, 0);
        let TrainData::Sudoku { pool, validation, .. } = &data else { unreachable!() };
        assert!(pool.iter().all(|i| sudoku::part_of(&i.puzzle) == Part::Train));
        let mut rng = NoiseSource::new(2);
        for _ in 0..500 {
            let pair = data.draw(&mut rng);
            assert_eq!(sudoku::part_of(&SudokuGrid::from_tokens(&pair.x).unwrap()), Part::Train);
            assert_eq!(data.reward(&pair, &pair.y), 1.0, "the target solves the augmented input");
        }
        assert_eq!(validation.len(), 12);
        assert!(validation.iter().all(|i| sudoku::part_of(&i.puzzle) == Part::Validation));
    }

    /// `train --givens 17-22`: every pooled puzzle hits its target or is minimal (no given can
    /// go without a second solution), and all are expert-band or harder.
    #[test]
    fn a_hard_sudoku_pool_goes_down_to_minimal_puzzles() {
        use engine::tasks::sudoku::unique_solution;
        let data = TrainData::sudoku(12, sudoku::PoolSpec::plain((SUDOKU_MIN_TARGET, 22)), 1, 5);
        let TrainData::Sudoku { pool, .. } = &data else { unreachable!() };
        assert!(data.describe().contains("target givens 17-22"), "{}", data.describe());
        for inst in pool {
            assert!(inst.givens() <= 27, "{} givens", inst.givens());
            assert_eq!(unique_solution(&inst.puzzle), Some(inst.solution.clone()));
            if inst.givens() > 22 {
                for cell in (0..81).filter(|&c| inst.puzzle.get(c) != 0) {
                    let mut fewer = inst.puzzle.clone();
                    fewer.set(cell, 0);
                    assert_eq!(unique_solution(&fewer), None, "a given of a minimal puzzle can go");
                }
            }
        }
    }

    /// The training code never names the test split: only this test module may.
    #[test]
    fn training_code_never_names_the_test_split() {
        let sources = [
            ("data.rs", include_str!("data.rs")),
            ("train.rs", include_str!("train.rs")),
            ("train_cli.rs", include_str!("../train_cli.rs")),
            ("engine's training/batch.rs", include_str!("../../../engine/src/training/batch.rs")),
            ("engine's training/listed.rs", include_str!("../../../engine/src/training/listed.rs")),
            ("engine's training/step.rs", include_str!("../../../engine/src/training/step.rs")),
            ("engine's training/trainer.rs", include_str!("../../../engine/src/training/trainer.rs")),
            ("state.rs", include_str!("state.rs")),
            ("run/checkpoint.rs", include_str!("../run/checkpoint.rs")),
            ("run/course.rs", include_str!("../run/course.rs")),
            ("reasoner/train.rs", include_str!("../reasoner/train.rs")),
            ("reasoner/presets.rs", include_str!("../reasoner/presets.rs")),
            ("grammar/train.rs", include_str!("../grammar/train.rs")),
            ("lm/train.rs", include_str!("../lm/train.rs")),
            ("imports.rs", include_str!("imports.rs")),
        ];
        for (name, text) in sources {
            let code = text.split("#[cfg(test)]").next().unwrap();
            for banned in ["test_set(", "Part::Test"] {
                assert!(!code.contains(banned), "{name} names the test split ({banned})");
            }
        }
    }
}
