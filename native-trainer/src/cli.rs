//! The command line: every subcommand and flag (docs/cli.md).

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand, ValueEnum};

pub use crate::sampling_args::SamplingArgs;

#[derive(Parser)]
#[command(name = "native-trainer", version, about = "Train, evaluate and run GRAM / TRM on puzzles (CPU by default)")]
pub struct Cli {
    /// Compute backend: `flex` (CPU, default), `wgpu` (GPU; the `wgpu` cargo feature) or `cuda`
    /// (NVIDIA; the `cuda` cargo feature).
    #[arg(long, value_enum, default_value_t = Backend::Flex, global = true)]
    pub backend: Backend,
    /// CPU threads for the flex backend's matmuls and large element-wise ops (0: every core,
    /// or `RAYON_NUM_THREADS` when set).
    #[arg(long, default_value_t = 0, global = true)]
    pub threads: usize,
    /// Let `--backend wgpu` run on a software adapter (Mesa's lavapipe or llvmpipe, SwiftShader:
    /// the CPU behind a GPU API), which it refuses by default. For testing the GPU code path.
    #[arg(long, global = true)]
    pub allow_software_gpu: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Backend {
    Flex,
    Wgpu,
    /// NVIDIA GPUs through CUDA (the `cuda` cargo feature), GPU 0.
    Cuda,
}

/// `data`'s subcommands.
#[derive(Subcommand)]
pub enum DataCommand {
    /// Check a Sudoku-Extreme CSV (`sudoku-csv`) or ARC-AGI JSON (`arc`) and write it as an
    /// import directory; the first bad row or grid is an error with its line, and nothing is
    /// written.
    Import(ImportArgs),
}

/// `eval`'s flags (`commands/eval.rs`).
#[derive(Args)]
pub struct EvalCli {
    /// A `.bpk` weights file (its `.json` manifest beside it) or a run directory. Repeatable:
    /// each is scored in turn with the same options, then one summary table has a row per
    /// weights (the GRAM paper's Table 10 from its variants).
    #[arg(long, required = true)]
    pub weights: Vec<PathBuf>,
    #[command(flatten)]
    pub sampling: SamplingArgs,
    /// Evaluate only this many test inputs, spread over the split (default: all).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Which split to score.
    #[arg(long, default_value = "test")]
    pub part: String,
    /// Write the result into the manifest's `eval` field (shipped weights only).
    #[arg(long)]
    pub record: bool,
    /// GRAM/TRM weights: PTRM's sigma (arXiv 2605.19943), N(0, sigma^2 I) added to the
    /// reasoning latent before every supervision step (0: off; > 0 makes TRM run N
    /// trajectories). Tree weights: Gaussian noise on every latent, sigma as a fraction of max |h|.
    #[arg(long, default_value_t = 0.0)]
    pub latent_noise: f64,
    /// GRAM/TRM weights: also score the answer each of these picks among the N samples
    /// (comma list, read from the same trajectories): `vote` (most frequent), `lprm` (value
    /// head), `q` (Q/halting head, PTRM's best-Q). None: the task's tables only.
    #[arg(long, value_delimiter = ',')]
    pub select: Vec<String>,
    /// Write the figures behind the tables (multi-solution tasks: the GRAM paper's figures 12
    /// and 13) to this CSV file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Sudoku or colouring weights: score the puzzles of a test import (`data import --format
    /// sudoku-csv --test`, e.g. Sudoku-Extreme's test.csv; `--format coloring --test`, graphs
    /// from elsewhere) instead of our split's `--part`.
    #[arg(long, conflicts_with = "part")]
    pub data: Option<PathBuf>,
    /// Sudoku weights: score `--part`'s rated set instead (200 puzzles, givens 17-40, each the
    /// hardest of K by the exact solver's guesses: how `train --hardest-of K` makes its pool).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64), conflicts_with = "data")]
    pub hardest_of: Option<u64>,
}

/// `data import`'s flags (`commands/import.rs`).
#[derive(Args)]
pub struct ImportArgs {
    /// What the input is: `sudoku-csv` (Sudoku-Extreme's source,q,a,rating CSV), `arc`
    /// (ARC-AGI JSON) or `coloring` (graphs, one per line or DIMACS blocks; with --test).
    #[arg(long, value_parser = import_formats())]
    pub format: String,
    /// The file to import (`arc`: also a directory of per-task .json files).
    #[arg(long)]
    pub input: PathBuf,
    /// The import directory to write (must not exist, or be empty).
    #[arg(long)]
    pub out: PathBuf,
    /// sudoku-csv: keep this many rows (after --min-difficulty), chosen by --seed.
    #[arg(long)]
    pub subsample: Option<usize>,
    /// sudoku-csv: keep rows whose rating is at least this.
    #[arg(long)]
    pub min_difficulty: Option<u32>,
    /// sudoku-csv: validity-preserving augmented copies written per train puzzle.
    #[arg(long, default_value_t = 0)]
    pub augment: usize,
    /// sudoku-csv: seed of the subsample and the augmentations.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// sudoku-csv: import a held-out test set (e.g. Sudoku-Extreme's test.csv) for `eval
    /// --data`: every kept row is a test puzzle (no validation part, no --augment); training
    /// refuses it. coloring: required (a colouring import is a test set).
    #[arg(long)]
    pub test: bool,
    /// coloring: the models' vertex count, 8 or 10 (a smaller graph gets isolated vertices).
    /// Default: the length of the first line written in the task's format (28 or 45).
    #[arg(long)]
    pub vertices: Option<usize>,
}

/// `data import`'s own formats: Sudoku-Extreme's CSV (a train or a test import) and ARC-AGI JSON.
pub const SUDOKU_CSV: &str = "sudoku-csv";
pub const ARC: &str = "arc";

/// Every `--format`: the trainer's own two, then the tasks' (`engine::tasks::import_format`).
fn import_formats() -> PossibleValuesParser {
    let tasks = engine::tasks::import_format::formats().into_iter().map(|f| f.name);
    PossibleValuesParser::new([SUDOKU_CSV, ARC].into_iter().chain(tasks))
}

// Parsed once per process: boxing the train flags would only add noise to clap's derive.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// Train a preset (gram-nqueens8[-mixer], trm-nqueens8[-mixer], gram-nqueens10[-mixer],
    /// trm-nqueens10[-mixer], gram-sudoku, trm-sudoku, gram-coloring8/10, trm-coloring8/10,
    /// gram/trm-nqueens8-boards, gram/trm-sudoku-grids, gram/trm-digits, gram-arc-tiny (on an
    /// `arc` import: --data), reasoner-tree-pretrain, reasoner-tree-sst, reasoner-tree-talker).
    Train(crate::train_cli::TrainCli),
    /// Datasets you bring: `data import --format sudoku-csv|arc|coloring --input FILE --out DIR`
    /// checks a file whole and writes an import directory that `train --data DIR` (or, for a
    /// test import, `eval --data DIR`) reads.
    Data {
        #[command(subcommand)]
        command: DataCommand,
    },
    /// The paper's Table-1 row on the test split: accuracy and coverage@N, overall and per k.
    Eval(EvalCli),
    /// Print the inputs of a split, one per line (the task's text format).
    Split {
        /// nqueens8, nqueens10, sudoku, tree, coloring8 or coloring10.
        #[arg(long, default_value = "nqueens8")]
        task: String,
        #[arg(long)]
        part: String,
        /// Sudoku only: the part's rated set instead (200 puzzles, givens 17-40, each the hardest
        /// of K by the exact solver's guesses), as `eval --hardest-of K` scores it.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64))]
        hardest_of: Option<u64>,
    },
    /// Solve puzzles from stdin (one per line); one JSON object per line on stdout.
    Solve {
        #[arg(long)]
        weights: PathBuf,
        /// The task the lines are (nqueens8, nqueens10, sudoku, tree, grammar, regex; `cfg` is read as grammar); checked against the weights.
        /// Default: the weights' task.
        #[arg(long)]
        task: Option<String>,
        #[command(flatten)]
        sampling: SamplingArgs,
        /// How `selected` is chosen: `lprm` (value head), `vote` (most frequent), `q` (Q/halting
        /// head, PTRM's best-Q) or `auto` (lprm for N-Queens, vote for Sudoku).
        #[arg(long, default_value = "auto")]
        select: String,
        /// GRAM/TRM weights: PTRM's sigma, N(0, sigma^2 I) on the reasoning latent before every
        /// supervision step (0: off). Tree and grammar weights: Gaussian noise on every latent,
        /// sigma as a fraction of max |h|.
        #[arg(long, default_value_t = 0.0)]
        latent_noise: f64,
        /// Grammar weights: the model that completes each prefix: t (Transformer), c (COCONUT),
        /// r (Reasoner + Dual-Talker) or r-mono (Reasoner + Mono-Talker). `--steps` = tokens.
        #[arg(long, default_value = "r")]
        model: String,
        /// Grammar weights: share of each prefix's terminals replaced by other terminals (seeded
        /// by --seed) before the model reads it.
        #[arg(long, default_value_t = 0.0)]
        corrupt: f64,
    },
    /// The grammar study's two rows that read no weights, at every corruption level of `eval`:
    /// the Bayes-optimal completion (the ceiling: what any reader of the grammar can score, and
    /// keep under corruption) and the no-prefix floor, on `--limit` completions of `--part`.
    Ceiling {
        /// The grammar: `short` (four levels, what is trained and shipped) or `paper` (five
        /// levels, 243-1,024 terminals, closer to the paper's).
        #[arg(long, default_value = "short")]
        variant: String,
        /// `validation` or `test`.
        #[arg(long, default_value = "validation")]
        part: String,
        #[arg(long, default_value_t = 256)]
        limit: usize,
        /// The corruption draws (as `eval --seed`).
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Print the grammar a grammar-study weights file was trained on, as JSON:
    /// `{"start": ..., "rules": {NONTERMINAL: [[SYMBOL, ...], ...]}, "terminals": [...]}`.
    Grammar {
        #[arg(long)]
        weights: PathBuf,
    },
    /// Draw N samples from nothing with generation weights (`nqueens8-boards`, `sudoku-grids`,
    /// `digits`: the GRAM paper's p(x)): one JSON line per sample, `{"sample": TEXT, "valid": bool}`
    /// (`valid` for boards and grids only; a digit is 28 rows of 0/1 joined by `/`).
    Generate {
        #[arg(long)]
        weights: PathBuf,
        #[arg(long, default_value_t = 20)]
        samples: usize,
        /// Supervision steps (refinement steps).
        #[arg(long, default_value_t = 8)]
        steps: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Noise scale: 0 = mean path (one sample), 1 = the learned prior, > 1 amplified.
        #[arg(long, default_value_t = 1.0)]
        guidance_scale: f64,
    },
    /// Record a run of shipped weights as a page computes it, for the page to show while its
    /// model loads: one JSON object. GRAM/TRM weights: every step's samples, LPRM values and
    /// probabilities; tree weights: the route and its explanation; grammar weights: the three
    /// completions and the sequence's curve. The weights' manifest says which. With `--task
    /// jepa`: `/jepa`'s training session instead (both models from fresh weights); with `--task
    /// train`: `/train`'s run (GRAM and TRM trained from fresh weights on the page's task).
    Record {
        #[arg(long, required_unless_present = "task", conflicts_with = "task")]
        weights: Option<PathBuf>,
        /// GRAM/TRM: the puzzle in the task's text format; tree: the tree line up to `[ROUTE]`
        /// (the page's default question).
        #[arg(long, conflicts_with = "task")]
        puzzle: Option<String>,
        /// `jepa`: record `/jepa`'s session (the LM-only and the LM + LLM-JEPA model trained
        /// side by side from fresh weights, as the page trains them) instead of a run of weights;
        /// `train`: record `/train`'s run (GRAM and TRM trained on the page's task, its curves).
        #[arg(long, value_parser = ["jepa", "train"])]
        task: Option<String>,
        /// GRAM/TRM only. Default 20.
        #[arg(long, conflicts_with = "task")]
        samples: Option<usize>,
        /// GRAM/TRM: supervision steps (default 16); `--task jepa`: training steps of each model
        /// (default 600); `--task train`: training steps of each model (default 2000, the page's).
        #[arg(long)]
        steps: Option<usize>,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// GRAM/TRM only. Default 1.
        #[arg(long, conflicts_with = "task")]
        guidance_scale: Option<f64>,
        /// GRAM/TRM only: the verified stop, with this many restarts (omit: every step, no stop).
        #[arg(long, conflicts_with = "task")]
        stop_restarts: Option<usize>,
        /// Tree and grammar weights: Gaussian noise on every latent, sigma as a fraction of max
        /// |h| (0 to 1). Default 0.
        #[arg(long, conflicts_with = "task")]
        latent_noise: Option<f64>,
        /// Grammar weights: which held-out sequence (`/grammar`'s `seq`). Default 0.
        #[arg(long, conflicts_with = "task")]
        sequence: Option<usize>,
        /// Grammar weights: share of the prefix's terminals replaced (0 to 1). Default 0.
        #[arg(long, conflicts_with = "task")]
        corrupt: Option<f64>,
        /// `--task jepa`: LLM-JEPA's weight of the JEPA term (0 to 4; default 1, the page's).
        #[arg(long, requires = "task", conflicts_with_all = ["weights", "puzzle"])]
        lambda: Option<f64>,
        /// `--task jepa`: LLM-JEPA's [PRED] tokens (0 to 4; default 1, the page's).
        #[arg(long, requires = "task", conflicts_with_all = ["weights", "puzzle"])]
        k: Option<usize>,
        /// `--task train`: the networks' width (`d_model`, 32 or 64; default 64, the page's).
        #[arg(long, requires = "task", conflicts_with_all = ["weights", "puzzle"])]
        width: Option<usize>,
        #[arg(long)]
        out: PathBuf,
    },
    /// One draw of training's noise on the chosen backend (`--backend`): the uniform bits'
    /// hash, equal on every backend, and the normals' moments; `--out` writes every normal
    /// (f32 little-endian) for a comparison between backends (`tools/gpu-check.sh`).
    Noise {
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Which draw of the seed's source (0 = its first).
        #[arg(long, default_value_t = 0)]
        draw: u64,
        #[arg(long, default_value_t = 1_000_000)]
        count: usize,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Train the small digit classifier `eval` measures generated digits with (IS and FID;
    /// engine::tasks::digits::classifier) and write it where the engine compiles it in.
    Classifier {
        #[arg(long, default_value = "engine/data/digit-classifier.bin")]
        out: PathBuf,
        /// Optimiser steps (6,000 chosen on the validation part: 97.4% against 97.0% at 3,000).
        #[arg(long, default_value_t = 6000)]
        steps: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// GRAM/TRM weights to or from SafeTensors in PyTorch's conventions (by the extensions:
    /// W.bpk -> F.safetensors, or F.safetensors -> W.bpk); the manifest travels beside the file
    /// (F.json), holding the config. With `--from trm`: an official TinyRecursiveModels
    /// checkpoint (saved as SafeTensors) -> W.bpk and its manifest.
    Convert {
        #[arg(long)]
        weights: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// `trm`: --weights is an official TinyRecursiveModels checkpoint (tests/pytorch/README.md).
        #[arg(long, value_enum)]
        from: Option<crate::convert_args::ConvertFrom>,
        #[command(flatten)]
        trm: crate::convert_args::TrmArgs,
    },
    /// Export a run's latest checkpoint as public/weights/<name>.bpk + <name>.json.
    Export {
        /// Run directory (default: runs/<name>).
        #[arg(long)]
        run_dir: Option<PathBuf>,
        /// Weights name, e.g. gram-nqueens8.
        #[arg(long)]
        name: String,
        #[arg(long, default_value = "public/weights")]
        out_dir: PathBuf,
    },
    /// Terminal demo: held-out puzzles solved by the shipped GRAM and TRM weights side by side.
    Demo {
        #[arg(long, default_value_t = 20)]
        samples: usize,
        #[arg(long, default_value_t = 4)]
        puzzles: usize,
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Measure the sampling step (N trajectories of one puzzle) and the training step of every
    /// shipped GRAM/TRM model, at each thread count, in one run (`TABLE bench` lines).
    Bench {
        /// Weights to measure (repeatable); none: every GRAM/TRM file in public/weights.
        #[arg(long)]
        weights: Vec<PathBuf>,
        /// Thread counts to measure, each in its own pool (comma list).
        #[arg(long, value_delimiter = ',', default_value = "1,2")]
        bench_threads: Vec<usize>,
        /// Trajectory counts N for the sampling step (comma list).
        #[arg(long, value_delimiter = ',', default_value = "1,5,20,64")]
        samples: Vec<usize>,
        /// Timed rounds per row (best and median are over rounds).
        #[arg(long, default_value_t = 7)]
        repeats: usize,
        /// Consecutive steps per round.
        #[arg(long, default_value_t = 3)]
        iters: usize,
        /// What to measure: sample, train, noise (a training step's noise draws, the sequential
        /// generator against training's counter-based one), as a comma list.
        #[arg(long, value_delimiter = ',', default_value = "sample,train")]
        what: Vec<String>,
    },
}
