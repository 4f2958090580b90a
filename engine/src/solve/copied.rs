//! The paper's sampler with a copy per sample: N trajectories for the whole step budget, each on
//! its own answer-preserving copy of the puzzle ([`crate::tasks::InputCopy`]; sample 0 on the
//! puzzle as given), every answer read back into the puzzle's frame before it is scored.
//!
//! Not the GRAM paper's sampler: there the N samples differ only by the noise the model draws,
//! so a deterministic model (TRM) answers one thing N times. Here the samples also differ by what
//! they are shown, so TRM's N answers differ too; what the copies add and what the noise adds
//! are measured apart (docs/results/coloring.md, "A copy per sample").

use burn::tensor::Device;

use super::round_input::RoundInput;
use super::round_log::RoundLog;
use crate::gram::{Gram, SampleOptions, Selection};
use crate::tasks::{Copies, Solved, TokenTask};

/// Samples one puzzle as [`super::solve`] does, with sample `j > 0` on its own copy (drawn from
/// `options.seed`). A deterministic model runs all N rows too: each sees another copy. `None`
/// where the task makes no copies.
pub fn solve_on_copies<T: TokenTask>(
    task: &T,
    model: &Gram,
    puzzle: &T::Puzzle,
    options: &SampleOptions,
    select: Selection,
    device: &Device,
) -> Option<Solved<T::Answer>> {
    let tokens = task.tokens(puzzle);
    let n = options.samples.max(1);
    let input = RoundInput::new(options.seed, 0, Copies::Samples, n, |rng| task.restart_copy(&tokens, rng));
    if n > 1 && !input.has_copies() {
        return None;
    }
    let mut trajectories = input.trajectories(model, &tokens, SampleOptions { samples: n, ..options.clone() }, device);
    let mut log = RoundLog::new();
    let mut last = None;
    while !trajectories.is_done() {
        let obs = input.back(trajectories.step().clone());
        log.push(task, &obs);
        last = Some(obs);
    }
    let obs = last.expect("at least one step");
    Some(log.solved(select.pick(&obs.predictions, &obs.values, &obs.halt_logits)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::coloring::Coloring;
    use crate::tasks::nqueens::NQueens;
    use crate::tasks::{Part, Task};
    use crate::test_support::shipped_gram;

    /// Sample 0 is the plain run's on the graph as given, step for step; every other sample is
    /// the model's own answer on its copy read back into the graph's frame; TRM (deterministic)
    /// gets N rows, one per copy; a task without copies gets `None`.
    #[test]
    fn samples_on_copies_are_the_models_answers_on_the_copies_read_back() {
        let device = Device::flex();
        let task = Coloring::new(8);
        let options = SampleOptions { samples: 5, max_steps: 3, seed: 4, ..SampleOptions::default() };
        let mut differ = 0;
        for name in ["gram-coloring8", "trm-coloring8"] {
            let model = shipped_gram(name, &device);
            for inst in task.instances(Part::Validation).iter().take(4) {
                let copied =
                    solve_on_copies(&task, &model, &inst.graph, &options, Selection::Vote, &device).expect("colouring makes copies");
                assert_eq!((copied.samples.len(), copied.samples_by_step.len(), copied.steps), (5, 3, 3));
                let plain = super::super::solve(&task, &model, std::slice::from_ref(&inst.graph), &options, Selection::Vote, 1, &device);
                for k in 0..3 {
                    assert_eq!(copied.samples_by_step[k][0], plain[0].samples_by_step[k][0], "{name}: step {}", k + 1);
                }
                let tokens = task.tokens(&inst.graph);
                let input = RoundInput::new(options.seed, 0, Copies::Samples, 5, |rng| task.restart_copy(&tokens, rng));
                for j in 1..5 {
                    let copy = input.copy(j).expect("samples after the first solve copies");
                    let graph = task.puzzle_from_tokens(&copy.x).expect("a copy is a graph");
                    if name.starts_with("trm") {
                        let alone = super::super::solve(&task, &model, std::slice::from_ref(&graph), &options, Selection::Vote, 1, &device);
                        let back = task.answer_from_prediction(&copy.prediction_back(&graph.target_tokens(&alone[0].samples[0])));
                        assert_eq!(copied.samples[j], back, "{name}: sample {j} is TRM's answer on its copy");
                    }
                }
                differ += (copied.samples.iter().any(|a| a.canonical() != copied.samples[0].canonical())) as usize;
            }
        }
        assert!(differ > 0, "copies give some graph more than one answer");
        let queens = NQueens::new(8);
        let board = queens.parse(&".".repeat(64)).unwrap();
        let gram = shipped_gram("gram-nqueens8", &device);
        assert!(solve_on_copies(&queens, &gram, &board, &options, Selection::Vote, &device).is_none(), "N-Queens makes no copies");
    }
}
