//! The documented split of the tree task and its fixed sets.

use super::TreeTask;
use crate::gram::noise::NoiseSource;
use crate::tasks::split::{Part, fnv1a64};

/// The documented split, on FNV-1a-64 of [`TreeTask::input_text`] mod 100: test iff `< 15`,
/// validation iff in `15..20`, train otherwise.
pub fn part_of(task: &TreeTask) -> Part {
    match fnv1a64(&task.input_text()) % 100 {
        0..15 => Part::Test,
        15..20 => Part::Validation,
        _ => Part::Train,
    }
}

/// A random task from one part of the split (rejection sampling over [`TreeTask::random`]).
pub fn draw(rng: &mut NoiseSource, part: Part) -> TreeTask {
    loop {
        let t = TreeTask::random(rng);
        if part_of(&t) == part {
            return t;
        }
    }
}

/// The held-out set: `n` test-part tasks from a fixed seed. A pure function of `n`.
pub fn test_set(n: usize) -> Vec<TreeTask> {
    let mut rng = NoiseSource::new(0x7433_0000);
    (0..n).map(|_| draw(&mut rng, Part::Test)).collect()
}

/// The validation set: `n` validation-part tasks from another fixed seed. A pure function of `n`.
pub fn validation_set(n: usize) -> Vec<TreeTask> {
    let mut rng = NoiseSource::new(0x7a11_0000);
    (0..n).map(|_| draw(&mut rng, Part::Validation)).collect()
}

/// The train part has no end (training draws fresh trees): a fixed sample of `n` train-part
/// tasks, what `split --part train` prints.
pub fn train_sample(n: usize) -> Vec<TreeTask> {
    let mut rng = NoiseSource::new(0x7e1);
    (0..n).map(|_| draw(&mut rng, Part::Train)).collect()
}
