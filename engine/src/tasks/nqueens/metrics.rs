//! The paper's metrics for multi-solution puzzles (the GRAM paper, section 3.2): single-sample accuracy
//! (the output satisfies every constraint and keeps every given) and coverage@N (distinct valid
//! completions found among N samples / all valid completions), averaged per input, overall and per
//! group (for N-Queens the group is the number of removed queens `k`).

use std::collections::{BTreeMap, BTreeSet};

use super::board::Board;
use crate::tasks::coverage::CoverageFigures;

/// Fraction of the puzzle's valid completions that appear among `samples` (each counted once).
/// `solutions` must be every completion (the exact enumerator's output); an input without any
/// completion has coverage 0 by convention.
pub fn coverage_at(samples: &[Board], puzzle: &Board, solutions: &[Board]) -> f64 {
    if solutions.is_empty() {
        return 0.0;
    }
    let found: BTreeSet<&Board> = samples.iter().filter(|s| s.completes(puzzle)).collect();
    found.len() as f64 / solutions.len() as f64
}

/// Distinct valid completions among `samples`, in first-seen order.
pub fn distinct_valid<'a>(samples: &'a [Board], puzzle: &Board) -> Vec<&'a Board> {
    let mut seen = BTreeSet::new();
    samples.iter().filter(|s| s.completes(puzzle) && seen.insert(*s)).collect()
}

/// Distinct valid completions among the first `n` samples, for n = 1..=len: the coverage curve
/// against samples drawn (divide by the number of completions), as the playground plots it.
pub fn found_curve(samples: &[Board], puzzle: &Board) -> Vec<usize> {
    let mut seen = BTreeSet::new();
    samples
        .iter()
        .map(|s| {
            if s.completes(puzzle) {
                seen.insert(s);
            }
            seen.len()
        })
        .collect()
}

/// Running totals for one group of inputs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub inputs: usize,
    pub accurate: usize,
    pub coverage_sum: f64,
}

impl Tally {
    /// Single-sample accuracy in percent.
    pub fn accuracy(&self) -> f64 {
        100.0 * self.accurate as f64 / self.inputs.max(1) as f64
    }
    /// Mean coverage@N in percent.
    pub fn coverage(&self) -> f64 {
        100.0 * self.coverage_sum / self.inputs.max(1) as f64
    }
    fn add(&mut self, accurate: bool, coverage: f64) {
        self.inputs += 1;
        self.accurate += accurate as usize;
        self.coverage_sum += coverage;
    }
}

/// Accuracy and coverage@N over a split, overall and per group.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub samples_per_input: usize,
    pub overall: Tally,
    pub by_group: BTreeMap<usize, Tally>,
    /// The GRAM paper's figures 12 and 13 (by number of completions; coverage against samples).
    pub figures: CoverageFigures,
}

impl Report {
    pub fn new(samples_per_input: usize) -> Self {
        Self { samples_per_input, ..Default::default() }
    }

    /// Scores one input: accuracy on the first sample, coverage on all of them.
    pub fn add(&mut self, group: usize, puzzle: &Board, solutions: &[Board], samples: &[Board]) {
        let accurate = samples.first().is_some_and(|s| s.completes(puzzle));
        let coverage = coverage_at(samples, puzzle, solutions);
        self.overall.add(accurate, coverage);
        self.by_group.entry(group).or_default().add(accurate, coverage);
        self.figures.add(solutions.len(), accurate, &found_curve(samples, puzzle));
    }

    /// A human table: one line overall, one per group.
    pub fn to_table(&self, group_name: &str) -> String {
        let n = self.samples_per_input;
        let mut s = format!("{:<10} {:>7} {:>9} {:>12}\n", "", "inputs", "accuracy", format!("coverage@{n}"));
        let mut line =
            |name: String, t: &Tally| s.push_str(&format!("{name:<10} {:>7} {:>8.2}% {:>11.2}%\n", t.inputs, t.accuracy(), t.coverage()));
        line("all".into(), &self.overall);
        for (g, t) in &self.by_group {
            line(format!("{group_name}={g}"), t);
        }
        s
    }
}

impl crate::tasks::Report for Report {
    fn inputs(&self) -> usize {
        self.overall.inputs
    }

    fn progress(&self) -> String {
        format!("accuracy {:.2}%  coverage@{} {:.2}%", self.overall.accuracy(), self.samples_per_input, self.overall.coverage())
    }

    fn to_text(&self) -> String {
        self.to_table("k") + &self.figures.to_text("completions")
    }

    fn table_line(&self) -> String {
        format!("TABLE1 accuracy={:.2} coverage@{}={:.2}", self.overall.accuracy(), self.samples_per_input, self.overall.coverage())
    }

    fn brief(&self) -> String {
        format!(
            "accuracy {:.0} of {}, coverage@{} {:.1}%",
            self.overall.accurate,
            self.overall.inputs,
            self.samples_per_input,
            self.overall.coverage()
        )
    }

    fn record(&self) -> (f64, f64, BTreeMap<String, f64>) {
        (self.overall.accuracy(), self.overall.coverage(), BTreeMap::new())
    }

    fn figures_csv(&self) -> Option<String> {
        Some(self.figures.to_csv())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::nqueens::{all_solutions, completions};

    #[test]
    fn coverage_counts_distinct_valid_completions_only() {
        let puzzle = Board::parse(&format!("Q{}", ".".repeat(63)), 8).unwrap();
        let sols = completions(&puzzle);
        assert_eq!(sols.len(), 4);
        let invalid = Board::empty(8).unwrap();
        let other = all_solutions(8).into_iter().find(|s| !s.keeps(&puzzle)).unwrap();
        let samples = vec![sols[0].clone(), sols[0].clone(), sols[1].clone(), invalid, other];
        assert_eq!(coverage_at(&samples, &puzzle, &sols), 0.5);
        assert_eq!(distinct_valid(&samples, &puzzle).len(), 2);
        assert_eq!(found_curve(&samples, &puzzle), vec![1, 1, 2, 2, 2]);
        let mut r = Report::new(5);
        r.add(7, &puzzle, &sols, &samples);
        assert_eq!(r.overall.accuracy(), 100.0);
        assert_eq!(r.overall.coverage(), 50.0);
        // First sample invalid: accuracy 0 even if others are valid.
        let mut r2 = Report::new(2);
        r2.add(7, &puzzle, &sols, &[Board::empty(8).unwrap(), sols[2].clone()]);
        assert_eq!(r2.overall.accuracy(), 0.0);
        assert_eq!(r2.by_group[&7].coverage(), 25.0);
    }
}
