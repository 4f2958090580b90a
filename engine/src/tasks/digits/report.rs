//! What digit generation is scored by (the GRAM paper, Table 2), after supervision steps 1, 2, 4, 8, ...
//! and the last: **IS** and **FID** (`quality.rs`, on the small classifier's outputs) of the N
//! samples, FID against the real digits of the part being scored; and, so the numbers can be read,
//! the same two figures for as many real train-part digits (the **real-data reference**: what a
//! perfect generator would score at this sample size). Also the classifier's view: the share of
//! samples it reads with confidence >= 0.9 ("recognisable") and how many of the 10 classes they
//! use; the mean ink and the share of distinct samples.

use std::collections::{BTreeMap, BTreeSet};

use super::classifier::Reading;
use super::data::{self, Digit};
use super::quality::{frechet_distance, inception_score};
use super::{Classifier, embedded_classifier};
use crate::tasks::boards::report::powers_and_last;
use crate::tasks::{Part, Report};

/// One step's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct StepQuality {
    pub step: usize,
    pub is: f64,
    pub fid: f64,
    /// Samples read with confidence >= 0.9, %.
    pub recognisable: f64,
    /// Classes with at least one sample (the classifier's argmax).
    pub classes: usize,
    /// Distinct samples, %.
    pub distinct: f64,
    /// Mean share of white pixels, %.
    pub ink: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DigitsReport {
    pub samples: usize,
    pub inputs: usize,
    /// Per reported step, for the last input scored.
    pub by_step: Vec<StepQuality>,
    /// The real-data reference: (IS, FID) of `samples` real train digits against the scored part.
    pub reference: Option<(f64, f64)>,
    /// Real digits in the scored part.
    pub real: usize,
}

fn confident(readings: &[Reading]) -> f64 {
    100.0 * readings.iter().filter(|r| r.probabilities.iter().cloned().fold(0.0, f64::max) >= 0.9).count() as f64
        / readings.len().max(1) as f64
}

fn classes(readings: &[Reading]) -> usize {
    readings
        .iter()
        .map(|r| (0..r.probabilities.len()).max_by(|&a, &b| r.probabilities[a].total_cmp(&r.probabilities[b])).unwrap_or(0))
        .collect::<BTreeSet<_>>()
        .len()
}

fn quality(classifier: &Classifier, samples: &[Digit], real_features: &[Vec<f64>], step: usize) -> StepQuality {
    let readings: Vec<Reading> = samples.iter().map(|d| classifier.read(d)).collect();
    let probabilities: Vec<Vec<f64>> = readings.iter().map(|r| r.probabilities.clone()).collect();
    let features: Vec<Vec<f64>> = readings.iter().map(|r| r.features.clone()).collect();
    let distinct = samples.iter().collect::<BTreeSet<_>>().len();
    StepQuality {
        step,
        is: inception_score(&probabilities),
        fid: frechet_distance(&features, real_features),
        recognisable: confident(&readings),
        classes: classes(&readings),
        distinct: 100.0 * distinct as f64 / samples.len().max(1) as f64,
        ink: 100.0 * samples.iter().map(Digit::ink).sum::<f64>() / samples.len().max(1) as f64,
    }
}

impl DigitsReport {
    pub fn new(samples: usize) -> DigitsReport {
        DigitsReport { samples, inputs: 0, by_step: Vec::new(), reference: None, real: 0 }
    }

    /// Scores the samples after every step against the `real` digits of the scored part.
    pub fn add(&mut self, by_step: &[Vec<Digit>], real: &[Digit]) {
        self.inputs += 1;
        self.real = real.len();
        let Some(classifier) = embedded_classifier() else {
            return;
        };
        let real_features: Vec<Vec<f64>> = real.iter().map(|d| classifier.read(d).features).collect();
        self.by_step =
            powers_and_last(by_step.len()).into_iter().map(|step| quality(classifier, &by_step[step - 1], &real_features, step)).collect();
        let train: Vec<Digit> = crate::tasks::spread(&data::part(Part::Train), self.samples).into_iter().map(|d| d.digit.clone()).collect();
        if train.len() >= 2 {
            let reference = quality(classifier, &train, &real_features, 0);
            self.reference = Some((reference.is, reference.fid));
        }
    }

    fn last(&self) -> Option<&StepQuality> {
        self.by_step.last()
    }
}

impl Report for DigitsReport {
    fn inputs(&self) -> usize {
        self.inputs
    }

    fn progress(&self) -> String {
        match self.last() {
            Some(q) => format!("IS {:.2}  FID {:.2}", q.is, q.fid),
            None => "no classifier compiled in: IS and FID unavailable".into(),
        }
    }

    fn to_text(&self) -> String {
        let Some(last) = self.last() else {
            return "IS and FID need the digit classifier (engine feature digits-data)\n".into();
        };
        let mut t = format!(
            "Samples: {}; after the last step ({}): IS {:.3}, FID {:.3} against {} real digits of the scored part\n",
            self.samples, last.step, last.is, last.fid, self.real
        );
        if let Some((is, fid)) = self.reference {
            t += &format!("Real-data reference ({} real train digits, same classifier): IS {is:.3}, FID {fid:.3}\n", self.samples);
        }
        t += "After supervision steps 1, 2, 4, 8, ... and the last (the GRAM paper, Table 2):\n";
        t += "| step | IS | FID | recognisable | classes | distinct | ink |\n| --- | --- | --- | --- | --- | --- | --- |\n";
        for q in &self.by_step {
            t += &format!(
                "| {} | {:.3} | {:.3} | {:.1}% | {} | {:.1}% | {:.1}% |\n",
                q.step, q.is, q.fid, q.recognisable, q.classes, q.distinct, q.ink
            );
        }
        t
    }

    fn table_line(&self) -> String {
        match self.last() {
            Some(q) => format!(
                "TABLE2 samples={} step={} is={:.3} fid={:.3} reference_is={:.3} reference_fid={:.3}",
                self.samples,
                q.step,
                q.is,
                q.fid,
                self.reference.map_or(f64::NAN, |r| r.0),
                self.reference.map_or(f64::NAN, |r| r.1)
            ),
            None => "TABLE2 unavailable".into(),
        }
    }

    fn brief(&self) -> String {
        self.progress()
    }

    /// (recognisable %, classes used %, {IS, FID, the real-data reference's IS and FID}).
    fn record(&self) -> (f64, f64, BTreeMap<String, f64>) {
        let mut extra = BTreeMap::new();
        let round = |v: f64| (v * 1000.0).round() / 1000.0;
        let Some(q) = self.last() else {
            return (0.0, 0.0, extra);
        };
        extra.insert("IS".into(), round(q.is));
        extra.insert("FID".into(), round(q.fid));
        if let Some((is, fid)) = self.reference {
            extra.insert("real IS".into(), round(is));
            extra.insert("real FID".into(), round(fid));
        }
        (q.recognisable, 10.0 * q.classes as f64, extra)
    }

    fn figures_csv(&self) -> Option<String> {
        let mut csv = String::from("step,is,fid,recognisable,classes,distinct,ink\n");
        for q in &self.by_step {
            csv += &format!("{},{:.4},{:.4},{:.2},{},{:.2},{:.2}\n", q.step, q.is, q.fid, q.recognisable, q.classes, q.distinct, q.ink);
        }
        Some(csv)
    }
}
