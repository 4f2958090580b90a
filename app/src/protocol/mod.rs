//! Typed messages between the page (main thread) and the model's Web Worker. Encoded by
//! gloo-worker (serde + bincode); nothing else crosses the boundary.

use serde::{Deserialize, Serialize};

mod solve_request;
mod train;
pub use solve_request::{Knobs, SolveRequest};
pub use train::{CurvePoint, TrainProgress, TrainRequest, TrainStart, TrainedWeights, Trial, TryRequest, WIDTHS as TRAIN_WIDTHS};

/// Which backend the visitor (or the URL's `backend=`) asked for.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendChoice {
    /// WebGPU on a hardware adapter, else the CPU (a software adapter counts as no GPU).
    Auto,
    /// WebGPU whenever an adapter exists, even a software one (the e2e tests use it).
    WebGpu,
    /// burn-flex on wasm.
    Cpu,
}

impl BackendChoice {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "auto" => Some(Self::Auto),
            "webgpu" => Some(Self::WebGpu),
            "cpu" => Some(Self::Cpu),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::WebGpu => "webgpu",
            Self::Cpu => "cpu",
        }
    }
}

/// Where a test makes the WebGPU worker fail (the URL's `gpufail=load|step|midrun`, read only by
/// the page's e2e tests): the device request, the first step, or the third step of a run. The
/// WebGPU build alone honours it, and only while its model runs on WebGPU.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InjectedFailure {
    Load,
    FirstStep,
    MidRun,
}

impl InjectedFailure {
    pub fn parse(text: &str) -> Option<Self> {
        [Self::Load, Self::FirstStep, Self::MidRun].into_iter().find(|f| f.as_str() == text)
    }

    /// The URL's word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Load => "load",
            Self::FirstStep => "step",
            Self::MidRun => "midrun",
        }
    }

    /// The step (0-based: steps done before it) that fails, for the step failures.
    pub fn failing_step(self) -> Option<usize> {
        match self {
            Self::Load => None,
            Self::FirstStep => Some(0),
            Self::MidRun => Some(2),
        }
    }
}

/// The engine's lanes: restart rounds shared among workers.
pub use engine::solve::lane::Lane;
/// The engine's shares: a run's samples split among workers.
pub use engine::solve::share::Share;

/// A change to running trajectories (the engine's, so a recorded run replays the same way).
pub use engine::solve::live::Intervention;

/// Where a run with the verified stop found a sample that passes the rules.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifiedStep {
    /// 0-based round: 0 the first budget, r the r-th restart.
    #[serde(default)]
    pub round: usize,
    /// 1-based supervision step within its round.
    pub step: usize,
    /// 0-based sample.
    pub sample: usize,
}

impl From<engine::solve::VerifiedAt> for VerifiedStep {
    fn from(v: engine::solve::VerifiedAt) -> Self {
        Self { round: v.round, step: v.step, sample: v.sample }
    }
}

/// A tree route search: one input line, latent noise, seed.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct TreeRequest {
    pub run: u64,
    /// Weights name, e.g. `reasoner-tree`.
    pub model: String,
    /// Appendix-A line up to and including `[ROUTE]`.
    pub input: String,
    /// Gaussian sigma on every latent as a fraction of its max |h|.
    pub noise: f64,
    pub seed: u64,
}

/// The Reasoner's answer, explained (the engine's [`engine::tasks::tree::reasoner::Explanation`]).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct TreeReport {
    pub run: u64,
    pub explanation: engine::tasks::tree::reasoner::Explanation,
    /// Wall time in the worker, ms (latents, Talker, analysis).
    pub millis: f64,
}

/// `/grammar`: one held-out sequence completed by T, C and R under corruption and latent noise.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GrammarRequest {
    pub run: u64,
    /// Weights name, e.g. `cfg-small`.
    pub model: String,
    /// Which held-out (test) completion instance.
    pub sequence: usize,
    /// Share of the prefix's terminals flipped before the models read it.
    pub corrupt: f64,
    /// Gaussian sigma on every latent (C's thoughts, R's latents) as a fraction of max |h|.
    pub noise: f64,
    pub seed: u64,
}

/// The engine's view of one grammar request ([`engine::studies::grammar::explore::GrammarView`]).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GrammarReport {
    pub run: u64,
    pub view: engine::studies::grammar::explore::GrammarView,
    /// Wall time in the worker, ms.
    pub millis: f64,
}

/// How a `/jepa` training session starts.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveStart {
    /// Two fresh models.
    Fresh,
    /// The shipped `regex-lm` and `regex-llm-jepa` weights, trained on (the end of training).
    Trained,
    /// The session's models as they were when paused (fresh ones if there are none).
    Continue,
}

/// `/jepa`: train the LM-only model and the LM + LLM-JEPA model side by side until paused
/// (a `Cancel` of this run) or `steps` steps.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct LiveRequest {
    pub run: u64,
    pub start: LiveStart,
    /// LLM-JEPA's weight of the JEPA term, and its number of [PRED] tokens.
    pub lambda: f64,
    pub k: usize,
    pub seed: u64,
    /// Steps to train from where the session is (each model), unless paused first.
    pub steps: usize,
}

/// Training figures of both models since the last report (means), every few steps.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct LiveProgress {
    pub run: u64,
    pub step: usize,
    /// (LM-only, LM + LLM-JEPA) SFT cross-entropy per answer token.
    pub ce: (f32, f32),
    /// LLM-JEPA's mean cos(text, code) on its batches (NaN when dropout skipped every step).
    pub jepa_cos: f32,
    /// Worker milliseconds per step of both models.
    pub millis_per_step: f64,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum Request {
    /// Pick and initialise the backend (first message). `site_root` is the site's root URL (`http://host` or `http://host/latent`): the
    /// worker cannot resolve `weights/...` against the page's `<base href>` by itself.
    Init {
        backend: BackendChoice,
        site_root: String,
        /// A WebGPU failure to fake (the e2e tests' `gpufail=` in the URL; `None` otherwise).
        #[serde(default)]
        fail: Option<InjectedFailure>,
    },
    /// Fetch and verify a model's weights (no-op when already loaded).
    Load {
        model: String,
    },
    Solve(SolveRequest),
    /// Tree route search with the JEPA-Reasoner (answered by one `Reasoned`).
    Reason(TreeRequest),
    /// The grammar study on one sequence (answered by one `Explored`).
    Explore(GrammarRequest),
    /// `/jepa`'s live training (answered by `LiveProgress` and `LiveSnapshot`s until paused).
    Live(LiveRequest),
    /// `/train`'s training of one model (answered by `TrainProgress` until `TrainPaused`).
    Train(TrainRequest),
    /// The model `/train` trained, as files (answered by one `Trained`).
    Download,
    /// `/train`'s model solves a held-out input (answered by one `Tried`).
    Try(TryRequest),
    /// Stop a run after its current step.
    Cancel {
        run: u64,
    },
}

impl Request {
    /// The run a request starts (a solve, a tree search, a grammar study, live training); none
    /// for the others (a cancel names the run it ends).
    pub fn run(&self) -> Option<u64> {
        match self {
            Request::Solve(r) => Some(r.run),
            Request::Reason(r) => Some(r.run),
            Request::Explore(r) => Some(r.run),
            Request::Live(r) => Some(r.run),
            Request::Train(r) => Some(r.run),
            Request::Init { .. } | Request::Load { .. } | Request::Cancel { .. } | Request::Download | Request::Try(_) => None,
        }
    }
}

/// One supervision step of every trajectory of a run.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct StepReport {
    pub run: u64,
    /// 0-based round (restart) the step belongs to.
    #[serde(default)]
    pub round: usize,
    /// 1-based supervision step within its round.
    pub step: usize,
    /// Each sample's current answer as puzzle text.
    pub boards: Vec<String>,
    /// Per sample, what the page shades its answer with, in the task's order (the engine's
    /// `TokenTask::shading`): N-Queens P(queen) per cell, Sudoku P(digit 1..9) per cell
    /// (`[samples][81 * 9]`), colouring P(colour) per vertex, digits P(white) per pixel.
    pub probs: Vec<Vec<f32>>,
    /// LPRM value per sample.
    pub values: Vec<f32>,
    /// The guidance scale this step ran with (after the visitor's changes).
    #[serde(default)]
    pub scale: f64,
    /// Per sample, a sketch of its high-level state h (the latent map's input).
    #[serde(default)]
    pub latents: Vec<Vec<f32>>,
    /// Per sample, the Q-head's halting logit (PTRM's best-Q pick).
    #[serde(default)]
    pub halt_logits: Vec<f32>,
    /// Wall time of this step in the worker, ms (forward pass + read-back).
    pub millis: f64,
    /// Where a sample passed the rules at this step (the verified stop ends the run here): what
    /// lets the page end a run whose samples several workers split at the step one verified.
    #[serde(default)]
    pub verified: Option<VerifiedStep>,
}

impl StepReport {
    /// A step of run `run` with no samples, computed in `millis` (the tests' stand-in).
    #[cfg(test)]
    pub fn empty(run: u64, round: usize, step: usize, millis: f64) -> Self {
        Self {
            run,
            round,
            step,
            boards: vec![],
            probs: vec![],
            values: vec![],
            scale: 1.0,
            latents: vec![],
            halt_logits: vec![],
            millis,
            verified: None,
        }
    }

    /// The engine's view of a step, for run `run`, computed in `millis`.
    pub fn from_view(run: u64, v: engine::solve::live::StepView, millis: f64) -> Self {
        let engine::solve::live::StepView { round, step, boards, probs, values, scale, latents, halt_logits } = v;
        Self { run, round, step, boards, probs, values, scale, latents, halt_logits, millis, verified: None }
    }
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub enum Response {
    /// The backend in use, a short name for the badge ("WebGPU" or "CPU") and why.
    Backend {
        name: String,
        detail: String,
    },
    LoadProgress {
        model: String,
        loaded: u64,
        total: u64,
    },
    Loaded {
        model: String,
        summary: String,
    },
    LoadFailed {
        model: String,
        message: String,
    },
    Step(StepReport),
    /// A worker other than the page's first, on a shared run's later restarts (`SolveRequest::lane`),
    /// verified a sample: the step it verified at and where. It sends nothing else about a run.
    LaneVerified {
        report: StepReport,
        verified: VerifiedStep,
    },
    /// The run ended: its steps (over every round), time, and where it verified (verified stop only).
    Done {
        run: u64,
        steps: usize,
        millis: f64,
        verified: Option<VerifiedStep>,
    },
    Reasoned(TreeReport),
    Explored(GrammarReport),
    /// One point of a `/grammar` run's curve: (corruption, [(model, accuracy %)]), in level order.
    CurvePoint {
        run: u64,
        point: (f64, Vec<(String, f64)>),
    },
    LiveProgress(LiveProgress),
    /// What one `/jepa` model looks like now: `model` is `lm` or `llm-jepa`.
    LiveSnapshot {
        run: u64,
        model: String,
        snapshot: engine::studies::regex::live::Snapshot,
    },
    /// A live session stopped (paused, finished its steps, or replaced): at which step.
    LivePaused {
        run: u64,
        step: usize,
    },
    TrainProgress(TrainProgress),
    /// `/train`'s model stopped (paused, finished its steps, or replaced) at `step`.
    TrainPaused {
        run: u64,
        step: usize,
    },
    /// The trained model's files (`Request::Download`); `Err`: why there are none.
    Trained(Result<TrainedWeights, String>),
    /// `Request::Try`'s answers; `Err`: why there are none.
    Tried(Result<Trial, String>),
    Failed {
        run: u64,
        message: String,
    },
}
