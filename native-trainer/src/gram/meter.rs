//! What a training step measured, and the running sums the progress line and `log.csv` show
//! between two log lines. The loss stays on the device, summed there, and is read once per log
//! row; each row ends with the logged step's traffic (`engine::transfer`): the bytes it sent to
//! and read from the device and its blocking reads, that row's read of the loss included
//! (quick evals and checkpoints are not the step's and are left out).

use burn::tensor::Tensor;
use engine::transfer::{self, Traffic};

use crate::gram::state::RunState;
use crate::run::log::{Clock, bar, show_progress};
use engine::training::StepOut;

/// Running sums between two log lines.
pub(crate) struct Meter {
    /// Whether the quick evals also score the raw weights beside their average (two more
    /// columns).
    ema: bool,
    /// The losses' sum, on the device.
    loss: Option<Tensor<1>>,
    ce: f64,
    kl: f64,
    valid: f64,
    n: usize,
    finished: usize,
    finished_valid: usize,
}

impl Meter {
    pub fn new(ema: bool) -> Meter {
        Meter { ema, loss: None, ce: 0.0, kl: 0.0, valid: 0.0, n: 0, finished: 0, finished_valid: 0 }
    }

    /// `log.csv`'s header.
    pub fn header(&self) -> String {
        let raw = if self.ema { ",raw_eval_acc,raw_eval_cov" } else { "" };
        format!("step,seconds,lr,loss,ce,kl,valid_frac,finished_valid_frac,eval_acc,eval_cov{raw},up_bytes,down_bytes,reads")
    }

    pub fn add(&mut self, s: StepOut) {
        self.loss = Some(match self.loss.take() {
            Some(sum) => sum + s.loss,
            None => s.loss,
        });
        (self.ce, self.kl) = (self.ce + s.ce as f64, self.kl + s.kl as f64);
        self.valid += s.valid;
        self.n += 1;
        self.finished += s.finished.count;
        self.finished_valid += s.finished.valid;
    }

    /// Shows the progress line, returns the log.csv row (`eval`: its eval columns, left empty
    /// without one; `traffic`: the logged step's, to which the read of the loss is added), and
    /// resets. A mean loss that is not finite is returned as `Err(loss)`.
    pub fn take(&mut self, state: &RunState, lr: f64, clock: &Clock, eval: Option<&str>, traffic: Traffic) -> Result<String, f64> {
        let (step, total, seconds) = (state.step, state.total_steps, state.seconds);
        let n = self.n.max(1) as f64;
        let before = transfer::traffic();
        let sum = self.loss.take().map_or(0.0, |t| transfer::read(t).try_to_vec::<f32>().expect("a float tensor")[0] as f64);
        let traffic = traffic + (transfer::traffic() - before);
        let (loss, ce, kl, valid) = (sum / n, self.ce / n, self.kl / n, self.valid / n);
        if !loss.is_finite() {
            return Err(loss);
        }
        let fin = self.finished_valid as f64 / self.finished.max(1) as f64;
        let (rate, eta) = clock.rate_and_eta(step, total);
        show_progress(&format!(
            "{} loss {loss:.4} ce {ce:.4} kl {kl:.4} valid {:.1}% finished-valid {:.1}% lr {lr:.1e} {rate:.2}s/step ETA {eta}",
            bar(step, total),
            100.0 * valid,
            100.0 * fin
        ));
        *self = Meter::new(self.ema);
        let eval = eval.unwrap_or(if self.ema { ",,," } else { "," });
        let Traffic { up_bytes, down_bytes, reads } = traffic;
        Ok(format!("{step},{seconds:.1},{lr:.3e},{loss:.5},{ce:.5},{kl:.5},{valid:.4},{fin:.4},{eval},{up_bytes},{down_bytes},{reads}"))
    }
}
