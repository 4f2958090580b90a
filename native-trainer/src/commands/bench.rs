//! `bench`: the sampling step's cost at N = 1, 5, 20, 64 trajectories of one puzzle, as ms and
//! as ratios measured in one run.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use burn::tensor::Device;
use engine::gram::{SampleOptions, Trajectories};
use engine::tasks::{Part, Task, TokenTask};

use super::sampling::task_of;
use engine::tasks::registry::{TaskVisitor, visit};
use crate::weights_io::load_weights;

pub fn bench(weights: &Path, repeats: usize, device: &Device) -> Result<ExitCode, String> {
    let (model, config, _) = load_weights(weights, device)?;
    let puzzle = visit(task_of(&config)?, FirstTestPuzzle)?;
    println!("| what | batch | ms per supervision step | ratio to N=1 |");
    println!("| --- | --- | --- | --- |");
    let mut base = 0.0;
    for samples in [1usize, 5, 20, 64] {
        let options = SampleOptions { samples, max_steps: 4, halting: false, ..SampleOptions::default() };
        let mut best = f64::MAX;
        for _ in 0..repeats.max(1) {
            let mut t = Trajectories::new(&model, std::slice::from_ref(&puzzle), options.clone(), device);
            t.step(); // warm-up
            let began = Instant::now();
            for _ in 0..3 {
                t.step();
            }
            best = best.min(began.elapsed().as_secs_f64() * 1000.0 / 3.0);
        }
        if samples == 1 {
            base = best;
        }
        println!("| sample N={samples} (1 puzzle) | {samples} | {best:.1} | {:.2} |", best / base);
    }
    Ok(ExitCode::SUCCESS)
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
