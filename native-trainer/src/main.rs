//! `native-trainer`: train, evaluate, solve, export and benchmark the playground's models.
//! Text contracts (other tools read them): see README.md, "Command-line contracts".
//! Layout: `docs/ARCHITECTURE.md`.

mod cli;
mod commands;
mod data;
mod format;
mod jepa_train;
mod lines;
mod presets;
mod registry;
mod train;
mod weights_io;

use std::path::PathBuf;
use std::process::ExitCode;

use burn::tensor::Device;
use clap::Parser;

use cli::{Backend, Cli, Command, TrainFlags};
use commands::eval::EvalArgs;
use commands::solve::SolveArgs;

fn device_for(backend: Backend) -> Result<Device, String> {
    match backend {
        Backend::Flex => Ok(Device::flex()),
        #[cfg(feature = "wgpu")]
        Backend::Wgpu => Ok(Device::wgpu(burn::tensor::DeviceKind::DefaultDevice)),
        #[cfg(not(feature = "wgpu"))]
        Backend::Wgpu => Err("this binary was built without the `wgpu` feature; rebuild with \
             `cargo build --release -p native-trainer --features wgpu`"
            .into()),
    }
}

/// `train`: a JEPA phase or a GRAM/TRM preset.
fn run_train(t: TrainFlags, command: String, device: Device) -> Result<ExitCode, String> {
    if let Some(p) = jepa_train::jepa_preset(&t.preset) {
        let args = jepa_train::JepaTrainArgs {
            steps: t.steps.unwrap_or(p.steps),
            run_dir: t.run_dir.unwrap_or_else(|| PathBuf::from("runs").join(p.name)),
            preset: p,
            seed: t.seed,
            from_dir: t.from,
            resume: t.resume,
            eval_every: t.eval_every,
            eval_inputs: t.eval_inputs,
            checkpoint_every: t.checkpoint_every.max(1),
            log_every: t.log_every.max(1),
            command,
        };
        return jepa_train::train_jepa(args, device).map(|_| ExitCode::SUCCESS);
    }
    let mut p = presets::preset(&t.preset).ok_or_else(|| {
        format!("unknown preset {:?}; presets: {}, {}", t.preset, presets::NAMES.join(", "), jepa_train::JEPA_NAMES.join(", "))
    })?;
    if let Some(beta) = t.beta {
        p.config.beta = beta;
    }
    if let Some(lr) = t.lr {
        p.lr = lr;
    }
    if !(0.0..1.0).contains(&t.ema) {
        return Err(format!("--ema must be in [0, 1), not {}", t.ema));
    }
    let args = train::TrainArgs {
        steps: t.steps.unwrap_or(p.steps),
        run_dir: t.run_dir.unwrap_or_else(|| PathBuf::from("runs").join(p.name)),
        preset: p,
        seed: t.seed,
        resume: t.resume,
        eval_every: t.eval_every,
        eval_inputs: t.eval_inputs,
        checkpoint_every: t.checkpoint_every.max(1),
        log_every: t.log_every.max(1),
        command,
        ema_decay: t.ema,
        init_from: t.init_from,
    };
    train::train(args, device).map(|_| ExitCode::SUCCESS)
}

fn run(command: Command, command_line: String, device: Device) -> Result<ExitCode, String> {
    match command {
        Command::Train(flags) => run_train(flags, command_line, device),
        Command::Eval { weights, sampling, limit, part, record, latent_noise } => {
            let args = EvalArgs {
                weights: &weights,
                options: sampling.options(),
                settle: sampling.settle,
                limit,
                part: &part,
                record,
                latent_noise,
                command: &command_line,
            };
            commands::eval::eval(args, &device)
        }
        Command::Split { task, part } => commands::split::split(&task, &part),
        Command::Solve { weights, task, sampling, select, latent_noise } => {
            let args = SolveArgs {
                weights: &weights,
                task: task.as_deref(),
                options: sampling.options(),
                settle: sampling.settle,
                select: &select,
                latent_noise,
            };
            commands::solve::solve(args, &device)
        }
        Command::Export { run_dir, name, out_dir } => commands::export::export(run_dir, &name, &out_dir, &device),
        Command::Demo { samples, puzzles, seed } => commands::demo::demo(samples, puzzles, seed, &device),
        Command::Bench { weights, repeats } => commands::bench::bench(&weights, repeats, &device),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Recorded in checkpoints and manifests: the program name, not this machine's path to it.
    let command_line =
        std::iter::once("native-trainer".to_string()).chain(std::env::args().skip(1)).collect::<Vec<_>>().join(" ");
    match device_for(cli.backend).and_then(|device| run(cli.command, command_line, device)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
