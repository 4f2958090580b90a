//! A run split among shares ([`super::share::Share`]) is the whole run: every share's boards,
//! put back together in share order, are the whole run's at every step, on each page's kind of
//! run (N-Queens, colouring on a copy per sample, Sudoku's verified stop with restarts, a
//! deterministic TRM, a run the visitor changed), and the CLI's `solve` gives the same boards.

use burn::tensor::Device;

use super::live::{Intervention, LiveRun, RunSpec};
use super::share::Share;
use super::step_answers::step_task;
use super::{Copies, VerifiedAt, lane::Lane};
use crate::gram::{Gram, SampleOptions, Selection};
use crate::tasks::TaskId;
use crate::test_support::shipped_gram;

/// Every step's boards of one share of `spec`, and where it verified.
fn share_steps(model: &Gram, task: TaskId, puzzle: &str, spec: &RunSpec, share: Share) -> (Vec<Vec<String>>, Option<VerifiedAt>) {
    let task = step_task(task).unwrap();
    let spec = RunSpec { share, ..spec.clone() };
    let mut run = LiveRun::new(model, &*task, puzzle, spec, &Device::flex()).unwrap();
    let mut steps = Vec::new();
    while !run.is_done() {
        steps.push(run.step().boards);
    }
    (steps, run.verified())
}

/// The whole run against `shares` shares: the same boards at every step the split run shows
/// (up to the first step any share verifies at), and the same verified sample.
fn assert_split_is_whole(model: &Gram, task: TaskId, puzzle: &str, spec: &RunSpec, shares: usize) {
    let (whole, verified) = share_steps(model, task, puzzle, spec, Share::ALL);
    let parts: Vec<_> = (0..shares).map(|i| share_steps(model, task, puzzle, spec, Share::new(i, shares).unwrap())).collect();
    // The split run ends at the first step (then the first share) any share verified at.
    let first = parts.iter().filter_map(|(s, v)| v.map(|v| (s.len(), v))).min_by_key(|(len, v)| (*len, v.sample));
    let len = first.map_or(parts[0].0.len(), |(len, _)| len);
    assert_eq!(len, whole.len(), "{shares} shares: steps");
    for (j, boards) in whole.iter().enumerate() {
        let merged: Vec<String> = parts.iter().flat_map(|(s, _)| s[j].clone()).collect();
        assert_eq!(&merged, boards, "{shares} shares, step {}", j + 1);
    }
    assert_eq!(first.map(|(_, v)| v), verified, "{shares} shares: where it verified");
}

fn spec(options: SampleOptions, verified_stop: bool, restarts: usize, copies: Copies) -> RunSpec {
    RunSpec { options, verified_stop, restarts, copies, interventions: Vec::new(), lane: Lane::ALONE, share: Share::ALL }
}

#[test]
fn nqueens_runs_split_among_workers_are_the_whole_run_and_the_clis() {
    use crate::tasks::Task;
    use crate::tasks::nqueens::NQueens;
    let device = Device::flex();
    let puzzle = format!("{}Q{}", ".".repeat(59), ".".repeat(4));
    let options = SampleOptions { samples: 7, max_steps: 4, seed: 7, ..SampleOptions::default() };
    for name in ["gram-nqueens8", "trm-nqueens8"] {
        let model = shipped_gram(name, &device);
        let plain = spec(options.clone(), false, 0, Copies::None);
        for shares in [2, 3] {
            assert_split_is_whole(&model, TaskId::NQueens(8), &puzzle, &plain, shares);
        }
        // A burst of noise on sample 5 (share 1 of 2 runs it) from step 2.
        let changed = RunSpec { interventions: vec![Intervention::Perturb { step: 2, sample: 5, sigma: 1.0 }], ..plain.clone() };
        assert_split_is_whole(&model, TaskId::NQueens(8), &puzzle, &changed, 2);
        // The CLI's `solve` (one puzzle per batch) draws what the page draws.
        let task = NQueens::new(8);
        let solved = super::solve(&task, &model, &[task.parse(&puzzle).unwrap()], &options, Selection::Vote, 1, &device);
        let cli: Vec<Vec<String>> = solved[0].samples_by_step.iter().map(|a| a.iter().map(|b| task.answer_text(b)).collect()).collect();
        assert_eq!(cli, share_steps(&model, TaskId::NQueens(8), &puzzle, &plain, Share::ALL).0, "{name}: the CLI");
        assert_eq!(task.id(), "nqueens8");
    }
}

#[test]
fn coloring_copies_and_sudoku_restarts_split_among_workers_are_the_whole_run() {
    use crate::tasks::coloring::Coloring;
    use crate::tasks::sudoku::Difficulty;
    use crate::tasks::{Part, Task};
    let device = Device::flex();
    let coloring = Coloring::new(8);
    let graph = coloring.puzzle_text(&coloring.instances(Part::Validation)[5].graph);
    let options = SampleOptions { samples: 6, max_steps: 3, seed: 2, ..SampleOptions::default() };
    for name in ["gram-coloring8", "trm-coloring8"] {
        let model = shipped_gram(name, &device);
        assert_split_is_whole(&model, TaskId::Coloring(8), &graph, &spec(options.clone(), false, 0, Copies::Samples), 2);
    }
    let model = shipped_gram("gram-sudoku", &device);
    let mut verified = 0;
    for (seed, difficulty) in [(3, Difficulty::Expert), (8, Difficulty::Medium)] {
        let puzzle = difficulty.generate(seed).puzzle.to_text();
        let options = SampleOptions { samples: 4, max_steps: 2, seed, ..SampleOptions::default() };
        let run = spec(options, true, 5, Copies::Samples);
        assert_split_is_whole(&model, TaskId::Sudoku, &puzzle, &run, 2);
        verified += share_steps(&model, TaskId::Sudoku, &puzzle, &run, Share::ALL).1.is_some() as usize;
    }
    assert!(verified > 0, "a run verified, so the stop was compared too");
}
