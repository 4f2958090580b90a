//! The documented split of the tree task and its fixed sets.

use super::TreeTask;
use crate::gram::noise::NoiseSource;
use crate::tasks::split::{Part, fnv1a64};

/// The documented split: held out iff FNV-1a-64 of [`TreeTask::input_text`] is `< 15` mod 100.
pub fn part_of(task: &TreeTask) -> Part {
    if fnv1a64(&task.input_text()) % 100 < 15 { Part::Test } else { Part::Train }
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

/// The train part has no end (training draws fresh trees): a fixed sample of `n` train-part
/// tasks, what `split --part train` prints.
pub fn train_sample(n: usize) -> Vec<TreeTask> {
    let mut rng = NoiseSource::new(0x7e1);
    (0..n).map(|_| draw(&mut rng, Part::Train)).collect()
}
