//! `native-trainer`: train, evaluate, solve, export and benchmark the playground's models.
//! This file parses the command line (`cli.rs`), picks the devices (`gpu.rs`) and dispatches:
//! `train` to its family's loop through `train_cli.rs`, the others to `commands/` (`grammar` and
//! `ceiling` to the grammar study's `grammar/commands.rs`).
//! Text contracts (other tools read them): see docs/cli.md.
//! Layout: `docs/ARCHITECTURE.md`.

mod cli;
mod commands;
mod convert_args;
mod gpu;
mod gram;
mod grammar;
mod lines;
mod lm;
mod reasoner;
mod run;
mod sampling_args;
mod train_cli;
mod utf8;
mod weights_io;

use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: burn-flex allocates a fresh buffer per op, and glibc
/// serves buffers over its mmap threshold with mmap/munmap, so every step paid page faults and
/// page clearing (~18% of a sampling step in a profile). mimalloc reuses them: sampling at
/// N=20 went from 58 to 39 ms per step (docs/speed.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its index in mimalloc.h's `mi_option_e`, the same in
/// mimalloc v2 and v3; the crate does not export the name). A test below checks it.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Never hand freed memory back to the OS. By default mimalloc (v3) decommits memory about a
/// second after it is freed, and a training step frees and reallocates hundreds of MiB of activations:
/// each step then faulted its memory back in, the kernel zeroing every (transparent huge)
/// page: 130,000 page faults and ~7% of a `gram-nqueens8` training step (bench, 1 thread).
/// The cost is that the process keeps its peak footprint (~0.7 GB for that training run).
fn keep_freed_memory() {
    // SAFETY: sets one integer option; mimalloc reads options at each purge decision.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

use burn::tensor::Device;

use cli::{Cli, Command, DataCommand};
use commands::bench::BenchArgs;
use commands::solve::SolveArgs;

fn run(command: Command, command_line: String, device: Device) -> Result<ExitCode, String> {
    match command {
        Command::Train(_) => unreachable!("main runs train with its devices"),
        Command::Data { command: DataCommand::Import(args) } => commands::import::import(&args),
        Command::Eval(args) => commands::eval::eval_all(args, &command_line, &device),
        Command::Split { task, part, hardest_of } => commands::split::split(&task, &part, hardest_of.map(|k| k as usize)),
        Command::Solve { weights, task, sampling, select, latent_noise, model, corrupt } => {
            let args = SolveArgs {
                weights: &weights,
                task: task.as_deref(),
                sampling: &sampling,
                select: &select,
                latent_noise,
                model: &model,
                corrupt,
            };
            commands::solve::solve(args, &device)
        }
        Command::Generate { weights, samples, steps, seed, guidance_scale } => {
            let options = engine::gram::SampleOptions { samples, max_steps: steps, seed, guidance_scale, ..Default::default() };
            commands::generate::generate(&weights, options, &device)
        }
        command @ Command::Record { .. } => record(command, &device),
        Command::Grammar { weights } => grammar::commands::grammar(&weights, &device),
        Command::Ceiling { variant, part, limit, seed } => grammar::commands::ceiling(&variant, &part, limit, seed),
        Command::Noise { seed, draw, count, out } => commands::noise::noise(seed, draw, count, out.as_deref(), &device),
        Command::Classifier { out, steps, seed } => commands::classifier::train_classifier(&out, steps, seed, &device),
        Command::Convert { weights, out, from, trm } => commands::convert::convert(&weights, &out, from, &trm, &command_line, &device),
        Command::Export { run_dir, name, out_dir } => commands::export::export(run_dir, &name, &out_dir, &device),
        Command::Demo { samples, puzzles, seed } => commands::demo::demo(samples, puzzles, seed, &device),
        Command::Bench { weights, bench_threads, samples, repeats, iters, what } => {
            let has = |w: &str| what.iter().any(|x| x == w);
            let args = BenchArgs {
                weights,
                threads: bench_threads,
                samples,
                repeats: repeats.max(1),
                iters: iters.max(1),
                sample: has("sample"),
                train: has("train"),
                noise: has("noise"),
            };
            commands::bench::bench(&args, &device)
        }
    }
}

/// `record`: a page's run from GRAM/TRM, tree or grammar weights, or `/jepa`'s training.
fn record(command: Command, device: &Device) -> Result<ExitCode, String> {
    let Command::Record {
        weights,
        puzzle,
        task,
        samples,
        steps,
        seed,
        guidance_scale,
        stop_restarts,
        latent_noise,
        sequence,
        corrupt,
        lambda,
        k,
        width,
        out,
    } = command
    else {
        unreachable!("run hands record only its own command")
    };
    match (task, weights) {
        // clap allows only `jepa` and `train`, and none of the weights' flags beside them.
        (Some(task), _) if task == "train" => {
            if lambda.is_some() || k.is_some() {
                return Err("--lambda and --k are /jepa's; --task train takes --seed, --width and --steps".into());
            }
            let args = commands::record_train::TrainArgs {
                seed,
                width: width.unwrap_or(64),
                steps: steps.unwrap_or(engine::training::recorded::PAGE_STEPS),
                out: &out,
            };
            commands::record_train::record_train(args, device)
        }
        (Some(_), _) => {
            if width.is_some() {
                return Err("--width is /train's; --task jepa takes --lambda, --k, --seed and --steps".into());
            }
            let args = commands::record::JepaArgs {
                lambda: lambda.unwrap_or(1.0),
                k: k.unwrap_or(1),
                seed,
                steps: steps.unwrap_or(commands::record::JEPA_STEPS),
                out: &out,
            };
            commands::record::record_jepa(args, device)
        }
        (None, Some(weights)) => {
            let args = commands::record::RecordArgs {
                weights: &weights,
                puzzle: puzzle.as_deref(),
                samples,
                steps,
                seed,
                guidance_scale,
                stop_restarts,
                latent_noise,
                sequence,
                corrupt,
                out: &out,
            };
            commands::record::record(args, device)
        }
        (None, None) => Err("record takes --weights W, --task jepa or --task train".into()),
    }
}

fn main() -> ExitCode {
    keep_freed_memory();
    let matches = <Cli as clap::CommandFactory>::command().get_matches();
    let cli = <Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // Which of train's flags were given, so that one no family of the preset takes is refused.
    let given = matches.subcommand_matches("train").map(train_cli::given_flags).unwrap_or_default();
    // Recorded in checkpoints and manifests: the program name, not this machine's path to it.
    let command_line = std::iter::once("native-trainer".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
    // The whole command runs on a worker of the thread pool burn-flex parallelises on: called
    // from outside the pool, every parallel op would hand its work to a pool thread and wait for
    // a wake-up (measured: sampling at N=5 1.5x slower on one thread than without the pool).
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(cli.threads).build() {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("error: cannot start {} CPU threads: {e}", cli.threads);
            return ExitCode::from(2);
        }
    };
    let (backend, allow_software, command) = (cli.backend, cli.allow_software_gpu, cli.command);
    let n = match &command {
        Command::Train(flags) => flags.devices,
        _ => 1,
    };
    // A GPU's name follows the command wherever the command is recorded (checkpoints, manifests).
    let go = |(devices, hardware): (Vec<Device>, gpu::Hardware)| {
        let command_line = match hardware {
            Some(on) => format!("{command_line} # on {on}"),
            None => command_line,
        };
        match command {
            Command::Train(flags) => train_cli::train(flags, &given, command_line, devices),
            command => run(command, command_line, devices[0].clone()),
        }
    };
    match pool.install(|| gpu::devices_for(backend, n, allow_software).and_then(go)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod allocator_tests {
    use super::MI_OPTION_PURGE_DELAY;

    /// The index names the option it should: mimalloc v3 (what libmimalloc-sys builds without
    /// its `v2` feature) defaults purge_delay to 1000 ms and its neighbours to 1
    /// (deprecated_eager_commit_delay) and 0 (use_numa_nodes).
    #[test]
    fn the_purge_delay_index_names_purge_delay() {
        // SAFETY: reads integer options.
        let (before, it, after) = unsafe {
            (
                libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY - 1),
                libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY),
                libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY + 1),
            )
        };
        assert_eq!((before, it, after), (1, 1000, 0));
    }
}
