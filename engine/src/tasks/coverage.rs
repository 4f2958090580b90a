//! What the multi-solution tasks (N-Queens, graph colouring) report beyond accuracy and
//! coverage@N: the GRAM paper's figure 12 (accuracy and coverage against the number of valid
//! answers, inputs grouped in powers of two) and figure 13 (coverage against the number of
//! samples drawn, n = 1..N, from the same samples), as tables and as CSV for plots.

use std::collections::BTreeMap;

/// The lower end of the power-of-two group a count of valid answers falls in (1, 2, 4, 8, ...).
pub fn count_group(count: usize) -> usize {
    if count == 0 { 0 } else { 1 << (usize::BITS - 1 - count.leading_zeros()) }
}

/// The group's name: `1`, `2-3`, `4-7`, ...
pub fn group_name(group: usize) -> String {
    if group <= 1 { format!("{group}") } else { format!("{group}-{}", 2 * group - 1) }
}

/// Running totals of one group of inputs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroupTally {
    pub inputs: usize,
    pub accurate: usize,
    pub coverage_sum: f64,
}

impl GroupTally {
    pub fn accuracy(&self) -> f64 {
        100.0 * self.accurate as f64 / self.inputs.max(1) as f64
    }
    pub fn coverage(&self) -> f64 {
        100.0 * self.coverage_sum / self.inputs.max(1) as f64
    }
}

/// Figures 12 and 13 accumulated one input at a time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CoverageFigures {
    /// Figure 12: by the number of valid answers (group lower end).
    pub by_count: BTreeMap<usize, GroupTally>,
    /// Figure 13: the sum over inputs of coverage of the first n samples, n = 1..N.
    pub curve_sums: Vec<f64>,
    pub inputs: usize,
}

impl CoverageFigures {
    /// One input with `total` valid answers: whether its first sample is right, and the distinct
    /// valid answers among its first n samples for n = 1..N (`found`).
    pub fn add(&mut self, total: usize, accurate: bool, found: &[usize]) {
        let cover = |k: usize| if total == 0 { 0.0 } else { k as f64 / total as f64 };
        let group = self.by_count.entry(count_group(total)).or_default();
        group.inputs += 1;
        group.accurate += accurate as usize;
        group.coverage_sum += cover(found.last().copied().unwrap_or(0));
        if self.curve_sums.len() < found.len() {
            self.curve_sums.resize(found.len(), 0.0);
        }
        for (sum, &k) in self.curve_sums.iter_mut().zip(found) {
            *sum += cover(k);
        }
        self.inputs += 1;
    }

    /// Mean coverage (%) of the first n samples, n = 1..N.
    pub fn curve(&self) -> Vec<f64> {
        self.curve_sums.iter().map(|s| 100.0 * s / self.inputs.max(1) as f64).collect()
    }

    /// The two figures as text tables.
    pub fn to_text(&self, answers: &str) -> String {
        self.by_count_text(answers) + &self.curve_text()
    }

    /// Figure 12 as a table: accuracy and coverage by the number of valid `answers`.
    pub fn by_count_text(&self, answers: &str) -> String {
        let mut s =
            format!("by the number of valid {answers} (figure 12)\n{:<10} {:>7} {:>9} {:>9}\n", answers, "inputs", "accuracy", "coverage");
        for (g, t) in &self.by_count {
            s.push_str(&format!("{:<10} {:>7} {:>8.2}% {:>8.2}%\n", group_name(*g), t.inputs, t.accuracy(), t.coverage()));
        }
        s
    }

    /// Figure 13 as text: coverage of the first n samples, n = 1..N.
    pub fn curve_text(&self) -> String {
        let curve = self.curve();
        let mut s = String::from("coverage against samples drawn (figure 13)\n");
        let cols: Vec<String> = curve.iter().enumerate().map(|(i, c)| format!("n={}: {c:.1}%", i + 1)).collect();
        for row in cols.chunks(5) {
            s.push_str(&format!("  {}\n", row.join("  ")));
        }
        s
    }

    /// CSV: `figure,x,inputs,accuracy,coverage`; figure 12 rows have x = the group's lower end,
    /// figure 13 rows x = n and an empty accuracy.
    pub fn to_csv(&self) -> String {
        let mut s = String::from("figure,x,inputs,accuracy,coverage\n");
        for (g, t) in &self.by_count {
            s.push_str(&format!("by_count,{g},{},{:.3},{:.3}\n", t.inputs, t.accuracy(), t.coverage()));
        }
        for (i, c) in self.curve().iter().enumerate() {
            s.push_str(&format!("by_samples,{},{},,{c:.3}\n", i + 1, self.inputs));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_curves_and_csv() {
        assert_eq!((count_group(1), count_group(3), count_group(4), count_group(20)), (1, 2, 4, 16));
        assert_eq!(group_name(4), "4-7");
        let mut f = CoverageFigures::default();
        f.add(2, true, &[1, 1, 2]);
        f.add(4, false, &[0, 1, 1]);
        assert_eq!(f.curve(), vec![25.0, 37.5, 62.5]);
        assert_eq!(f.by_count[&2], GroupTally { inputs: 1, accurate: 1, coverage_sum: 1.0 });
        assert_eq!(f.by_count[&4].coverage(), 25.0);
        let csv = f.to_csv();
        assert!(csv.contains("by_count,2,1,100.000,100.000\n") && csv.contains("by_samples,3,2,,62.500\n"), "{csv}");
    }
}
