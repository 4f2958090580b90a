//! `record --task train`: `/train`'s recorded run, GRAM and TRM trained from fresh weights on
//! the page's task, at its width, cadence and length, by the page's own code
//! (`engine::training::recorded`). The page opens on it and a visitor's Train computes it again.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use burn::tensor::Device;
use engine::tasks::registry::LEARNABLE;
use engine::training::recorded::{PAGE_CADENCE, PAGE_WIDTHS, Recording, record_training};

pub struct TrainArgs<'a> {
    pub seed: u64,
    pub width: usize,
    pub steps: usize,
    pub out: &'a Path,
}

pub fn record_train(args: TrainArgs, device: &Device) -> Result<ExitCode, String> {
    if !PAGE_WIDTHS.contains(&args.width) || !(1..=100_000).contains(&args.steps) {
        return Err(format!("--width is 32 or 64 and --steps 1 to 100000 (got {}, {})", args.width, args.steps));
    }
    let task = LEARNABLE[0];
    let started = Instant::now();
    let clock = || started.elapsed().as_secs_f64() * 1000.0;
    let mut progress = |guidance: bool, r: &engine::training::curve::Reported| {
        if let Some((a, c)) = r.point.held_out.filter(|_| r.point.step.is_multiple_of(250)) {
            let name = if guidance { "GRAM" } else { "TRM" };
            eprintln!(
                "{name} step {}: loss {:.3}, held out {a:.0}% valid, coverage {c:.0}% ({:.0} s)",
                r.point.step,
                r.point.loss,
                clock() / 1000.0
            );
        }
    };
    let what = Recording { task, seed: args.seed, width: args.width, steps: args.steps, cadence: PAGE_CADENCE };
    let run = record_training(what, device, &clock, &mut progress)?;
    let text = serde_json::to_string(&run).map_err(|e| format!("cannot write the run as JSON: {e}"))?;
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(args.out, &text).map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    let last = |curve: &[engine::training::curve::CurvePoint]| curve.iter().rev().find_map(|p| p.held_out).unwrap_or((0.0, 0.0));
    let (g, t) = (last(&run.gram), last(&run.trm));
    eprintln!(
        "recorded /train ({}, seed {}, width {}): {} steps each; held out at the end: GRAM {:.0}% valid, coverage {:.0}%; TRM {:.0}% valid, coverage {:.0}% -> {} ({} bytes, {:.0} s)",
        run.task,
        run.seed,
        run.width,
        run.steps,
        g.0,
        g.1,
        t.0,
        t.1,
        args.out.display(),
        text.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
