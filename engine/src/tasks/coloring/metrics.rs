//! The paper's graph-colouring metrics (the GRAM paper, section 3.2 and Table 1), and how ours are
//! counted exactly:
//!
//! - **conflict edges**: the sum over the scored graphs of the edges of the *first* sample (the
//!   one accuracy reads) whose two ends share a colour or touch a vertex the model left without
//!   a colour. The paper reports "the number of constraint violations" over its test set
//!   without saying more; this is that count for one answer per graph.
//! - **accuracy**: share of graphs whose first sample is a proper colouring.
//! - **coverage@N**: distinct canonical colourings among the N samples that are proper / all
//!   canonical colourings of the graph, averaged over graphs.
//! - beside it, what a perfect sampler would reach with the same N draws on the same graphs:
//!   `min(1, N / c)` for a sampler that never repeats itself, and `1 - (1 - 1/c)^N` expected
//!   for N independent draws uniform over the c colourings.
//!
//! Groups: the number of canonical colourings c, in powers of two (1, 2-3, 4-7, ...): figure 12
//! of the paper (accuracy and coverage against the number of valid completions).

use std::collections::{BTreeMap, BTreeSet};

use super::graph::{Colouring, Graph};
use crate::tasks::coverage::{CoverageFigures, count_group, group_name};

/// Distinct proper colourings among `samples`, canonicalised, in first-seen order.
pub fn distinct_valid(graph: &Graph, samples: &[Colouring]) -> Vec<Colouring> {
    let mut seen = BTreeSet::new();
    samples.iter().filter(|s| graph.is_coloured_by(s)).map(Colouring::canonical).filter(|c| seen.insert(c.clone())).collect()
}

/// Distinct proper canonical colourings among the first n samples, n = 1..=len.
pub fn found_curve(graph: &Graph, samples: &[Colouring]) -> Vec<usize> {
    let mut seen = BTreeSet::new();
    samples
        .iter()
        .map(|s| {
            if graph.is_coloured_by(s) {
                seen.insert(s.canonical());
            }
            seen.len()
        })
        .collect()
}

/// Running totals of one group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub inputs: usize,
    pub accurate: usize,
    pub conflict_edges: usize,
    /// Graphs where some sample is a proper colouring: what a rule check among the N picks.
    pub any_proper: usize,
    pub coverage_sum: f64,
    pub ceiling_sum: f64,
    pub uniform_sum: f64,
}

impl Tally {
    pub fn accuracy(&self) -> f64 {
        100.0 * self.accurate as f64 / self.inputs.max(1) as f64
    }
    pub fn coverage(&self) -> f64 {
        100.0 * self.coverage_sum / self.inputs.max(1) as f64
    }
    /// Coverage of a sampler that never repeats itself, with the same draws.
    pub fn ceiling(&self) -> f64 {
        100.0 * self.ceiling_sum / self.inputs.max(1) as f64
    }
    /// Expected coverage of draws uniform over the colourings.
    pub fn uniform(&self) -> f64 {
        100.0 * self.uniform_sum / self.inputs.max(1) as f64
    }
}

/// Conflicts, accuracy and coverage@N over a split, overall and per solution-count group.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub samples_per_input: usize,
    pub overall: Tally,
    pub by_count: BTreeMap<usize, Tally>,
    /// The GRAM paper's figures 12 and 13 (by number of colourings; coverage against samples).
    pub figures: CoverageFigures,
}

impl Report {
    pub fn new(samples_per_input: usize) -> Report {
        Report { samples_per_input, ..Default::default() }
    }

    /// Scores one graph with `total` canonical colourings.
    pub fn add(&mut self, graph: &Graph, total: usize, samples: &[Colouring]) {
        let first = samples.first();
        let conflicts = first.map_or(graph.edges().len(), |s| graph.conflicts(s).len());
        let accurate = first.is_some_and(|s| graph.is_coloured_by(s));
        let found = distinct_valid(graph, samples).len();
        let coverage = if total == 0 { 0.0 } else { found as f64 / total as f64 };
        self.figures.add(total, accurate, &found_curve(graph, samples));
        let draws = samples.len() as f64;
        let c = total.max(1) as f64;
        for tally in [&mut self.overall, self.by_count.entry(count_group(total)).or_default()] {
            tally.inputs += 1;
            tally.accurate += accurate as usize;
            tally.conflict_edges += conflicts;
            tally.any_proper += (found > 0) as usize;
            tally.coverage_sum += coverage;
            tally.ceiling_sum += (draws / c).min(1.0);
            tally.uniform_sum += 1.0 - (1.0 - 1.0 / c).powf(draws);
        }
    }

    pub fn to_table(&self) -> String {
        let n = self.samples_per_input;
        let mut s = format!(
            "{:<12} {:>6} {:>9} {:>9} {:>12} {:>16} {:>16}\n",
            "colourings",
            "graphs",
            "conflicts",
            "accuracy",
            format!("coverage@{n}"),
            format!("no-repeat@{n}"),
            format!("uniform@{n}")
        );
        let mut line = |name: String, t: &Tally| {
            s.push_str(&format!(
                "{name:<12} {:>6} {:>9} {:>8.2}% {:>11.2}% {:>15.2}% {:>15.2}%\n",
                t.inputs,
                t.conflict_edges,
                t.accuracy(),
                t.coverage(),
                t.ceiling(),
                t.uniform()
            ))
        };
        line("all".into(), &self.overall);
        for (g, t) in &self.by_count {
            line(group_name(*g), t);
        }
        s
    }
}

impl crate::tasks::Report for Report {
    fn inputs(&self) -> usize {
        self.overall.inputs
    }

    fn progress(&self) -> String {
        let t = &self.overall;
        format!("conflicts {}  accuracy {:.2}%  coverage@{} {:.2}%", t.conflict_edges, t.accuracy(), self.samples_per_input, t.coverage())
    }

    /// The table by number of colourings already is figure 12 (with conflicts and the
    /// perfect sampler's coverage beside it), so only figure 13 follows it.
    fn to_text(&self) -> String {
        let t = &self.overall;
        let any = format!(
            "some sample proper (what a rule check among the {} picks): {} of {} graphs ({:.2}%)\n",
            self.samples_per_input,
            t.any_proper,
            t.inputs,
            100.0 * t.any_proper as f64 / t.inputs.max(1) as f64
        );
        self.to_table() + &any + &self.figures.curve_text()
    }

    fn figures_csv(&self) -> Option<String> {
        Some(self.figures.to_csv())
    }

    fn table_line(&self) -> String {
        let t = &self.overall;
        let n = self.samples_per_input;
        format!(
            "TABLE1 conflicts={} accuracy={:.2} coverage@{n}={:.2} no-repeat@{n}={:.2} uniform@{n}={:.2}",
            t.conflict_edges,
            t.accuracy(),
            t.coverage(),
            t.ceiling(),
            t.uniform()
        )
    }

    fn brief(&self) -> String {
        let t = &self.overall;
        format!(
            "{} conflict edges, proper {} of {}, coverage@{} {:.1}%",
            t.conflict_edges,
            t.accurate,
            t.inputs,
            self.samples_per_input,
            t.coverage()
        )
    }

    fn record(&self) -> (f64, f64, BTreeMap<String, f64>) {
        let t = &self.overall;
        let extra = BTreeMap::from([
            ("conflict_edges".to_string(), t.conflict_edges as f64),
            ("no_repeat_ceiling".to_string(), t.ceiling()),
            ("uniform_draws".to_string(), t.uniform()),
        ]);
        (t.accuracy(), t.coverage(), extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::coloring::canonical_colourings;

    #[test]
    fn conflicts_accuracy_and_coverage_are_counted_as_documented() {
        // A path 0-1-2: canonical colourings 010, 012 (2 of them).
        let g = Graph::parse("101", 3).unwrap();
        assert_eq!(g.edges(), vec![(0, 1), (1, 2)]);
        let all = canonical_colourings(&g);
        assert_eq!(all.len(), 2);
        let c = |t: &str| Colouring::parse(t, 3).unwrap();
        // 121 is 010 renamed; 000 has two conflicts; 210 is 012 renamed.
        let samples = vec![c("121"), c("000"), c("010"), c("210")];
        let mut r = Report::new(4);
        r.add(&g, all.len(), &samples);
        assert_eq!(r.overall.conflict_edges, 0);
        assert_eq!(r.overall.accuracy(), 100.0);
        assert_eq!(r.overall.coverage(), 100.0);
        assert_eq!(found_curve(&g, &samples), vec![1, 1, 1, 2]);
        let mut r = Report::new(2);
        r.add(&g, all.len(), &[c("000"), c("121")]);
        assert_eq!(r.overall.conflict_edges, 2);
        assert_eq!(r.overall.accuracy(), 0.0);
        assert_eq!(r.overall.coverage(), 50.0);
        assert_eq!(r.overall.ceiling(), 100.0);
        assert_eq!(r.overall.uniform(), 75.0);
        // The first sample fails, the second colours the graph: a rule check finds it.
        assert_eq!(r.overall.any_proper, 1);
        r.add(&g, all.len(), &[c("000"), c("111")]);
        assert_eq!((r.overall.inputs, r.overall.any_proper), (2, 1));
        assert!(
            crate::tasks::Report::to_text(&r).contains("some sample proper (what a rule check among the 2 picks): 1 of 2 graphs (50.00%)")
        );
        // A vertex without a colour puts each of its edges in conflict.
        let missing = Colouring::from_prediction(&[0, 2, 1, 0, 2, 0], 3);
        assert_eq!(missing.to_text(), "...");
        assert_eq!(Colouring::parse_answer("...", 3), Ok(missing.clone()));
        assert_eq!(Colouring::parse_answer("021", 3), Colouring::parse("021", 3));
        assert_eq!(g.conflicts(&missing).len(), 2);
    }
}
