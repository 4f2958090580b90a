//! The task interface. A task is a folder under `tasks/` that implements [`Task`] (its text
//! format, exact oracle and split rule) and, when a GRAM/TRM model solves it, [`TokenTask`]
//! (tokens in and out, its metrics, its measured inference defaults). The solve and eval path
//! (the `solve` module) is written once over these traits; the models (`gram`, `reasoner`, `lm`,
//! `nn`) know no task.

use std::collections::BTreeMap;

use super::copy_maker::CopyMaker;
use super::error::PuzzleError;
use super::import_format::ImportFormat;
use super::inference::InferenceDefaults;
use super::recipe::{TaskRecipe, Variant};
use super::split::Part;
use super::test_import::TestImport;
use crate::gram::noise::NoiseSource;
use crate::gram::{Observation, Selection, lprm_select, q_select};

/// The samples of one puzzle and the selected one, for any task.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved<A> {
    /// One answer per trajectory.
    pub samples: Vec<A>,
    /// LPRM value of each sample.
    pub values: Vec<f32>,
    /// Halting (Q-head) logit of each sample at the last step.
    pub halt_logits: Vec<f32>,
    /// Index into `samples` of the selected answer.
    pub selected: usize,
    /// The majority vote's answer after each supervision step (the eval's accuracy-by-step).
    pub vote_by_step: Vec<A>,
    /// Every sample's answer after each supervision step (`[step][sample]`): what the GRAM paper's
    /// Figure 4 reads (the vote of the first N samples after s steps).
    pub samples_by_step: Vec<Vec<A>>,
    /// Supervision steps taken.
    pub steps: usize,
}

impl<A> Solved<A> {
    /// The selected answer.
    pub fn selected(&self) -> &A {
        &self.samples[self.selected]
    }

    /// The answer `select` picks among the last step's samples (the vote's is the last entry of
    /// `vote_by_step`), whichever selection chose `selected`.
    pub fn picked(&self, select: Selection) -> &A {
        match select {
            Selection::Vote => self.vote_by_step.last().unwrap_or(&self.samples[0]),
            Selection::Lprm => &self.samples[lprm_select(&self.values)],
            Selection::Q => &self.samples[q_select(&self.halt_logits)],
        }
    }
}

/// What every task provides: its text format, its exact oracle and its split rule.
pub trait Task: Sync {
    /// What a line of input is, parsed.
    type Puzzle: Clone + Send + Sync;
    /// What a model answers.
    type Answer: Clone + PartialEq + Send + Sync;
    /// A puzzle with what its oracle knows (all completions, the unique solution, the route).
    type Instance: Clone + Send + Sync + 'static;

    /// The task's id on the command line and in manifests (`nqueens8`, `sudoku`, `tree`).
    fn id(&self) -> String;
    /// Reads one line of the text format. Malformed text and puzzles the oracle proves unsolvable
    /// are readable errors, never a panic.
    fn parse(&self, text: &str) -> Result<Self::Puzzle, PuzzleError>;
    /// The text format of a puzzle (what `split` prints; `parse` reads it back).
    fn puzzle_text(&self, puzzle: &Self::Puzzle) -> String;
    /// The text format of an answer.
    fn answer_text(&self, answer: &Self::Answer) -> String;
    /// The rule check: `answer` answers `puzzle` (needs no stored solution).
    fn is_valid(&self, puzzle: &Self::Puzzle, answer: &Self::Answer) -> bool;
    /// The documented split: a pure function of the puzzle's text.
    fn part_of(&self, puzzle: &Self::Puzzle) -> Part;
    /// The instances of one part of the split, in a fixed order.
    fn instances(&self, part: Part) -> Vec<Self::Instance>;
    /// The puzzle of an instance.
    fn puzzle_of<'a>(&self, instance: &'a Self::Instance) -> &'a Self::Puzzle;
}

/// A task a GRAM/TRM model solves: tokens in, tokens out, scored by the task's metrics.
pub trait TokenTask: Task + Clone + Send + 'static {
    /// The task's metrics, accumulated one solved instance at a time.
    type Report: Report;

    /// A puzzle as input tokens.
    fn tokens(&self, puzzle: &Self::Puzzle) -> Vec<u32>;
    /// A model's predicted tokens as an answer (always an answer; `is_valid` judges it).
    fn answer_from_prediction(&self, tokens: &[u32]) -> Self::Answer;
    /// Input tokens back as the puzzle (`None` when they are not one).
    fn puzzle_from_tokens(&self, tokens: &[u32]) -> Option<Self::Puzzle>;
    /// The target tokens of every answer the oracle lists for `instance` (Sudoku: its one
    /// solution): what training pairs the input with.
    fn targets(&self, instance: &Self::Instance) -> Vec<Vec<u32>>;
    /// Training's reward: `prediction` (tokens) is a right answer to the input tokens `x`.
    fn is_right_prediction(&self, x: &[u32], prediction: &[u32]) -> bool {
        self.puzzle_from_tokens(x).is_some_and(|p| self.is_valid(&p, &self.answer_from_prediction(prediction)))
    }
    /// How one answer is picked among N samples by default (measured per task; docs/results/).
    fn default_selection(&self) -> Selection;
    /// The default fraction of the step budget run on the mean path at the end (docs/results/nqueens.md).
    fn default_settle(&self) -> f64;
    /// How a visitor's run samples when nothing is set: the page's defaults and `solve`'s.
    /// The GRAM paper's sampler unless a task measured better on its validation part.
    fn inference_defaults(&self) -> InferenceDefaults {
        InferenceDefaults::PAPER
    }
    /// An empty report for `samples` samples per input.
    fn new_report(&self, samples: usize) -> Self::Report;
    /// Scores one solved instance.
    fn score(&self, report: &mut Self::Report, instance: &Self::Instance, solved: &Solved<Self::Answer>);
    /// Puzzles per batch in `eval`. A puzzle's samples depend on its position in its batch (the
    /// noise stream restarts per batch), so this is fixed per task and recorded numbers reproduce.
    fn eval_batch(&self) -> usize;
    /// The row of a per-group table an instance belongs to (Sudoku: its band; N-Queens: queens
    /// removed), as (order, label); one group by default.
    fn group_of(&self, _instance: &Self::Instance) -> (usize, String) {
        (0, "all".into())
    }
    /// How the task trains: its shipped pair's network, batch and steps, and the paper's full
    /// size (the trainer's presets for this task are made from it).
    fn recipe(&self) -> TaskRecipe;
    /// Other networks trained by the same task's recipe, for an architecture comparison (the
    /// trainer's `gram-<task>-<suffix>` and `trm-<task>-<suffix>` presets); none by default.
    fn variants(&self) -> Vec<Variant> {
        Vec::new()
    }
    /// A test set from elsewhere that `eval --data` scores (`super::test_import`); none by default.
    fn test_import(&self) -> Option<TestImport<Self::Instance>> {
        None
    }
    /// Files from elsewhere that `data import --format NAME` writes as an import directory
    /// (`super::import_format`); none by default.
    fn import_format(&self) -> Option<ImportFormat> {
        None
    }
    /// The hardest `hardest_of`-th of a rated pool of `part`, which `eval --hardest-of` scores;
    /// none for a task without ratings.
    fn rated_set(&self, _part: Part, _hardest_of: usize) -> Option<Vec<Self::Instance>> {
        None
    }
    /// `train --augment`: a random copy of the training pair (input `x`, answer `y`) whose answers
    /// are exactly the copied answers, so the answer set stays exact, and whose input falls in the
    /// train part; `None` where the task has no such copy (or this draw's copy left the part).
    fn augment(&self, _x: &[u32], _y: &[u32], _rng: &mut NoiseSource) -> Option<(Vec<u32>, Vec<u32>)> {
        None
    }
    /// A random answer-preserving copy of the input `x` for a verified run's restart, with the
    /// map back to `x`'s frame ([`crate::tasks::InputCopy`]); `None` where the task has none
    /// (its restarts rerun `x` with fresh noise).
    fn restart_copy(&self, _x: &[u32], _rng: &mut NoiseSource) -> Option<crate::tasks::InputCopy> {
        None
    }
    /// Which of [`Self::augment`] and [`Self::restart_copy`] the task makes, named for the
    /// sentences that list such tasks (`super::copy_maker`); `None` (the default) for neither.
    fn copy_maker(&self) -> Option<CopyMaker> {
        None
    }
    /// The probabilities the page shades trajectory `row`'s answer with after the step `obs`,
    /// flat in the task's order (N-Queens: P(queen) per cell; Sudoku: P(digit 1..9) per cell).
    fn shading(&self, obs: &Observation, row: usize) -> Vec<f32>;
    /// What one puzzle is called in an error (`bad board: ...`).
    fn puzzle_noun(&self) -> &'static str {
        "input"
    }
    /// What the eval lines call one input (`inputs`, `puzzles`).
    fn input_noun(&self) -> &'static str {
        "inputs"
    }
    /// A further named set scored and reported after the split (Sudoku: the famous hardest
    /// puzzles); none by default.
    fn supplementary(&self) -> Option<(String, Vec<Self::Instance>)> {
        None
    }
}

/// A task's metrics as the evaluation shows and records them.
pub trait Report: Clone + Send {
    /// Inputs scored so far.
    fn inputs(&self) -> usize;
    /// The running figures while an evaluation goes (`accuracy 99.10%  coverage@20 97.00%`).
    fn progress(&self) -> String;
    /// The tables printed at the end.
    fn to_text(&self) -> String;
    /// The machine-readable summary line (`TABLE1 accuracy=.. coverage@20=..`).
    fn table_line(&self) -> String;
    /// One sentence on a small supplementary set (`solved by the vote 1 of 3, ...`).
    fn brief(&self) -> String;
    /// (accuracy, coverage or solved-by-any, further named figures) for the manifest's record.
    fn record(&self) -> (f64, f64, BTreeMap<String, f64>);
    /// The figures behind the tables as CSV (`eval --csv`), where the task has them.
    fn figures_csv(&self) -> Option<String> {
        None
    }
}
