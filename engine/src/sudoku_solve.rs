//! Solving and scoring Sudoku with a GRAM model: what `solve --task sudoku`, `eval` and the
//! browser share. Sudoku has one answer per puzzle, so the metrics of seed 003 section 4 are
//! accuracy-type: the vote's accuracy against the number of samples N (the width-scaling figure)
//! and against supervision steps, and the share of puzzles where any of N samples is right
//! (rule-checkable without knowing the answer: a full grid without conflicts that keeps the givens).

use std::collections::BTreeMap;

use burn::tensor::Device;

use crate::gram::{Gram, SampleOptions, Trajectories, majority_vote};
use crate::solve::{Selection, trajectories_to_run};
use crate::tasks::sudoku::{Difficulty, Instance, SudokuGrid};

/// Sample counts of the width-scaling table (the paper's figure uses these N).
pub const WIDTHS: [usize; 5] = [1, 2, 5, 10, 20];

/// The samples of one puzzle and the selected one.
#[derive(Clone, Debug, PartialEq)]
pub struct SudokuSolved {
    /// One grid per trajectory (an unsure cell, predicted blank, stays blank).
    pub samples: Vec<SudokuGrid>,
    /// LPRM value of each sample.
    pub values: Vec<f32>,
    /// Index into `samples` of the selected answer.
    pub selected: usize,
    /// The vote's pick (index of a sample) after each supervision step.
    pub vote_by_step: Vec<SudokuGrid>,
}

/// Samples every puzzle, `chunk` puzzles per batch (noise restarts from the seed per chunk, as
/// for N-Queens). A deterministic model runs one trajectory and repeats it.
pub fn solve_sudoku(
    model: &Gram,
    puzzles: &[SudokuGrid],
    options: &SampleOptions,
    select: Selection,
    chunk: usize,
    device: &Device,
) -> Vec<SudokuSolved> {
    let run = trajectories_to_run(model, options);
    let n = run.samples;
    let mut out = Vec::with_capacity(puzzles.len());
    for group in puzzles.chunks(chunk.max(1)) {
        let tokens: Vec<Vec<u32>> = group.iter().map(SudokuGrid::tokens).collect();
        let mut votes: Vec<Vec<SudokuGrid>> = vec![Vec::new(); group.len()];
        let obs = Trajectories::new(model, &tokens, run.clone(), device).run(|o| {
            for (p, v) in votes.iter_mut().enumerate() {
                let preds = &o.predictions[p * n..(p + 1) * n];
                v.push(SudokuGrid::from_prediction(&preds[majority_vote(preds)]));
            }
        });
        for (p, vote_by_step) in votes.into_iter().enumerate() {
            let preds = &obs.predictions[p * n..(p + 1) * n];
            let values = obs.values[p * n..(p + 1) * n].to_vec();
            let mut samples: Vec<SudokuGrid> = preds.iter().map(|t| SudokuGrid::from_prediction(t)).collect();
            let mut selected = select.pick(preds, &values);
            let mut values = values;
            if n < options.samples {
                samples = vec![samples[0].clone(); options.samples];
                values = vec![values[0]; options.samples];
                selected = 0;
            }
            out.push(SudokuSolved { samples, values, selected, vote_by_step });
        }
    }
    out
}

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

    fn add(&mut self, inst: &Instance, solved: &SudokuSolved) {
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
    }
}

/// Accuracy per difficulty band and overall.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SudokuReport {
    pub bands: BTreeMap<&'static str, SudokuTally>,
    overall: SudokuTally,
}

impl SudokuReport {
    pub fn overall(&self) -> &SudokuTally {
        &self.overall
    }

    pub fn add(&mut self, inst: &Instance, solved: &SudokuSolved) {
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

/// Scores `instances` (one answer each) with `options.samples` samples per puzzle.
pub fn evaluate_sudoku(model: &Gram, instances: &[Instance], options: &SampleOptions, chunk: usize, device: &Device) -> SudokuReport {
    evaluate_sudoku_with_progress(model, instances, options, chunk, device, |_, _| {})
}

/// [`evaluate_sudoku`] calling `progress(done, report)` after every chunk.
pub fn evaluate_sudoku_with_progress(
    model: &Gram,
    instances: &[Instance],
    options: &SampleOptions,
    chunk: usize,
    device: &Device,
    mut progress: impl FnMut(usize, &SudokuReport),
) -> SudokuReport {
    let mut report = SudokuReport::default();
    let mut done = 0;
    for group in instances.chunks(chunk.max(1)) {
        let puzzles: Vec<SudokuGrid> = group.iter().map(|i| i.puzzle.clone()).collect();
        for (inst, solved) in group.iter().zip(solve_sudoku(model, &puzzles, options, Selection::Vote, chunk, device)) {
            report.add(inst, &solved);
        }
        done += group.len();
        progress(done, &report);
    }
    report
}

/// Per cell, the model's probability of each digit 1..=9 for one trajectory of an observation,
/// `[81 * 9]` row-major (cell, digit - 1); the pad and blank tokens' share is left out, so a
/// cell's nine values sum to at most 1. What the browser shades cells with.
pub fn digit_probabilities(obs: &crate::gram::Observation, row: usize) -> Vec<f32> {
    let cells = obs.predictions[row].len();
    (0..cells).flat_map(|c| (2..=10).map(move |t| (c, t))).map(|(c, t)| obs.probability(row, c, t)).collect()
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
}
