//! What generation is scored by, over every sample (none is "the answer"):
//!
//! - **valid**: the share of samples that are valid boards (the bar for N-Queens: 95%);
//! - **distinct valid**: how many different valid boards the samples hold, and **coverage**: that
//!   number over all the valid boards there are (92 for 8x8 N-Queens);
//! - beside coverage, what a **perfect sampler** reaches with as many draws: `K (1 - (1 - 1/K)^n)`
//!   expected distinct boards for n independent draws uniform over the K valid ones (no sampler
//!   of independent draws expects more);
//! - the same figures after each supervision step (the GRAM paper's "quality improves with steps");
//! - where the targets are a sample of a larger space (Sudoku grids), how many valid samples are
//!   **copies** of a training target: a generator that memorised its data would draw only those.

use std::collections::{BTreeMap, BTreeSet};

use crate::tasks::Report;

/// Expected distinct boards among `n` independent draws uniform over `k` (`k` up to the
/// 6.7e21 full Sudoku grids: computed as `-k expm1(n ln1p(-1/k))`, exact where `1 - 1/k` rounds
/// to 1).
pub fn uniform_expected(k: u128, n: usize) -> f64 {
    if k == 0 {
        return 0.0;
    }
    let k = k as f64;
    -k * (n as f64 * (-1.0 / k).ln_1p()).exp_m1()
}

/// The running figures of a generation eval.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardsReport {
    /// Samples per input (N).
    pub samples: usize,
    /// Valid boards there are (K: 92 for 8x8 N-Queens, 6.7e21 full Sudoku grids).
    pub total: u128,
    pub inputs: usize,
    pub drawn: usize,
    pub valid: usize,
    /// Distinct valid boards among the first n samples of each input, n = 1..=N, summed over
    /// inputs.
    pub curve: Vec<usize>,
    /// Per supervision step: (valid samples, distinct valid boards), summed over inputs.
    pub by_step: Vec<(usize, usize)>,
    /// Valid samples that are one of the training targets, where those are a sample of the
    /// valid boards (Sudoku grids; `None` where the targets are every valid board).
    pub training_copies: Option<usize>,
}

impl BoardsReport {
    pub fn new(samples: usize, total: u128) -> BoardsReport {
        BoardsReport { samples, total, inputs: 0, drawn: 0, valid: 0, curve: vec![0; samples], by_step: Vec::new(), training_copies: None }
    }

    /// Counts `copies` more valid samples that are training targets.
    pub fn add_training_copies(&mut self, copies: usize) {
        *self.training_copies.get_or_insert(0) += copies;
    }

    /// Scores one input's samples, each as (text, valid), after the last step and after each step.
    pub fn add(&mut self, samples: &[(String, bool)], by_step: &[Vec<(String, bool)>]) {
        self.inputs += 1;
        self.drawn += samples.len();
        self.valid += samples.iter().filter(|s| s.1).count();
        let mut seen = BTreeSet::new();
        for (n, (text, valid)) in samples.iter().enumerate().take(self.samples) {
            if *valid {
                seen.insert(text.as_str());
            }
            self.curve[n] += seen.len();
        }
        if self.by_step.len() < by_step.len() {
            self.by_step.resize(by_step.len(), (0, 0));
        }
        for (tally, step) in self.by_step.iter_mut().zip(by_step) {
            tally.0 += step.iter().filter(|s| s.1).count();
            tally.1 += step.iter().filter(|s| s.1).map(|s| s.0.as_str()).collect::<BTreeSet<_>>().len();
        }
    }

    /// Share of valid samples, %.
    pub fn valid_share(&self) -> f64 {
        100.0 * self.valid as f64 / self.drawn.max(1) as f64
    }

    /// Distinct valid boards among an input's N samples, averaged over inputs.
    pub fn distinct(&self) -> f64 {
        self.curve.last().map_or(0.0, |&c| c as f64 / self.inputs.max(1) as f64)
    }

    /// Distinct valid boards over all valid boards, %.
    pub fn coverage(&self) -> f64 {
        100.0 * self.distinct() / self.total.max(1) as f64
    }
}

/// 1, 2, 4, ... below `last`, then `last` (nothing for 0).
pub(crate) fn powers_and_last(last: usize) -> Vec<usize> {
    let mut points: Vec<usize> = (0..).map(|e| 1usize << e).take_while(|&n| n < last).collect();
    if last > 0 {
        points.push(last);
    }
    points
}

impl Report for BoardsReport {
    fn inputs(&self) -> usize {
        self.inputs
    }

    fn progress(&self) -> String {
        format!("valid {:.2}%  distinct valid {:.1} of {}", self.valid_share(), self.distinct(), self.total)
    }

    fn to_text(&self) -> String {
        let mut t = format!(
            "Samples: {}; valid {:.2}% ({} of {}); distinct valid boards {:.1} of {} (coverage {:.2}%); a perfect sampler of {} independent draws: {:.1} expected\n",
            self.samples,
            self.valid_share(),
            self.valid,
            self.drawn,
            self.distinct(),
            self.total,
            self.coverage(),
            self.samples,
            uniform_expected(self.total, self.samples)
        );
        if let Some(copies) = self.training_copies {
            t += &format!("Valid samples that are training targets (copies): {copies} of {}\n", self.valid);
        }
        t += "Distinct valid boards against samples drawn (perfect sampler beside):\n| samples | distinct valid | perfect sampler |\n| --- | --- | --- |\n";
        for n in powers_and_last(self.samples) {
            let found = self.curve[n - 1] as f64 / self.inputs.max(1) as f64;
            t += &format!("| {n} | {found:.1} | {:.1} |\n", uniform_expected(self.total, n));
        }
        t += "After supervision steps 1, 2, 4, 8, ... and the last (the GRAM paper, Table 2's axis):\n| step | valid | distinct valid |\n| --- | --- | --- |\n";
        let per_step = self.drawn.max(1) as f64;
        for step in powers_and_last(self.by_step.len()) {
            let (valid, distinct) = self.by_step[step - 1];
            t += &format!("| {step} | {:.2}% | {:.1} |\n", 100.0 * valid as f64 / per_step, distinct as f64 / self.inputs.max(1) as f64);
        }
        t
    }

    fn table_line(&self) -> String {
        let copies = self.training_copies.map(|c| format!(" training_copies={c}")).unwrap_or_default();
        format!(
            "TABLE boards samples={} valid={:.2} distinct={:.1} total={} coverage={:.2} perfect_sampler={:.1}{copies}",
            self.samples,
            self.valid_share(),
            self.distinct(),
            self.total,
            self.coverage(),
            uniform_expected(self.total, self.samples)
        )
    }

    fn brief(&self) -> String {
        format!("{:.1}% valid, {:.1} distinct valid boards of {}", self.valid_share(), self.distinct(), self.total)
    }

    /// (valid share, coverage, {distinct valid, the perfect sampler's expectation}).
    fn record(&self) -> (f64, f64, BTreeMap<String, f64>) {
        let mut extra = BTreeMap::new();
        extra.insert(format!("distinct valid of {}", self.total), (self.distinct() * 100.0).round() / 100.0);
        extra.insert("perfect sampler distinct".into(), (uniform_expected(self.total, self.samples) * 100.0).round() / 100.0);
        if let Some(copies) = self.training_copies {
            extra.insert("valid samples that are training targets".into(), copies as f64);
        }
        (self.valid_share(), self.coverage(), extra)
    }

    fn figures_csv(&self) -> Option<String> {
        let mut csv = String::from("samples,distinct_valid,perfect_sampler\n");
        for n in 1..=self.samples {
            csv += &format!("{n},{:.3},{:.3}\n", self.curve[n - 1] as f64 / self.inputs.max(1) as f64, uniform_expected(self.total, n));
        }
        Some(csv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str, valid: bool) -> (String, bool) {
        (text.into(), valid)
    }

    #[test]
    fn counts_valid_distinct_and_the_curve() {
        let mut r = BoardsReport::new(4, 10);
        let last = vec![s("a", true), s("a", true), s("b", false), s("c", true)];
        r.add(&last, &[vec![s("x", false); 4], last.clone()]);
        assert_eq!((r.valid, r.drawn), (3, 4));
        assert_eq!(r.curve, vec![1, 1, 1, 2]);
        assert_eq!(r.distinct(), 2.0);
        assert_eq!(r.coverage(), 20.0);
        assert_eq!(r.by_step, vec![(0, 0), (3, 2)]);
        assert!(r.to_text().contains("| 4 | 2.0 |"), "{}", r.to_text());
        assert!(r.to_text().contains("| 2 | 75.00% | 2.0 |"), "{}", r.to_text());
        assert!(!r.table_line().contains("training_copies"));
        r.add_training_copies(1);
        assert!(r.table_line().ends_with(" training_copies=1"), "{}", r.table_line());
        assert!(r.to_text().contains("training targets (copies): 1 of 3"), "{}", r.to_text());
        assert_eq!(r.record().2["valid samples that are training targets"], 1.0);
        assert_eq!(powers_and_last(64), vec![1, 2, 4, 8, 16, 32, 64]);
        assert_eq!(powers_and_last(10), vec![1, 2, 4, 8, 10]);
    }

    #[test]
    fn a_perfect_sampler_of_64_draws_expects_about_46_of_92() {
        assert!((uniform_expected(92, 64) - 46.3).abs() < 0.1, "{}", uniform_expected(92, 64));
        assert!((uniform_expected(92, 1) - 1.0).abs() < 1e-9);
        // The closed form, for a k where 1 - 1/k is far from 1.
        assert!((uniform_expected(3, 2) - 3.0 * (1.0 - (2.0f64 / 3.0).powi(2))).abs() < 1e-12);
        // 64 draws from the 6.7e21 Sudoku grids are all distinct in expectation.
        assert!((uniform_expected(crate::tasks::boards::SUDOKU_GRIDS, 64) - 64.0).abs() < 1e-9);
    }
}
