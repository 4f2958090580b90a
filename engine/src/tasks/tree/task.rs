//! Tree route search behind the task interface: the appendix-A text format, the route as the
//! oracle, the split. The JEPA-Reasoner solves it ([`super::reasoner`]), not a GRAM/TRM model,
//! so it implements [`Task`] only; its metrics (exact match by route length, the mixed-latent
//! figures) are [`super::reasoner::TreeEval`].

use super::{TreeTask, part_of, test_set, train_sample, validation_set};
use crate::reasoner::{ReasonerConfig, ReasonerModelConfig, TalkerConfig, TalkerKind};
use crate::tasks::{Part, PuzzleError, Task};

/// Held-out trees `eval` scores and `split --part test` prints.
pub const TEST_TREES: usize = 1000;

/// Route search on random binary trees (the JEPA-Reasoner paper, section 5.1.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trees;

impl Task for Trees {
    type Puzzle = TreeTask;
    /// The route, as letters (`NOMK`).
    type Answer = String;
    type Instance = TreeTask;

    fn id(&self) -> String {
        "tree".into()
    }

    fn parse(&self, text: &str) -> Result<TreeTask, PuzzleError> {
        Ok(TreeTask::parse(text)?)
    }

    fn puzzle_text(&self, puzzle: &TreeTask) -> String {
        puzzle.input_text()
    }

    fn answer_text(&self, answer: &String) -> String {
        answer.clone()
    }

    /// The route from the root down to the target, exactly.
    fn is_valid(&self, puzzle: &TreeTask, answer: &String) -> bool {
        *answer == puzzle.route_text()
    }

    fn part_of(&self, puzzle: &TreeTask) -> Part {
        part_of(puzzle)
    }

    /// The test and validation parts: [`TEST_TREES`] trees each from fixed seeds; the train part
    /// (endless: training draws fresh trees): a fixed sample.
    fn instances(&self, part: Part) -> Vec<TreeTask> {
        match part {
            Part::Test => test_set(TEST_TREES),
            Part::Validation => validation_set(TEST_TREES),
            Part::Train => train_sample(TEST_TREES),
        }
    }

    fn puzzle_of<'a>(&self, instance: &'a TreeTask) -> &'a TreeTask {
        instance
    }
}

/// The tree route-search model shipped with the playground (sized for a CPU; see docs/results/reasoner-trees.md).
pub fn reasoner_config() -> ReasonerModelConfig {
    use super::{MAX_LEN, ROUTE_LATENTS, VOCAB};
    let reasoner = ReasonerConfig::new(VOCAB, MAX_LEN);
    let talker = TalkerConfig::new(TalkerKind::Mono, VOCAB, ROUTE_LATENTS + 1, reasoner.d_model);
    ReasonerModelConfig { reasoner, talker }
}
