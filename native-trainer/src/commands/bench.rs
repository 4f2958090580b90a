//! `bench`: what a sampling step and a training step cost, for every shipped GRAM/TRM model, at
//! each thread count asked for, in one run; with `--what noise`, a training step's noise draws.
//!
//! A sampling step is one supervision step of `Trajectories::step` (guidance draw, T(K+1) core
//! passes, heads) for one puzzle replicated into N trajectories; a training step is one step of
//! `train` on the model's preset (forward on the in-flight batch, backward, clipping, AdamW,
//! refill). Each row runs `repeats` rounds of `iters` consecutive steps after a warm-up step and
//! reports the best and the median round (ms per step) and spread = (median - best) / best.
//! The `TABLE bench` lines have the same fields as `bench/pytorch/gram_bench.py`, whose lines
//! `bench/compare.py` joins with these into burn / PyTorch ratios.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use burn::tensor::Device;
use engine::gram::noise::NoiseSource;
use engine::gram::{Gram, SampleOptions, Trajectories};
use engine::tasks::registry::{TaskVisitor, visit};
use engine::tasks::{Part, Task, TokenTask};

use super::sampling::{named_task, task_of};
use crate::gram::presets::preset;
use crate::gram::step_timing::time_steps;
use crate::gram::weights::load_weights;

pub struct BenchArgs {
    /// Weights to measure; empty: every GRAM/TRM file in `public/weights`.
    pub weights: Vec<PathBuf>,
    pub threads: Vec<usize>,
    pub samples: Vec<usize>,
    pub repeats: usize,
    pub iters: usize,
    pub sample: bool,
    pub train: bool,
    /// Also time a training step's noise draws, the sequential generator against the
    /// counter-based one (`--what noise`).
    pub noise: bool,
}

/// One measured row.
struct Row {
    model: String,
    what: &'static str,
    n: usize,
    threads: usize,
    rounds: Vec<f64>,
}

pub fn bench(args: &BenchArgs, device: &Device) -> Result<ExitCode, String> {
    let weights = if args.weights.is_empty() { shipped_gram_weights()? } else { args.weights.clone() };
    println!("# native-trainer bench: burn 0.22.1, flex backend (third_party/burn-flex patch), {}", cpu_name());
    println!("| model | what | N | threads | best ms | median ms | spread | best ms per trajectory |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut tables = Vec::new();
    for &threads in &args.threads {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?;
        for path in &weights {
            let rows = pool.install(|| model_rows(path, threads, args, device))?;
            for row in rows {
                print_row(&row);
                tables.push(row);
            }
        }
    }
    if args.noise {
        for row in noise_rows(args, device)? {
            print_row(&row);
            tables.push(row);
        }
    }
    for row in &tables {
        let (best, median, spread) = summary(&row.rounds);
        println!(
            "TABLE bench impl=burn model={} what={} n={} threads={} best_ms={best:.3} median_ms={median:.3} spread={spread:.1}% repeats={}",
            row.model,
            row.what,
            row.n,
            row.threads,
            row.rounds.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn model_rows(path: &Path, threads: usize, args: &BenchArgs, device: &Device) -> Result<Vec<Row>, String> {
    let (model, config, manifest) = load_weights(path, device)?;
    let name = manifest.as_ref().map(|m| m.name.clone()).unwrap_or_else(|| path.display().to_string());
    let mut rows = Vec::new();
    if args.sample {
        let puzzle = visit(task_of(&config, named_task(path, manifest.as_ref()).as_deref())?, FirstTestPuzzle)?;
        for &n in &args.samples {
            let rounds = (0..args.repeats).map(|_| time_sampling(&model, &puzzle, n, args.iters, device)).collect();
            rows.push(Row { model: name.clone(), what: "sample", n, threads, rounds });
        }
    }
    let preset_name = manifest.as_ref().and_then(|m| preset_in(&m.training_command));
    if let (true, Some(p)) = (args.train, preset_name.and_then(preset)) {
        let batch = p.batch;
        let times = time_steps(p, 1, args.repeats * args.iters, device)?;
        let rounds = times.chunks(args.iters).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect();
        rows.push(Row { model: name, what: "train", n: batch, threads, rounds });
    }
    Ok(rows)
}

/// A training step's noise, T draws of `[B, L, D]` (GRAM's posterior draws), at the browser
/// preset's batch and at the full-size preset's batches 8 and 768, on every thread of the pool:
/// the sequential generator, uploaded (`NoiseSource::new`), against the counter-based one drawn
/// on the device (`NoiseSource::on_device`, what training uses). One row each, ms per step.
fn noise_rows(args: &BenchArgs, device: &Device) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    let threads = rayon::current_num_threads();
    for (name, batch) in [("gram-nqueens8-mixer", None), ("gram-nqueens8-full", Some(8)), ("gram-nqueens8-full", Some(768))] {
        let p = preset(name).ok_or_else(|| format!("no preset {name}"))?;
        let (b, c) = (batch.unwrap_or(p.batch), &p.config);
        let shape = [b, c.latent_len(), c.d_model];
        for (what, on_device) in [("noise-sequential", false), ("noise-counter", true)] {
            let draw = |seed: u64| {
                let mut source = if on_device { NoiseSource::on_device(seed) } else { NoiseSource::new(seed) };
                let began = Instant::now();
                for _ in 0..c.t_outer {
                    let t = source.tensor(shape, device);
                    std::hint::black_box(t);
                }
                began.elapsed().as_secs_f64() * 1000.0
            };
            draw(0);
            let rounds = (0..args.repeats)
                .map(|r| (0..args.iters).map(|i| draw(1 + (r * args.iters + i) as u64)).sum::<f64>() / args.iters as f64)
                .collect();
            rows.push(Row { model: name.to_string(), what, n: b, threads, rounds });
        }
    }
    Ok(rows)
}

/// ms per supervision step over `iters` steps of N trajectories, after one warm-up step.
fn time_sampling(model: &Gram, puzzle: &[u32], n: usize, iters: usize, device: &Device) -> f64 {
    let options = SampleOptions { samples: n, max_steps: iters + 1, halting: false, ..SampleOptions::default() };
    let mut t = Trajectories::new(model, std::slice::from_ref(&puzzle.to_vec()), options, device);
    t.step();
    let began = Instant::now();
    for _ in 0..iters {
        t.step();
    }
    began.elapsed().as_secs_f64() * 1000.0 / iters as f64
}

fn print_row(row: &Row) {
    let (best, median, spread) = summary(&row.rounds);
    let per = if row.what == "sample" { format!("{:.3}", best / row.n as f64) } else { String::new() };
    println!("| {} | {} | {} | {} | {best:.2} | {median:.2} | {spread:.1}% | {per} |", row.model, row.what, row.n, row.threads);
}

/// (best, median, spread in %) of the rounds' ms per step.
fn summary(rounds: &[f64]) -> (f64, f64, f64) {
    let mut sorted = rounds.to_vec();
    sorted.sort_by(f64::total_cmp);
    let (best, median) = (sorted[0], sorted[sorted.len() / 2]);
    (best, median, 100.0 * (median - best) / best)
}

/// The preset a manifest's training command launched (`--preset NAME`, its first command).
fn preset_in(command: &str) -> Option<&str> {
    let mut words = command.split_whitespace();
    words.find(|w| *w == "--preset")?;
    words.next()
}

/// Every shipped weights file whose manifest is a GRAM/TRM one, by name.
fn shipped_gram_weights() -> Result<Vec<PathBuf>, String> {
    let dir = Path::new("public/weights");
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("{}: {e} (run from the repository root, or pass --weights)", dir.display()))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bpk"))
        .filter(|p| {
            let manifest = std::fs::read_to_string(p.with_extension("json")).unwrap_or_default();
            serde_json::from_str::<serde_json::Value>(&manifest).is_ok_and(|m| matches!(m["model"].as_str(), Some("gram" | "trm")))
        })
        .collect();
    found.sort();
    Ok(found)
}

fn cpu_name() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let name = info.lines().find_map(|l| l.strip_prefix("model name")).map(|l| l.trim_start_matches([' ', '\t', ':']));
    format!("{} ({} logical CPUs)", name.unwrap_or("unknown CPU"), std::thread::available_parallelism().map_or(0, |n| n.get()))
}

/// The tokens of the task's first test puzzle.
struct FirstTestPuzzle;

impl TaskVisitor for FirstTestPuzzle {
    type Output = Result<Vec<u32>, String>;

    fn gram<T: TokenTask>(self, task: &T) -> Self::Output {
        Ok(task.tokens(task.puzzle_of(&task.instances(Part::Test)[0])))
    }

    fn other<T: Task>(self, task: &T) -> Self::Output {
        Err(format!("bench measures GRAM/TRM weights; {} has none", task.id()))
    }
}
