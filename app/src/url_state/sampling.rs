//! The parameters every page that samples GRAM trajectories shares: `n`, `scale`, `seed`,
//! `steps`, `stop`, `restarts`, `noise` (PTRM), `backend` and `run`, read and written here once.

use engine::solve::Copies;
use engine::tasks::InferenceDefaults;

use super::fields::{Decimal, SEED, Whole, ignored, read_run, run_suffix};
use super::page::UrlState;
use crate::protocol::{BackendChoice, Knobs};

/// Most supervision steps a run may ask for.
pub const MAX_STEPS: usize = 16;
/// The most samples a run may ask for; the worker refuses more (a page may allow fewer: Sudoku 32).
pub const MAX_SAMPLES: usize = 64;
/// Largest guidance scale.
pub const MAX_SCALE: f64 = 3.0;
/// `scale`: the guidance scale, 0 to 3 in steps of 0.1.
pub const SCALE: Decimal = Decimal { max: MAX_SCALE, per_unit: 10.0, rule: "a number from 0 to 3" };
/// `steps`: supervision steps per run.
pub const STEPS: Whole<usize> = Whole { min: 1, max: MAX_STEPS };
/// Most restarts a run may ask for (each a whole budget of steps).
pub const MAX_RESTARTS: usize = 4;
/// `restarts=until`: restart until a sample passes the rules or the visitor presses Stop.
pub const UNTIL_VERIFIED: usize = usize::MAX;
/// The most workers that share a run's restarts (`workers`): the page's own and its helpers.
pub const MAX_WORKERS: usize = 4;
/// Largest PTRM latent noise sigma (against the RMS-normalised reasoning latent).
pub const MAX_NOISE: f64 = 16.0;
/// `noise`: PTRM's test-time latent noise sigma, 0 to 16 in steps of 0.1.
pub const NOISE: Decimal = Decimal { max: MAX_NOISE, per_unit: 10.0, rule: "a number from 0 to 16 (PTRM's latent noise sigma)" };

/// How a page samples: N trajectories, the guidance scale, the noise seed, the supervision
/// steps, the backend, and whether the run starts as soon as the page is ready.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampling {
    pub samples: usize,
    pub scale: f64,
    pub seed: u64,
    pub steps: usize,
    /// The verified stop: the run ends at the first step where a sample passes the puzzle's
    /// rules (engine `solve_verified`; not the paper's sampler, which runs the whole budget).
    pub stop: bool,
    /// With the verified stop: when a whole budget ends with nothing verified, all N
    /// trajectories start again with fresh noise, up to this many times (engine
    /// `solve_verified`'s rounds minus one); [`UNTIL_VERIFIED`]: until one passes or Stop.
    pub restarts: usize,
    /// With the verified stop (or on a page whose copies need none, [`Sampling::copies_free`]):
    /// every sample solves its own shuffled copy of the puzzle (same rules, same answer read
    /// back; the engine's `Copies::Samples`; round 0's first sample the puzzle as given)
    /// instead of the puzzle as given.
    pub copies: bool,
    /// The page's copies apply without the verified stop too (`/coloring`: the paper's sampler
    /// with a copy per sample, engine `solve_on_copies`); not in the URL, the page's own.
    pub copies_free: bool,
    /// PTRM (arXiv 2605.19943): sigma of the Gaussian noise added to the reasoning latent before
    /// every supervision step; 0 (the default) adds none.
    pub noise: f64,
    pub backend: BackendChoice,
    /// Workers that share a run's restarts on the CPU build (`workers`, 1 to
    /// [`MAX_WORKERS`]); 0, the default: one per logical core, at most [`MAX_WORKERS`].
    pub workers: usize,
    /// Start the run as soon as the page is ready (set once a run was started, so reloading the
    /// URL reproduces it).
    pub run: bool,
}

impl Sampling {
    /// The GRAM paper's sampler with `samples` trajectories: scale 1, 8 steps, no verified stop
    /// (`InferenceDefaults::PAPER`), seed 0, backend auto, no run.
    pub fn with_samples(samples: usize) -> Self {
        Self::from_defaults(&InferenceDefaults { samples, ..InferenceDefaults::PAPER })
    }

    /// A task's inference defaults (the same as `native-trainer solve`'s), seed 0, backend
    /// auto, no run.
    pub fn from_defaults(d: &InferenceDefaults) -> Self {
        Self {
            samples: d.samples,
            scale: d.guidance_scale,
            seed: 0,
            steps: d.steps,
            stop: d.verified_stop,
            restarts: d.restarts,
            copies: d.copies != Copies::None,
            copies_free: false,
            noise: 0.0,
            backend: BackendChoice::Auto,
            workers: 0,
            run: false,
        }
    }

    /// The input's size changed from one whose defaults are `old` to one whose defaults are
    /// `new` (10-vertex colouring samples at another scale than 8-vertex): every field the
    /// defaults set that is still at `old`'s value takes `new`'s; what the visitor chose stays.
    pub fn follow_defaults(&mut self, old: &Sampling, new: &Sampling) {
        fn follow<T: PartialEq + Copy>(field: &mut T, old: T, new: T) {
            if *field == old {
                *field = new;
            }
        }
        follow(&mut self.samples, old.samples, new.samples);
        follow(&mut self.scale, old.scale, new.scale);
        follow(&mut self.steps, old.steps, new.steps);
        follow(&mut self.stop, old.stop, new.stop);
        follow(&mut self.restarts, old.restarts, new.restarts);
        follow(&mut self.copies, old.copies, new.copies);
    }

    /// What a run with these settings solves: with copies on and the stop (or a page whose
    /// copies need none), every sample its own shuffled copy; otherwise the puzzle as given.
    pub fn run_copies(&self) -> Copies {
        if self.copies && (self.stop || self.copies_free) { Copies::Samples } else { Copies::None }
    }

    /// What a run with these settings samples (the request's knobs, `protocol::SolveRequest::new`).
    pub fn knobs(&self) -> Knobs {
        Knobs {
            samples: self.samples,
            guidance_scale: self.scale,
            seed: self.seed,
            steps: self.steps,
            verified_stop: self.stop,
            restarts: self.restarts,
            copies: self.run_copies(),
            latent_noise: self.noise,
        }
    }

    /// Applies `key=value` when the key is a shared one (`n`, `scale`, `seed`, `steps`, `stop`,
    /// `restarts` (0-4 or `until`), `copies`, `noise`, `backend`, `workers`, `run`) and returns true; a bad value keeps the current one and leaves a note.
    /// Returns false for any other key.
    pub fn read(&mut self, key: &str, value: &str, max_samples: usize, notes: &mut Vec<String>) -> bool {
        match key {
            "n" => Whole { min: 1, max: max_samples }.read(key, value, &mut self.samples, notes),
            "scale" => SCALE.read(key, value, &mut self.scale, notes),
            "seed" => SEED.read(key, value, &mut self.seed, notes),
            "steps" => STEPS.read(key, value, &mut self.steps, notes),
            "stop" => read_bit(key, value, &mut self.stop, "1 (stop at the first verified sample) or 0", notes),
            "restarts" => match (value, value.parse::<usize>()) {
                ("until", _) => self.restarts = UNTIL_VERIFIED,
                (_, Ok(r)) if r <= MAX_RESTARTS => self.restarts = r,
                _ => notes.push(ignored(
                    key,
                    value,
                    &format!("a whole number from 0 to {MAX_RESTARTS}, or until"),
                    restarts_text(self.restarts),
                )),
            },
            "copies" => read_bit(key, value, &mut self.copies, "1 (every sample solves a shuffled copy) or 0", notes),
            "noise" => NOISE.read(key, value, &mut self.noise, notes),
            "backend" => match BackendChoice::parse(value) {
                Some(b) => self.backend = b,
                None => notes.push(ignored(key, value, "auto, webgpu or cpu", "auto")),
            },
            "workers" => Whole { min: 0, max: MAX_WORKERS }.read(key, value, &mut self.workers, notes),
            "run" => read_run(value, &mut self.run),
            _ => return false,
        }
        true
    }

    /// The shared tail of a page's query string: `n=..&scale=..&seed=..&steps=..&stop=0|1`,
    /// `restarts` and `copies` with the stop, `copies=1` without it on a page whose copies need
    /// none (elsewhere they mean nothing), `noise` when there is some, then
    /// `backend` when forced, `workers` when set and `run=1` after a run.
    pub fn to_query(&self) -> String {
        let mut q = format!("n={}&scale={}&seed={}&steps={}&stop={}", self.samples, self.scale, self.seed, self.steps, self.stop as u8);
        if self.stop {
            q.push_str(&format!("&restarts={}", restarts_text(self.restarts)));
            q.push_str(&format!("&copies={}", self.copies as u8));
        } else if self.copies_free && self.copies {
            q.push_str("&copies=1");
        }
        if self.noise > 0.0 {
            q.push_str(&format!("&noise={}", self.noise));
        }
        if self.backend != BackendChoice::Auto {
            q.push_str(&format!("&backend={}", self.backend.as_str()));
        }
        if self.workers > 0 {
            q.push_str(&format!("&workers={}", self.workers));
        }
        q.push_str(run_suffix(self.run));
        q
    }
}

/// `1` or `0` into `slot`; anything else keeps it and leaves a note saying `rule`.
fn read_bit(key: &str, value: &str, slot: &mut bool, rule: &str, notes: &mut Vec<String>) {
    match value {
        "1" => *slot = true,
        "0" => *slot = false,
        _ => notes.push(ignored(key, value, rule, if *slot { "1" } else { "0" })),
    }
}

/// A restart budget as the URL and the page write it: a number, or `until`.
pub fn restarts_text(restarts: usize) -> String {
    if restarts == UNTIL_VERIFIED { "until".into() } else { restarts.to_string() }
}

/// A page whose state holds a [`Sampling`]: its controls and runs are shared (see `ui::controls`).
pub trait HasSampling: UrlState {
    /// Largest N the page offers (`n` and the slider).
    const MAX_SAMPLES: usize;
    fn sampling(&self) -> &Sampling;
    fn sampling_mut(&mut self) -> &mut Sampling;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(query: &[(&str, &str)], max: usize) -> (Sampling, Vec<String>) {
        let mut s = Sampling::with_samples(10);
        let mut notes = Vec::new();
        for (k, v) in query {
            assert!(s.read(k, v, max, &mut notes), "{k} is a shared key");
        }
        (s, notes)
    }

    #[test]
    fn writes_every_shared_field_and_reads_it_back() {
        let s = Sampling {
            samples: 7,
            scale: 2.5,
            seed: 42,
            steps: 3,
            stop: true,
            restarts: 3,
            copies: true,
            copies_free: false,
            noise: 1.5,
            backend: BackendChoice::WebGpu,
            workers: 2,
            run: true,
        };
        let q = s.to_query();
        assert_eq!(q, "n=7&scale=2.5&seed=42&steps=3&stop=1&restarts=3&copies=1&noise=1.5&backend=webgpu&workers=2&run=1");
        let pairs: Vec<(&str, &str)> = q.split('&').map(|kv| kv.split_once('=').unwrap()).collect();
        assert_eq!(read_all(&pairs, 64), (s, vec![]));
        let until = Sampling { restarts: UNTIL_VERIFIED, copies: false, ..Sampling::with_samples(4) };
        let until = Sampling { stop: true, ..until };
        assert_eq!(until.to_query(), "n=4&scale=1&seed=0&steps=8&stop=1&restarts=until&copies=0");
        let pairs: Vec<(&str, &str)> = until.to_query().leak().split('&').map(|kv| kv.split_once('=').unwrap()).collect();
        assert_eq!(read_all(&pairs, 64), (until, vec![]));
        assert_eq!(Sampling::with_samples(20).to_query(), "n=20&scale=1&seed=0&steps=8&stop=0", "auto and no run are left out");
    }

    #[test]
    fn bad_values_keep_the_current_value_and_say_so() {
        let (s, notes) = read_all(
            &[
                ("n", "5"),
                ("n", "33"),
                ("scale", "-1"),
                ("steps", "17"),
                ("seed", "x"),
                ("backend", "gpu"),
                ("run", "yes"),
                ("stop", "yes"),
                ("restarts", "5"),
                ("noise", "17"),
            ],
            32,
        );
        assert_eq!(s, Sampling { samples: 5, ..Sampling::with_samples(10) });
        assert_eq!(
            notes,
            [
                "Ignored n=\"33\" (a whole number from 1 to 32); using 5.",
                "Ignored scale=\"-1\" (a number from 0 to 3); using 1.",
                "Ignored steps=\"17\" (a whole number from 1 to 16); using 8.",
                "Ignored seed=\"x\" (a whole number from 0 to 1000000000); using 0.",
                "Ignored backend=\"gpu\" (auto, webgpu or cpu); using auto.",
                "Ignored stop=\"yes\" (1 (stop at the first verified sample) or 0); using 0.",
                "Ignored restarts=\"5\" (a whole number from 0 to 4, or until); using 0.",
                "Ignored noise=\"17\" (a number from 0 to 16 (PTRM's latent noise sigma)); using 0.",
            ]
        );
        let mut s = Sampling::with_samples(10);
        assert!(!s.read("board", "Q", 64, &mut Vec::new()), "page keys are not shared ones");
        s.read("backend", "cpu", 64, &mut Vec::new());
        let mut notes = Vec::new();
        s.read("backend", "x", 64, &mut notes);
        assert_eq!(s.backend, BackendChoice::Cpu, "a bad backend keeps the one read before");
        assert!(notes[0].ends_with("using auto."), "the note names the default, as before: {notes:?}");
    }
}
