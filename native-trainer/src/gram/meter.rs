//! What a training step measured, and the running sums the progress line and `log.csv` show
//! between two log lines.

use crate::gram::batch::Finished;
use crate::gram::state::RunState;
use crate::run::log::{Clock, bar, show_progress};

/// What one step measured.
pub(crate) struct StepOut {
    pub loss: f32,
    pub ce: f32,
    pub kl: f32,
    pub valid: f64,
    pub finished: Finished,
    pub lr: f64,
}

/// Running sums between two log lines.
#[derive(Default)]
pub(crate) struct Meter {
    loss: f64,
    ce: f64,
    kl: f64,
    valid: f64,
    n: usize,
    finished: usize,
    finished_valid: usize,
}

impl Meter {
    pub fn add(&mut self, s: &StepOut) {
        (self.loss, self.ce, self.kl) = (self.loss + s.loss as f64, self.ce + s.ce as f64, self.kl + s.kl as f64);
        self.valid += s.valid;
        self.n += 1;
        self.finished += s.finished.count;
        self.finished_valid += s.finished.valid;
    }

    /// Shows the progress line, returns the log.csv row (`eval`: its eval columns), and resets.
    pub fn take(&mut self, state: &RunState, lr: f64, clock: &Clock, eval: Option<&str>) -> String {
        let (step, total, seconds) = (state.step, state.total_steps, state.seconds);
        let n = self.n.max(1) as f64;
        let (loss, ce, kl, valid) = (self.loss / n, self.ce / n, self.kl / n, self.valid / n);
        let fin = self.finished_valid as f64 / self.finished.max(1) as f64;
        let (rate, eta) = clock.rate_and_eta(step, total);
        show_progress(&format!(
            "{} loss {loss:.4} ce {ce:.4} kl {kl:.4} valid {:.1}% finished-valid {:.1}% lr {lr:.1e} {rate:.2}s/step ETA {eta}",
            bar(step, total),
            100.0 * valid,
            100.0 * fin
        ));
        *self = Meter::default();
        let eval = eval.unwrap_or(","); // no eval: the eval columns stay empty
        format!("{step},{seconds:.1},{lr:.3e},{loss:.5},{ce:.5},{kl:.5},{valid:.4},{fin:.4},{eval}")
    }
}
