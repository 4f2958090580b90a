//! Scoring a task's instances: the task's report over every instance, on every core.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

use burn::tensor::Device;

use super::{Restarts, solve, solve_on_copies, solve_verified};
use crate::gram::{Gram, SampleOptions, Selection};
use crate::tasks::{Solved, TokenTask};

/// The task's report over `instances` (the vote selects; the task's metrics read the samples).
///
/// Chunks of `chunk` puzzles are solved on every core the machine offers (one worker per core,
/// each taking the next chunk; one ran at ~100% of a core here). A chunk's samples depend only
/// on the seed and the chunk's contents (see [`solve`]), and the report adds chunks in order, so
/// the result is the same for any number of workers. `progress(done, report)` sees the report
/// after each chunk, in order.
pub fn evaluate<T: TokenTask>(
    task: &T,
    model: &Gram,
    instances: &[T::Instance],
    options: &SampleOptions,
    chunk: usize,
    device: &Device,
    progress: impl FnMut(usize, &T::Report),
) -> T::Report {
    evaluate_selected(task, model, instances, options, &[], chunk, device, progress).0
}

/// How often one selection's answer passes the task's rules ([`crate::tasks::Task::is_valid`]:
/// for N-Queens a valid completion, for Sudoku the unique solution).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SelectedTally {
    pub select: Selection,
    pub inputs: usize,
    pub right: usize,
}

impl SelectedTally {
    /// Percent of inputs whose picked answer is right.
    pub fn accuracy(&self) -> f64 {
        100.0 * self.right as f64 / self.inputs.max(1) as f64
    }
}

/// [`evaluate`], and for each of `selects` how often the answer it picks among an input's
/// samples is right ([`Solved::picked`]: all are read from the same trajectories; the report
/// itself does not depend on them).
// The evaluation's knobs (options, selection, chunking, workers) each vary independently across callers.
#[allow(clippy::too_many_arguments)]
pub fn evaluate_selected<T: TokenTask>(
    task: &T,
    model: &Gram,
    instances: &[T::Instance],
    options: &SampleOptions,
    selects: &[Selection],
    chunk: usize,
    device: &Device,
    progress: impl FnMut(usize, &T::Report),
) -> (T::Report, Vec<SelectedTally>) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    evaluate_with_workers(task, model, instances, options, selects, chunk, device, cores, progress)
}

// The same knobs as `evaluate_selected`, plus the worker count.
#[allow(clippy::too_many_arguments)]
pub(crate) fn evaluate_with_workers<T: TokenTask>(
    task: &T,
    model: &Gram,
    instances: &[T::Instance],
    options: &SampleOptions,
    selects: &[Selection],
    chunk: usize,
    device: &Device,
    workers: usize,
    progress: impl FnMut(usize, &T::Report),
) -> (T::Report, Vec<SelectedTally>) {
    let solve_chunk = |group: &[T::Instance]| {
        let puzzles: Vec<T::Puzzle> = group.iter().map(|i| task.puzzle_of(i).clone()).collect();
        solve(task, model, &puzzles, options, Selection::Vote, chunk.max(1), device)
    };
    score_chunks(task, instances, options.samples, chunk, workers, selects, solve_chunk, progress)
}

/// [`evaluate_selected`] with a copy of the puzzle per sample ([`solve_on_copies`]), one input
/// per batch, on every core. Panics where the task makes no copies (callers check
/// [`crate::tasks::TokenTask::restart_copy`] first).
pub fn evaluate_on_copies<T: TokenTask>(
    task: &T,
    model: &Gram,
    instances: &[T::Instance],
    options: &SampleOptions,
    selects: &[Selection],
    device: &Device,
    progress: impl FnMut(usize, &T::Report),
) -> (T::Report, Vec<SelectedTally>) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let solve_one = |group: &[T::Instance]| {
        group
            .iter()
            .map(|i| solve_on_copies(task, model, task.puzzle_of(i), options, Selection::Vote, device).expect("the task makes copies"))
            .collect()
    };
    score_chunks(task, instances, options.samples, 1, cores, selects, solve_one, progress)
}

/// What the verified stop spent and found over an evaluation ([`evaluate_verified`]), overall
/// and per group of the task ([`TokenTask::group_of`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VerifiedStats {
    pub overall: VerifiedTally,
    pub groups: BTreeMap<(usize, String), VerifiedTally>,
}

/// One row of [`VerifiedStats`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VerifiedTally {
    pub inputs: usize,
    /// Inputs where a sample verified: those answered right (the check runs after every step,
    /// the last included, so the vote of an input with none verified is never right).
    pub verified: usize,
    /// Trajectories x supervision steps, summed over inputs.
    pub trajectory_steps: usize,
    /// Rounds run, summed over inputs (one per input when no restart was needed).
    pub rounds: usize,
    /// Per round r: the inputs that verified in it and the trajectory-steps they spent in all.
    /// Round r's noise does not depend on how many rounds were allowed, so this also gives
    /// every smaller restart budget's result ([`VerifiedTally::with_restarts`]).
    pub by_round: Vec<(usize, usize)>,
}

impl VerifiedTally {
    /// What a run allowed only `restarts` restarts would have found and spent, given
    /// `per_round` trajectory-steps for a whole round that verifies nothing: (verified,
    /// trajectory-steps).
    pub fn with_restarts(&self, restarts: usize, per_round: usize) -> (usize, usize) {
        let kept = &self.by_round[..self.by_round.len().min(restarts + 1)];
        let (verified, spent) = kept.iter().fold((0, 0), |(v, s), (rv, rs)| (v + rv, s + rs));
        (verified, spent + (self.inputs - verified) * (restarts + 1) * per_round)
    }
}

/// [`evaluate`] with the verified stop and `restarts` per input ([`solve_verified`]), one
/// input per batch (each stops on its own), and what it spent.
// The verified stop's knobs (options, restarts, copies, chunking) each vary independently across callers.
#[allow(clippy::too_many_arguments)]
pub fn evaluate_verified<T: TokenTask>(
    task: &T,
    model: &Gram,
    instances: &[T::Instance],
    options: &SampleOptions,
    restarts: Restarts,
    select: Selection,
    device: &Device,
    progress: impl FnMut(usize, &T::Report),
) -> (T::Report, VerifiedStats) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let stats = Mutex::new(VerifiedStats::default());
    let solve_one = |group: &[T::Instance]| {
        let runs: Vec<_> =
            group.iter().map(|i| solve_verified(task, model, task.puzzle_of(i), options, restarts, select, device)).collect();
        let mut s = stats.lock().expect("no worker panics");
        for (inst, r) in group.iter().zip(&runs) {
            let VerifiedStats { overall, groups } = &mut *s;
            for t in [overall, groups.entry(task.group_of(inst)).or_default()] {
                t.inputs += 1;
                t.verified += r.verified.is_some() as usize;
                t.trajectory_steps += r.trajectory_steps;
                t.rounds += r.rounds;
                if let Some(at) = r.verified {
                    if t.by_round.len() <= at.round {
                        t.by_round.resize(at.round + 1, (0, 0));
                    }
                    t.by_round[at.round].0 += 1;
                    t.by_round[at.round].1 += r.trajectory_steps;
                }
            }
        }
        runs.into_iter().map(|r| r.solved).collect()
    };
    let (report, _) = score_chunks(task, instances, options.samples, 1, cores, &[], solve_one, progress);
    (report, stats.into_inner().expect("no worker panics"))
}

/// Scores `instances` in chunks of `chunk`, `solve_chunk` answering each, on `workers` threads,
/// adding the chunks to the report (and each of `selects`' picks to its tally) in order.
// The chunk loop shared by the evaluators: their knobs pass through unchanged.
#[allow(clippy::too_many_arguments)]
fn score_chunks<T: TokenTask>(
    task: &T,
    instances: &[T::Instance],
    samples: usize,
    chunk: usize,
    workers: usize,
    selects: &[Selection],
    solve_chunk: impl Fn(&[T::Instance]) -> Vec<Solved<T::Answer>> + Sync,
    mut progress: impl FnMut(usize, &T::Report),
) -> (T::Report, Vec<SelectedTally>) {
    let chunk = chunk.max(1);
    let chunks: Vec<&[T::Instance]> = instances.chunks(chunk).collect();
    let mut report = task.new_report(samples);
    let mut selected: Vec<SelectedTally> = selects.iter().map(|&select| SelectedTally { select, inputs: 0, right: 0 }).collect();
    let mut add = |i: usize, solved: &[Solved<T::Answer>], report: &mut T::Report| {
        for (inst, s) in chunks[i].iter().zip(solved) {
            task.score(report, inst, s);
            for t in selected.iter_mut() {
                t.inputs += 1;
                t.right += task.is_valid(task.puzzle_of(inst), s.picked(t.select)) as usize;
            }
        }
        progress(((i + 1) * chunk).min(instances.len()), report);
    };
    let workers = workers.min(chunks.len());
    if workers <= 1 {
        // One core (or wasm, which has no threads): in place.
        for (i, group) in chunks.iter().enumerate() {
            add(i, &solve_chunk(group), &mut report);
        }
        return (report, selected);
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Vec<Solved<T::Answer>>)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (tx, next, chunks, solve_chunk) = (tx.clone(), &next, &chunks, &solve_chunk);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(group) = chunks.get(i) else { break };
                    if tx.send((i, solve_chunk(group))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Chunks finish out of order; add them in order.
        let mut finished = BTreeMap::new();
        let mut in_order = 0;
        for (i, solved) in rx {
            finished.insert(i, solved);
            while let Some(solved) = finished.remove(&in_order) {
                add(in_order, &solved, &mut report);
                in_order += 1;
            }
        }
    });
    (report, selected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::nqueens::NQueens;
    use crate::tasks::{Part, Task, spread};
    use crate::test_support::shipped_gram;

    /// Scoring on several cores gives the same report as on one, and sees progress in order.
    #[test]
    fn evaluation_does_not_depend_on_the_number_of_workers() {
        let device = Device::flex();
        let model = shipped_gram("gram-nqueens8", &device);
        let task = NQueens::new(8);
        let instances = spread(&task.instances(Part::Test), 24);
        let options = SampleOptions { samples: 4, max_steps: 3, ..SampleOptions::default() };
        let run = |workers| {
            let mut seen = Vec::new();
            let selects = [Selection::Vote, Selection::Lprm, Selection::Q];
            let (r, selected) =
                evaluate_with_workers(&task, &model, &instances, &options, &selects, 5, &device, workers, |done, _| seen.push(done));
            (r.overall, r.by_group, seen, selected)
        };
        let one = run(1);
        assert_eq!(one.2, vec![5, 10, 15, 20, 24]);
        assert!(one.3.iter().all(|t| t.inputs == 24), "{:?}", one.3);
        assert!(one.0.coverage_sum > 0.0, "the shipped model finds some completions: {:?}", one.0);
        assert_eq!(run(3), one);
    }

    /// A tally of 3 rounds read at 0 and 1 restarts is what runs allowed that many found and
    /// spent (round r's noise, and its copy, are the same whatever the budget).
    #[test]
    fn fewer_restarts_read_from_a_longer_run_match_runs_with_fewer() {
        use crate::gram::Selection;
        use crate::tasks::sudoku::{Difficulty, Sudoku};
        let device = Device::flex();
        let model = shipped_gram("gram-sudoku", &device);
        let task = Sudoku;
        let instances: Vec<_> = (0..6).map(|s| Difficulty::Expert.generate(100 + s)).collect();
        let options = SampleOptions { samples: 2, max_steps: 2, guidance_scale: 3.0, ..SampleOptions::default() };
        for copies in [crate::solve::Copies::None, crate::solve::Copies::Restarts, crate::solve::Copies::Samples] {
            let run = |rounds| {
                let restarts = crate::solve::Restarts { rounds, copies };
                evaluate_verified(&task, &model, &instances, &options, restarts, Selection::Vote, &device, |_, _| {}).1.overall
            };
            let three = run(3);
            assert_eq!(three.by_round.iter().map(|r| r.0).sum::<usize>(), three.verified);
            assert_eq!(three.with_restarts(2, 4), (three.verified, three.trajectory_steps));
            for restarts in [0, 1] {
                let fewer = run(restarts + 1);
                assert_eq!(
                    three.with_restarts(restarts, 4),
                    (fewer.verified, fewer.trajectory_steps),
                    "{restarts} restarts, copies {copies:?}"
                );
            }
        }
    }
}
