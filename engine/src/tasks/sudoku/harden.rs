//! Harder puzzles than removing clues makes: a hill climb on the exact solver's rating.
//!
//! The generator ([`super::generate`]) removes clues in one random order and stops at the
//! first minimal puzzle; even the hardest of 51,200 of its puzzles needs 198 guesses of the
//! solver, where Easter Monster needs 677. Hunters of hard puzzles reach such ratings by small
//! changes that keep a single solution. Here a puzzle's clues are moved around its own solution
//! grid: each proposal drops a clue, adds one (the solution's digit), or moves one to an empty
//! cell; it is kept when the puzzle still has exactly one solution (the same one: every clue is
//! the solution's digit) and the rating does not fall. Equal ratings are kept too, so the climb
//! drifts along plateaus instead of stalling on them.

use super::solver::{Instance, solve_with_limit};
use super::{CELLS, SudokuGrid};
use crate::gram::noise::NoiseSource;

/// One proposal: the puzzle with one clue dropped, one added, or one moved.
fn propose(puzzle: &SudokuGrid, solution: &SudokuGrid, rng: &mut NoiseSource) -> SudokuGrid {
    let (given, blank): (Vec<usize>, Vec<usize>) = (0..CELLS).partition(|&c| puzzle.get(c) != 0);
    let mut next = puzzle.clone();
    let drop = |g: &mut SudokuGrid, rng: &mut NoiseSource| g.set(given[rng.index(given.len())], 0);
    let add = |g: &mut SudokuGrid, rng: &mut NoiseSource| {
        let c = blank[rng.index(blank.len())];
        g.set(c, solution.get(c));
    };
    match rng.index(3) {
        0 if given.len() > 17 => drop(&mut next, rng),
        1 if !blank.is_empty() => add(&mut next, rng),
        _ if !blank.is_empty() => {
            drop(&mut next, rng);
            add(&mut next, rng);
        }
        _ => drop(&mut next, rng),
    }
    next
}

/// Climbs `moves` proposals from `start` and returns the hardest puzzle met that `keep`
/// accepts (the start included; its rating is the solver's guesses, as [`Instance::guesses`]),
/// or `None` if `keep` accepted none. The walk itself is free; `keep` only chooses what is
/// returned, for example the puzzles of one part of the split ([`super::part_of`]). A pure
/// function of `start` and `rng`.
pub fn harden(start: &Instance, moves: usize, rng: &mut NoiseSource, keep: impl Fn(&SudokuGrid) -> bool) -> Option<Instance> {
    let mut current = start.clone();
    let mut best = keep(&start.puzzle).then(|| start.clone());
    for _ in 0..moves {
        let puzzle = propose(&current.puzzle, &current.solution, rng);
        let report = solve_with_limit(&puzzle, 2);
        if report.solutions.len() != 1 || report.guesses < current.guesses {
            continue;
        }
        current = Instance { puzzle, solution: current.solution.clone(), guesses: report.guesses };
        if keep(&current.puzzle) && best.as_ref().is_none_or(|b| current.guesses > b.guesses) {
            best = Some(current.clone());
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Part;
    use crate::tasks::sudoku::{assess, generate, part_of};

    /// The climb never lowers the rating, keeps one solution (the start's), only holds the
    /// solution's digits, and on a few hundred moves does raise the rating of ordinary puzzles.
    #[test]
    fn the_climb_raises_the_rating_and_keeps_the_one_solution() {
        let mut rng = NoiseSource::new(5);
        let mut raised = 0;
        for _ in 0..4 {
            let start = generate(26, &mut rng);
            let hard = harden(&start, 300, &mut rng, |_| true).expect("the start is kept");
            assert!(hard.guesses >= start.guesses);
            assert_eq!(assess(&hard.puzzle), Ok(hard.guesses), "one solution, rated as reported");
            assert_eq!(hard.solution, start.solution);
            assert!(hard.solution.solves(&hard.puzzle), "every clue is the solution's digit");
            raised += usize::from(hard.guesses > start.guesses);
        }
        assert!(raised >= 3, "the climb raised {raised} of 4 ratings");
        let start = generate(26, &mut NoiseSource::new(9));
        let all = |_: &SudokuGrid| true;
        assert_eq!(harden(&start, 50, &mut NoiseSource::new(1), all), harden(&start, 50, &mut NoiseSource::new(1), all));
        assert_eq!(harden(&start, 0, &mut NoiseSource::new(1), all), Some(start.clone()));
        // Only puzzles `keep` accepts come back: a climb kept to the validation part.
        let mut found = 0;
        for seed in 0..8 {
            if let Some(v) = harden(&start, 200, &mut NoiseSource::new(seed), |p| part_of(p) == Part::Validation) {
                assert_eq!(part_of(&v.puzzle), Part::Validation);
                found += 1;
            }
        }
        assert!(found > 0, "some climb meets a validation puzzle");
    }
}
