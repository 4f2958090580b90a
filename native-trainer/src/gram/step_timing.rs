//! The bench's training step (`native-trainer bench --what train`): `train`'s own step on a
//! fresh initialisation, timed, with nothing written.

use std::path::PathBuf;

use burn::tensor::Device;

use crate::gram::data::TrainData;
use crate::gram::presets::Preset;
use crate::gram::train::{Flags, TrainArgs, start, train_step};
use crate::run::course::{DATA, step_rng};
use engine::training::batch::InFlight;

/// The bench's training step: `warmup` untimed then `timed` timed optimiser steps of `preset`
/// from a fresh initialisation, exactly as `train` runs them (nothing is written); ms per timed
/// step. Sudoku draws from a small pool: a step's cost does not depend on the pool's size.
pub fn time_steps(preset: Preset, warmup: usize, timed: usize, device: &Device) -> Result<Vec<f64>, String> {
    let ad = device.clone().autodiff();
    let data = match preset.task.ok_or_else(|| format!("{} trains on an import; nothing to bench", preset.name))? {
        engine::tasks::TaskId::Sudoku => {
            TrainData::sudoku(256, engine::tasks::sudoku::PoolSpec::plain(crate::gram::data::SUDOKU_TRAIN_GIVENS), 1, 0)
        }
        task => TrainData::new(task, 0, None, false)?,
    };
    let args = TrainArgs {
        preset,
        flags: Flags::default(),
        run_dir: PathBuf::from("runs/bench-unused"),
        resume: false,
        init_from: None,
        eval_every: 0,
        eval_inputs: 0,
        checkpoint_every: usize::MAX,
        log_every: usize::MAX,
        stop_after: None,
        command: String::new(),
    };
    let mut run = start(&args, &ad)?;
    let mut batch = InFlight::fresh(&run.learner.model, &data, args.preset.batch, run.state.config.seq_len, &mut step_rng(0, 0, DATA));
    let mut times = Vec::with_capacity(timed);
    for i in 0..warmup + timed {
        let began = std::time::Instant::now();
        train_step(&mut run, &mut batch, &data, std::slice::from_ref(&ad), &args.run_dir)?;
        if i >= warmup {
            times.push(began.elapsed().as_secs_f64() * 1000.0);
        }
    }
    Ok(times)
}
