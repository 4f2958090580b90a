//! Solving with the rule check in the loop: what only an exact task offers. The paper's sampler
//! (the GRAM paper, appendix B.1) runs N trajectories for the whole step budget and then votes; here,
//! after every supervision step, each sample's answer is checked against the puzzle's rules
//! (`Task::is_valid`, free next to a forward pass), and the run **stops at the first step where
//! a sample verifies**, answering with that sample ("solved at step s, sample i"). When a whole
//! round of the budget ends with nothing verified, the next round **restarts all N trajectories
//! from z0 with fresh noise** (a new seed), up to `rounds` rounds; when none verifies, the
//! answer is the last round's vote, as the paper's. Round 0 is exactly the plain run with
//! `options.seed`, so with `rounds = 1` this answers whatever the plain vote answers whenever
//! no sample verifies, and a verified sample otherwise.
//!
//! With [`Restarts::copies`], rounds solve answer-preserving copies of the puzzle
//! ([`crate::tasks::InputCopy`]): one fresh copy per restart ([`Copies::Restarts`]: the restart
//! changes what it restarts, not only the noise), or a copy per sample ([`Copies::Samples`]),
//! read back into the puzzle's frame before the rule check.
//!
//! A deterministic run (TRM, or GRAM at guidance scale 0) repeats itself on the same input, so
//! without copies it gets one round.

use burn::tensor::Device;

use super::round_input::RoundInput;
use super::round_log::RoundLog;
use super::trajectories_to_run;
use crate::gram::{Gram, SampleOptions, Selection};
use crate::tasks::Copies;
use crate::tasks::{Solved, TokenTask};

/// How a verified run restarts when a whole budget verified nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restarts {
    /// Rounds in all: 1 + restarts.
    pub rounds: usize,
    /// What the rounds solve where the task makes copies ([`TokenTask::restart_copy`]); with
    /// [`Copies::None`] every round reruns the puzzle as given with fresh noise.
    pub copies: Copies,
}

impl Restarts {
    /// `restarts` restarts, each on the puzzle as given.
    pub fn fresh_noise(restarts: usize) -> Self {
        Restarts { rounds: 1 + restarts, copies: Copies::None }
    }
}

/// Where a run verified: its round (0-based), supervision step (1-based, within the round) and
/// sample (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VerifiedAt {
    pub round: usize,
    pub step: usize,
    pub sample: usize,
}

/// One puzzle's verified run.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifiedRun<A> {
    /// The samples at the step the run stopped (the verified step, or the last round's last),
    /// `selected` the verified sample or the vote.
    pub solved: Solved<A>,
    pub verified: Option<VerifiedAt>,
    /// Compute spent: trajectories run x supervision steps taken, over every round.
    pub trajectory_steps: usize,
    /// Rounds run.
    pub rounds: usize,
}

/// The seed of round `round`: `seed` itself for round 0 (the plain run), then streams far from
/// `seed + 1`, `seed + 2` (which other runs use).
pub fn round_seed(seed: u64, round: usize) -> u64 {
    seed ^ (round as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The rounds a verified run with `restarts` actually runs: a deterministic run (TRM, or GRAM
/// at guidance scale 0; [`trajectories_to_run`] runs one trajectory) would repeat itself on the
/// same input, so without copies it gets one; at least one otherwise.
pub fn rounds_to_run(model: &Gram, options: &SampleOptions, restarts: Restarts) -> usize {
    if restarts.copies == Copies::None && trajectories_to_run(model, options).samples < options.samples {
        1
    } else {
        restarts.rounds.max(1)
    }
}

/// Solves one puzzle with the verified stop and restarts (module doc). `select` picks among the
/// samples when nothing verifies.
pub fn solve_verified<T: TokenTask>(
    task: &T,
    model: &Gram,
    puzzle: &T::Puzzle,
    options: &SampleOptions,
    restarts: Restarts,
    select: Selection,
    device: &Device,
) -> VerifiedRun<T::Answer> {
    let rounds = rounds_to_run(model, options, restarts);
    let run = trajectories_to_run(model, options);
    let n = run.samples;
    let tokens = task.tokens(puzzle);
    let mut spent = 0;
    let mut last = None;
    for round in 0..rounds {
        let input = RoundInput::new(options.seed, round, restarts.copies, n, |rng| task.restart_copy(&tokens, rng));
        let round_options = SampleOptions { seed: round_seed(options.seed, round), ..run.clone() };
        let mut trajectories = input.trajectories(model, &tokens, round_options, device);
        let mut log = RoundLog::new();
        let (mut verified, mut selected) = (None, 0);
        while !trajectories.is_done() && verified.is_none() {
            let obs = input.back(trajectories.step().clone());
            spent += n;
            verified = log.push(task, &obs).iter().position(|a| task.is_valid(puzzle, a));
            selected = verified.unwrap_or_else(|| select.pick(&obs.predictions, &obs.values, &obs.halt_logits));
        }
        let solved = log.solved(selected);
        let step = solved.steps;
        if let Some(sample) = verified {
            let at = VerifiedAt { round, step, sample };
            return expand(VerifiedRun { solved, verified: Some(at), trajectory_steps: spent, rounds: round + 1 }, options.samples);
        }
        last = Some(solved);
    }
    let solved = last.expect("at least one round");
    expand(VerifiedRun { solved, verified: None, trajectory_steps: spent, rounds }, options.samples)
}

/// A deterministic run's one trajectory stands for all N (as [`super::solve`] reports it).
fn expand<A: Clone>(mut r: VerifiedRun<A>, samples: usize) -> VerifiedRun<A> {
    let s = &mut r.solved;
    if s.samples.len() < samples {
        s.samples = vec![s.samples[0].clone(); samples];
        s.values = vec![s.values[0]; samples];
        s.halt_logits = vec![s.halt_logits[0]; samples];
        for answers in s.samples_by_step.iter_mut() {
            *answers = vec![answers[0].clone(); samples];
        }
        s.selected = 0;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::solve;
    use crate::tasks::sudoku::{Difficulty, Sudoku};
    use crate::tasks::{Part, Task};
    use crate::test_support::shipped_gram;

    fn shipped(name: &str) -> Gram {
        shipped_gram(name, &Device::flex())
    }

    #[test]
    fn round_zero_is_the_plain_run() {
        assert_eq!(round_seed(7, 0), 7);
        assert_ne!(round_seed(7, 1), 8);
        assert_ne!(round_seed(7, 1), round_seed(7, 2));
    }

    /// The stop is at the first step with a valid sample, that sample is the answer, the compute
    /// is N x steps; with nothing valid the answer is the plain run's vote after the whole budget.
    #[test]
    fn stops_at_the_first_verified_step_and_otherwise_votes_like_the_plain_run() {
        let device = Device::flex();
        let model = shipped("gram-sudoku");
        let task = Sudoku;
        let options = SampleOptions { samples: 4, max_steps: 6, seed: 3, settle: task.default_settle(), ..SampleOptions::default() };
        let mut verified_seen = 0;
        let mut puzzles: Vec<_> = task.instances(Part::Test).into_iter().take(3).map(|i| task.puzzle_of(&i).clone()).collect();
        puzzles.push(Difficulty::Expert.generate(11).puzzle);
        for puzzle in &puzzles {
            let plain = solve(&task, &model, std::slice::from_ref(puzzle), &options, Selection::Vote, 1, &device).remove(0);
            let v = solve_verified(&task, &model, puzzle, &options, Restarts::fresh_noise(0), Selection::Vote, &device);
            let first_valid = plain.samples_by_step.iter().position(|answers| answers.iter().any(|a| task.is_valid(puzzle, a)));
            match (first_valid, v.verified) {
                (Some(step), Some(at)) => {
                    verified_seen += 1;
                    assert_eq!((at.round, at.step), (0, step + 1));
                    let want = plain.samples_by_step[step].iter().position(|a| task.is_valid(puzzle, a)).unwrap();
                    assert_eq!((at.sample, v.solved.selected), (want, want));
                    assert!(task.is_valid(puzzle, v.solved.selected()));
                    assert_eq!(v.trajectory_steps, 4 * (step + 1));
                    assert_eq!(v.solved.samples, plain.samples_by_step[step]);
                }
                (None, None) => {
                    assert_eq!(v.solved.selected(), plain.selected());
                    assert_eq!(v.trajectory_steps, 4 * 6);
                }
                other => panic!("the verified run disagrees with the plain run's samples: {other:?}"),
            }
        }
        assert!(verified_seen > 0, "the shipped model verifies some test puzzle");
    }

    /// Restarts spend more rounds only while nothing verifies, each a full budget; a
    /// deterministic model gets one round whatever is asked.
    #[test]
    fn restarts_spend_rounds_only_while_nothing_verifies() {
        let device = Device::flex();
        let task = Sudoku;
        let puzzle = Difficulty::Expert.generate(5).puzzle;
        let options = SampleOptions { samples: 2, max_steps: 2, seed: 1, ..SampleOptions::default() };
        let gram = shipped("gram-sudoku");
        let v = solve_verified(&task, &gram, &puzzle, &options, Restarts::fresh_noise(2), Selection::Vote, &device);
        match v.verified {
            Some(at) => assert_eq!((v.rounds, v.trajectory_steps), (at.round + 1, 2 * (2 * at.round + at.step))),
            None => assert_eq!((v.rounds, v.trajectory_steps), (3, 3 * 2 * 2)),
        }
        let trm = shipped("trm-sudoku");
        let t = solve_verified(&task, &trm, &puzzle, &options, Restarts::fresh_noise(2), Selection::Vote, &device);
        assert_eq!(t.rounds, 1);
        assert_eq!(t.solved.samples.len(), 2);
        assert!(t.trajectory_steps <= 2, "one trajectory: {}", t.trajectory_steps);
    }

    /// Restarts on copies: round 0 is the run on the puzzle as given; later rounds solve copies
    /// (so even TRM, deterministic, gets every round), and whatever verifies answers the puzzle
    /// as given.
    #[test]
    fn restarts_on_copies_answer_the_puzzle_as_given() {
        let device = Device::flex();
        let task = Sudoku;
        let options = SampleOptions { samples: 2, max_steps: 2, seed: 1, ..SampleOptions::default() };
        let copies = Restarts { rounds: 3, copies: Copies::Restarts };
        for name in ["gram-sudoku", "trm-sudoku"] {
            let model = shipped(name);
            for seed in [5, 6, 7] {
                let puzzle = Difficulty::Expert.generate(seed).puzzle;
                let plain = solve_verified(&task, &model, &puzzle, &options, Restarts::fresh_noise(0), Selection::Vote, &device);
                let v = solve_verified(&task, &model, &puzzle, &options, copies, Selection::Vote, &device);
                match v.verified {
                    Some(at) => {
                        assert!(task.is_valid(&puzzle, v.solved.selected()), "{name}: a verified copy answers the original");
                        if at.round == 0 {
                            assert_eq!(Some(at), plain.verified);
                        }
                    }
                    None => assert_eq!(v.rounds, 3, "{name}: every round runs while nothing verifies"),
                }
                if plain.verified.is_some() {
                    assert_eq!(v.verified, plain.verified, "round 0 is the plain run");
                }
            }
        }
    }

    /// Copies per sample: round 0's first sample is the plain run's first sample step for step
    /// (same input, same noise), the others solve copies, and whatever verifies answers the
    /// puzzle as given.
    #[test]
    fn sample_copies_keep_the_first_sample_and_answer_the_puzzle_as_given() {
        let device = Device::flex();
        let task = Sudoku;
        let model = shipped("gram-sudoku");
        let options = SampleOptions { samples: 3, max_steps: 3, seed: 2, guidance_scale: 3.0, ..SampleOptions::default() };
        let samples = Restarts { rounds: 1, copies: Copies::Samples };
        let mut verified = 0;
        for seed in [5, 6, 7, 8] {
            let puzzle = Difficulty::Expert.generate(seed).puzzle;
            let plain = solve_verified(&task, &model, &puzzle, &options, Restarts::fresh_noise(0), Selection::Vote, &device);
            let v = solve_verified(&task, &model, &puzzle, &options, samples, Selection::Vote, &device);
            let steps = plain.solved.samples_by_step.len().min(v.solved.samples_by_step.len());
            for k in 0..steps {
                assert_eq!(v.solved.samples_by_step[k][0], plain.solved.samples_by_step[k][0], "step {}", k + 1);
            }
            if let Some(at) = v.verified {
                verified += 1;
                assert!(task.is_valid(&puzzle, &v.solved.samples[at.sample]));
            }
        }
        assert!(verified > 0, "some expert puzzle verifies within 3 steps of 3 samples");
    }
}
