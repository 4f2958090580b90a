//! A run trained for the page, point by point: every `point_every` steps the means of the
//! training figures since the last point, every `measure_every` steps the held-out measure
//! ([`super::held_out`]) as well. The page's worker steps a [`CurveRun`] between its messages
//! and `native-trainer record --task train` steps it straight through for the recorded run the
//! page opens on ([`super::recorded`]), so both draw the same curve from the same code.

use serde::{Deserialize, Serialize};

use super::held_out::HeldOut;
use super::step::Diverged;
use super::trainer::Trainer;

/// One point of a run's curve as the page draws it: the training figures averaged since the
/// last point, and the held-out measure where one was taken at this step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub step: usize,
    /// Seconds of training steps so far (the caller's clock; held-out measures apart).
    pub seconds: f64,
    pub loss: f32,
    /// The share of the batch's rows answered validly.
    pub valid: f64,
    /// The held-out accuracy and coverage in percent (`super::held_out`).
    pub held_out: Option<(f64, f64)>,
}

/// The curve as CSV with a header; an absent measure is an empty field.
pub fn curve_csv(points: &[CurvePoint]) -> String {
    let mut out = String::from("step,seconds,loss,valid,heldout_accuracy,heldout_coverage\n");
    for p in points {
        let (a, c) = p.held_out.map_or((String::new(), String::new()), |(a, c)| (format!("{a:.2}"), format!("{c:.2}")));
        out.push_str(&format!("{},{:.1},{:.5},{:.4},{a},{c}\n", p.step, p.seconds, p.loss, p.valid));
    }
    out
}

/// How often a run reports, and what its held-out measure reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cadence {
    /// Steps between two curve points.
    pub point_every: usize,
    /// Steps between two held-out measures (a multiple of `point_every` to land on a point).
    pub measure_every: usize,
    pub held_out: HeldOut,
}

/// A point as it is reported: the point, the milliseconds per step since the last one, and the
/// milliseconds the held-out measure took when the point has one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reported {
    pub point: CurvePoint,
    pub millis_per_step: f64,
    pub measure_millis: Option<f64>,
}

/// A run and the curve drawn of it so far.
pub struct CurveRun {
    pub trainer: Trainer,
    pub curve: Vec<CurvePoint>,
    /// Seconds of training steps so far.
    pub seconds: f64,
    /// Sums since the last point: loss, valid share, milliseconds, steps.
    sums: (f64, f64, f64, usize),
}

impl CurveRun {
    pub fn new(trainer: Trainer) -> CurveRun {
        CurveRun { trainer, curve: Vec::new(), seconds: 0.0, sums: (0.0, 0.0, 0.0, 0) }
    }

    /// One training step timed by `clock` (milliseconds from any origin); the point it
    /// completes, if one is due.
    pub fn step(&mut self, cadence: Cadence, clock: &dyn Fn() -> f64) -> Result<Option<Reported>, Diverged> {
        let t0 = clock();
        let out = self.trainer.step()?;
        let spent = clock() - t0;
        self.seconds += spent / 1000.0;
        let (loss, valid, millis, n) = &mut self.sums;
        (*loss, *valid, *millis, *n) = (*loss + (out.ce + out.kl) as f64, *valid + out.valid, *millis + spent, *n + 1);
        let step = self.trainer.steps_taken();
        if !step.is_multiple_of(cadence.point_every) {
            return Ok(None);
        }
        let measured = step.is_multiple_of(cadence.measure_every).then(|| {
            let t1 = clock();
            let score = self.trainer.held_out(cadence.held_out);
            ((score.accuracy, score.coverage), clock() - t1)
        });
        let (loss, valid, millis, n) = std::mem::take(&mut self.sums);
        let point = CurvePoint {
            step,
            seconds: self.seconds,
            loss: (loss / n as f64) as f32,
            valid: valid / n as f64,
            held_out: measured.map(|(s, _)| s),
        };
        self.curve.push(point);
        Ok(Some(Reported { point, millis_per_step: millis / n as f64, measure_millis: measured.map(|(_, ms)| ms) }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::TaskId;
    use crate::training::TrainSpec;
    use burn::tensor::Device;
    use std::cell::Cell;

    /// A point every 2 steps with the means of its 2 steps, the measure on every second point,
    /// seconds from the caller's clock, and the curve kept on the run.
    #[test]
    fn points_and_measures_come_at_their_cadence() {
        let trainer = Trainer::new(TrainSpec::at_width(TaskId::Coloring(6), true, 32).unwrap(), 1, &Device::flex()).unwrap();
        let mut run = CurveRun::new(trainer);
        let cadence = Cadence { point_every: 2, measure_every: 4, held_out: HeldOut { inputs: 2, samples: 2 } };
        let clock = Cell::new(0.0);
        let tick = || clock.replace(clock.get() + 100.0);
        let reported: Vec<Option<Reported>> = (0..4).map(|_| run.step(cadence, &tick).unwrap()).collect();
        assert!(reported[0].is_none() && reported[2].is_none());
        let (second, fourth) = (reported[1].unwrap(), reported[3].unwrap());
        assert_eq!((second.point.step, fourth.point.step), (2, 4));
        assert!(second.point.held_out.is_none() && second.measure_millis.is_none());
        let (accuracy, coverage) = fourth.point.held_out.expect("a measure at step 4");
        assert!((0.0..=100.0).contains(&accuracy) && (0.0..=100.0).contains(&coverage));
        assert_eq!(second.millis_per_step, 100.0);
        assert!((second.point.seconds - 0.2).abs() < 1e-9, "{}", second.point.seconds);
        assert!(second.point.loss.is_finite() && (0.0..=1.0).contains(&second.point.valid));
        assert_eq!(run.curve, vec![second.point, fourth.point]);
        assert_eq!(curve_csv(&run.curve).lines().count(), 3);
    }
}
