//! Solving and scoring Sudoku with a GRAM model: what `solve --task sudoku`, `eval` and the
//! browser share. Sudoku has one answer per puzzle, so the metrics of the GRAM paper section 4 are
//! accuracy-type: the vote's accuracy against the number of samples N (the width-scaling figure)
//! and against supervision steps, and the share of puzzles where any of N samples is right
//! (rule-checkable without knowing the answer: a full grid without conflicts that keeps the givens).

use std::collections::BTreeMap;

use crate::gram::majority_vote;
use crate::tasks::Solved;
use crate::tasks::sudoku::{Difficulty, Instance, SudokuGrid};

/// Sample counts of the width-scaling table (the paper's figure uses these N).
pub const WIDTHS: [usize; 5] = [1, 2, 5, 10, 20];

/// Running totals for one difficulty band.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SudokuTally {
    pub inputs: usize,
    /// The first sample is the solution.
    pub first_correct: usize,
    /// Per width in [`WIDTHS`] (up to the samples drawn): the vote of the first N samples is right.
    pub vote_correct: Vec<usize>,
    /// Per width: any of the first N samples is right.
    pub any_correct: Vec<usize>,
    /// Per supervision step: the vote of all samples at that step is right.
    pub vote_correct_by_step: Vec<usize>,
    /// Per width in [`WIDTHS`], per supervision step: the vote of the first N samples after that
    /// step is right (the GRAM paper's Figure 4: accuracy against N and steps).
    pub vote_correct_by_width_step: Vec<Vec<usize>>,
}

impl SudokuTally {
    fn pct(&self, k: usize) -> f64 {
        100.0 * k as f64 / self.inputs.max(1) as f64
    }
    /// Single-sample accuracy, percent.
    pub fn accuracy(&self) -> f64 {
        self.pct(self.first_correct)
    }
    /// Vote accuracy at width `n` (one of [`WIDTHS`]), percent.
    pub fn vote_at(&self, n: usize) -> f64 {
        WIDTHS.iter().position(|&w| w == n).and_then(|i| self.vote_correct.get(i)).map_or(f64::NAN, |&k| self.pct(k))
    }
    /// Solved by any of the first `n` samples, percent.
    pub fn pass_at(&self, n: usize) -> f64 {
        WIDTHS.iter().position(|&w| w == n).and_then(|i| self.any_correct.get(i)).map_or(f64::NAN, |&k| self.pct(k))
    }
    /// Vote accuracy after each supervision step, percent.
    pub fn by_step(&self) -> Vec<f64> {
        self.vote_correct_by_step.iter().map(|&k| self.pct(k)).collect()
    }

    fn add(&mut self, inst: &Instance, solved: &Solved<SudokuGrid>) {
        let right = |g: &SudokuGrid| *g == inst.solution;
        let widths: Vec<usize> = WIDTHS.iter().copied().filter(|&w| w <= solved.samples.len()).collect();
        self.vote_correct.resize(widths.len(), 0);
        self.any_correct.resize(widths.len(), 0);
        self.vote_correct_by_step.resize(self.vote_correct_by_step.len().max(solved.vote_by_step.len()), 0);
        self.inputs += 1;
        self.first_correct += right(&solved.samples[0]) as usize;
        for (i, &w) in widths.iter().enumerate() {
            let first: Vec<Vec<u32>> = solved.samples[..w].iter().map(SudokuGrid::tokens).collect();
            self.vote_correct[i] += right(&solved.samples[majority_vote(&first)]) as usize;
            self.any_correct[i] += solved.samples[..w].iter().any(right) as usize;
        }
        for (s, g) in solved.vote_by_step.iter().enumerate() {
            self.vote_correct_by_step[s] += right(g) as usize;
        }
        let steps = solved.samples_by_step.len();
        self.vote_correct_by_width_step.resize(widths.len(), Vec::new());
        for (i, &w) in widths.iter().enumerate() {
            let row = &mut self.vote_correct_by_width_step[i];
            row.resize(row.len().max(steps), 0);
            for (s, answers) in solved.samples_by_step.iter().enumerate() {
                let first: Vec<Vec<u32>> = answers[..w.min(answers.len())].iter().map(SudokuGrid::tokens).collect();
                row[s] += right(&answers[majority_vote(&first)]) as usize;
            }
        }
    }

    /// Vote accuracy (%) of the first `WIDTHS[i]` samples after each supervision step.
    pub fn by_width_step(&self) -> Vec<(usize, Vec<f64>)> {
        (self.vote_correct_by_width_step.iter().enumerate())
            .map(|(i, row)| (WIDTHS[i], row.iter().map(|&k| self.pct(k)).collect()))
            .collect()
    }
}

/// The supervision steps Figure 4's table shows: 1, 2, 4, 8, ... and the last.
pub fn figure4_steps(steps: usize) -> Vec<usize> {
    let mut shown: Vec<usize> = std::iter::successors(Some(1usize), |s| Some(s * 2)).take_while(|&s| s <= steps).collect();
    if steps > 0 && shown.last() != Some(&steps) {
        shown.push(steps);
    }
    shown
}

/// Accuracy per difficulty band and overall.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SudokuReport {
    pub bands: BTreeMap<&'static str, SudokuTally>,
    overall: SudokuTally,
    samples: usize,
}

impl SudokuReport {
    /// An empty report for `samples` samples per puzzle.
    pub fn new(samples: usize) -> SudokuReport {
        SudokuReport { samples, ..SudokuReport::default() }
    }

    /// The widest column of the width table that the samples drawn fill.
    pub fn widest(&self) -> usize {
        *WIDTHS.iter().rfind(|&&w| w <= self.samples).unwrap_or(&1)
    }

    /// Vote accuracy at the widest width over the bands with >= 28 givens (easy, medium, hard).
    pub fn vote_at_least_28_givens(&self) -> f64 {
        let (mut n, mut k) = (0usize, 0f64);
        for b in ["easy", "medium", "hard"] {
            if let Some(t) = self.bands.get(b) {
                n += t.inputs;
                k += t.vote_at(self.widest()) * t.inputs as f64 / 100.0;
            }
        }
        100.0 * k / n.max(1) as f64
    }

    pub fn overall(&self) -> &SudokuTally {
        &self.overall
    }

    pub fn add(&mut self, inst: &Instance, solved: &Solved<SudokuGrid>) {
        let band = Difficulty::of_givens(inst.givens());
        self.bands.entry(band.name()).or_default().add(inst, solved);
        self.overall.add(inst, solved);
    }

    /// Markdown table: rows per band (easiest first), columns accuracy and the vote at each width.
    pub fn to_table(&self) -> String {
        let widths: Vec<usize> = WIDTHS.iter().copied().take(self.overall.vote_correct.len()).collect();
        let mut s = String::from("| band | givens | inputs | acc (1 sample) |");
        for w in &widths {
            s.push_str(&format!(" vote@{w} |"));
        }
        s.push_str(&format!(" any of {} right |\n| --- | --- | --- | --- |", widths.last().copied().unwrap_or(1)));
        s.push_str(&" --- |".repeat(widths.len() + 1));
        s.push('\n');
        let mut row = |name: &str, givens: String, t: &SudokuTally| {
            s.push_str(&format!("| {name} | {givens} | {} | {:.1} |", t.inputs, t.accuracy()));
            for &w in &widths {
                s.push_str(&format!(" {:.1} |", t.vote_at(w)));
            }
            s.push_str(&format!(" {:.1} |\n", t.pass_at(widths.last().copied().unwrap_or(1))));
        };
        for d in Difficulty::ALL {
            if let Some(t) = self.bands.get(d.name()) {
                let (lo, hi) = d.givens();
                row(d.name(), format!("{lo}-{hi}"), t);
            }
        }
        row("all", "".into(), &self.overall);
        s
    }
}

impl SudokuReport {
    /// The GRAM paper's Figure 4 as a table: the vote's accuracy (all bands) for N samples (rows)
    /// after s supervision steps (columns), each cell with its compute, N x s trajectory-steps.
    /// A deterministic model (TRM) has one row worth reading: its N samples are one.
    pub fn figure4_table(&self) -> String {
        let rows = self.overall.by_width_step();
        let Some(steps) = rows.first().map(|(_, r)| r.len()).filter(|&n| n > 0) else {
            return String::new();
        };
        let shown = figure4_steps(steps);
        let mut s = String::from(
            "\nFigure 4: vote accuracy (%) by samples N and supervision steps s (in brackets: compute, N x s trajectory-steps):\n| N |",
        );
        for st in &shown {
            s.push_str(&format!(" s={st} |"));
        }
        s.push_str("\n| --- |");
        s.push_str(&" --- |".repeat(shown.len()));
        s.push('\n');
        for (n, row) in &rows {
            s.push_str(&format!("| {n} |"));
            for &st in &shown {
                s.push_str(&format!(" {:.1} ({}) |", row[st - 1], n * st));
            }
            s.push('\n');
        }
        s
    }
}

/// The majority vote (eq. 15) over a set of grids: the winning grid and how many grids agree.
pub fn vote(samples: &[SudokuGrid]) -> Option<(SudokuGrid, usize)> {
    let tokens: Vec<Vec<u32>> = samples.iter().map(SudokuGrid::tokens).collect();
    let winner = samples.get(majority_vote(&tokens))?;
    Some((winner.clone(), samples.iter().filter(|s| *s == winner).count()))
}

/// One point of the accuracy-against-N curve of a single puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WidthPoint {
    /// Samples drawn so far (1-based).
    pub n: usize,
    /// How many of the first `n` samples are the solution.
    pub right: usize,
    /// Whether the vote of the first `n` samples is the solution.
    pub vote_right: bool,
}

/// For n = 1..=len: right samples among the first n and whether their vote is right. What the
/// playground plots live for the current puzzle (the width-scaling figure for one puzzle).
pub fn width_curve(samples: &[SudokuGrid], solution: &SudokuGrid) -> Vec<WidthPoint> {
    let mut right = 0;
    (1..=samples.len())
        .map(|n| {
            right += (samples[n - 1] == *solution) as usize;
            let vote_right = vote(&samples[..n]).is_some_and(|(g, _)| g == *solution);
            WidthPoint { n, right, vote_right }
        })
        .collect()
}

impl crate::tasks::Report for SudokuReport {
    fn inputs(&self) -> usize {
        self.overall.inputs
    }

    fn progress(&self) -> String {
        format!("accuracy {:.2}%  vote@{} {:.2}%", self.overall.accuracy(), self.samples, self.overall.vote_at(self.widest()))
    }

    fn to_text(&self) -> String {
        let by_step: Vec<String> = self.overall.by_step().iter().map(|a| format!("{a:.1}")).collect();
        format!(
            "\nAccuracy (%) by difficulty band and by the number of samples N (majority vote of the first N):\n{}\nVote accuracy (%) after each supervision step 1..{}: {}\n{}",
            self.to_table(),
            by_step.len(),
            by_step.join(" "),
            self.figure4_table()
        )
    }

    fn figures_csv(&self) -> Option<String> {
        let mut csv = String::from("samples,steps,compute,vote_accuracy\n");
        for (n, row) in self.overall.by_width_step() {
            for (s, acc) in row.iter().enumerate() {
                csv.push_str(&format!("{n},{},{},{acc:.2}\n", s + 1, n * (s + 1)));
            }
        }
        Some(csv)
    }

    fn table_line(&self) -> String {
        let w = self.widest();
        format!(
            "TABLE sudoku accuracy={:.2} vote@{w}={:.2} any@{w}={:.2} vote@{w}(>=28 givens)={:.2}",
            self.overall.accuracy(),
            self.overall.vote_at(w),
            self.overall.pass_at(w),
            self.vote_at_least_28_givens()
        )
    }

    fn brief(&self) -> String {
        let (w, n) = (self.widest(), self.overall.inputs);
        format!(
            "solved by the vote {:.0} of {n}, by any sample {:.0} of {n}",
            self.overall.vote_at(w) * n as f64 / 100.0,
            self.overall.pass_at(w) * n as f64 / 100.0
        )
    }

    /// One answer per puzzle: the record's coverage (found / all completions) is "any of N right".
    fn record(&self) -> (f64, f64, BTreeMap<String, f64>) {
        let w = self.widest();
        let round = |x: f64| (x * 100.0).round() / 100.0;
        let mut extra = BTreeMap::new();
        extra.insert(format!("vote@{w}"), round(self.overall.vote_at(w)));
        extra.insert(format!("vote@{w} >=28 givens"), round(self.vote_at_least_28_givens()));
        for d in Difficulty::ALL {
            if let Some(t) = self.bands.get(d.name()) {
                extra.insert(format!("vote@{w} {}", d.name()), round(t.vote_at(w)));
            }
        }
        (self.overall.accuracy(), self.overall.pass_at(w), extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vote_and_width_curve_count_what_they_say() {
        let inst = crate::tasks::sudoku::Difficulty::Easy.generate(1);
        let right = inst.solution.clone();
        let wrong = inst.puzzle.clone();
        let samples = vec![wrong.clone(), right.clone(), right.clone(), wrong.clone(), wrong.clone()];
        assert_eq!(vote(&samples), Some((wrong.clone(), 3)));
        let curve = width_curve(&samples, &right);
        let rights: Vec<usize> = curve.iter().map(|p| p.right).collect();
        let votes: Vec<bool> = curve.iter().map(|p| p.vote_right).collect();
        assert_eq!(rights, vec![0, 1, 2, 2, 2]);
        // Ties go to the first-seen grid: n=2 is a tie won by the wrong one.
        assert_eq!(votes, vec![false, false, true, false, false]);
        assert_eq!(vote(&[]), None);
    }

    #[test]
    fn figure4_counts_the_vote_of_the_first_n_after_each_step() {
        let inst = crate::tasks::sudoku::Difficulty::Easy.generate(2);
        let (r, w) = (inst.solution.clone(), inst.puzzle.clone());
        // Step 1: only sample 1 right; step 2: samples 1, 2 right of 5 (the vote of 5 is wrong).
        let step1 = vec![r.clone(), w.clone(), w.clone(), w.clone(), w.clone()];
        let step2 = vec![r.clone(), r.clone(), w.clone(), w.clone(), w.clone()];
        let solved = Solved {
            samples: step2.clone(),
            values: vec![0.0; 5],
            halt_logits: vec![0.0; 5],
            selected: 0,
            vote_by_step: vec![w.clone(), w.clone()],
            samples_by_step: vec![step1, step2],
            steps: 2,
        };
        let mut report = SudokuReport::new(5);
        report.add(&inst, &solved);
        let rows = report.overall().by_width_step();
        let widths: Vec<usize> = rows.iter().map(|(n, _)| *n).collect();
        assert_eq!(widths, vec![1, 2, 5]);
        assert_eq!(rows[0].1, vec![100.0, 100.0]); // N = 1: the first sample, right at both steps
        assert_eq!(rows[1].1, vec![100.0, 100.0]); // N = 2: a tie goes to the first sample
        assert_eq!(rows[2].1, vec![0.0, 0.0]); // N = 5: the wrong grid wins
        let table = report.figure4_table();
        assert!(table.contains("| 5 | 0.0 (5) | 0.0 (10) |"), "{table}");
        assert_eq!(figure4_steps(8), vec![1, 2, 4, 8]);
        assert_eq!(figure4_steps(20), vec![1, 2, 4, 8, 16, 20]);
        let csv = crate::tasks::Report::figures_csv(&report).unwrap();
        assert!(csv.contains("\n5,2,10,0.00\n"), "{csv}");
    }
}
