//! The digits task: the one input is the blank image; answers are digits, any image is one.

use super::data::{self, Digit};
use super::error::DigitsError;
use super::report::DigitsReport;
use super::{BLACK, PIXELS, WHITE};
use crate::gram::{Observation, Selection};
use crate::tasks::{Part, PuzzleError, Solved, Task, TaskRecipe, TokenTask};

/// Unconditional binarized MNIST digits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Digits;

/// The instance of a part: the blank input with that part's real digits.
#[derive(Clone, Debug, PartialEq)]
pub struct DigitSet {
    pub blank: Digit,
    pub real: Vec<Digit>,
}

impl Task for Digits {
    type Puzzle = Digit;
    type Answer = Digit;
    type Instance = DigitSet;

    fn id(&self) -> String {
        "digits".into()
    }

    /// The only input is the constant: the blank image.
    fn parse(&self, text: &str) -> Result<Digit, PuzzleError> {
        let digit = Digit::parse(text)?;
        if digit.ink() > 0.0 {
            return Err(DigitsError::NotBlankImage.into());
        }
        Ok(digit)
    }

    fn puzzle_text(&self, puzzle: &Digit) -> String {
        puzzle.to_text()
    }

    fn answer_text(&self, answer: &Digit) -> String {
        answer.to_text()
    }

    /// Every binary 28x28 image is an image: digits have no rule to check (quality is IS/FID).
    fn is_valid(&self, _puzzle: &Digit, _answer: &Digit) -> bool {
        true
    }

    fn part_of(&self, _puzzle: &Digit) -> Part {
        Part::Train
    }

    /// One instance per part: the blank input with the part's digits (`data.rs`, split rule).
    fn instances(&self, part: Part) -> Vec<DigitSet> {
        vec![DigitSet { blank: Digit::blank(), real: data::part(part).into_iter().map(|d| d.digit.clone()).collect() }]
    }

    fn puzzle_of<'a>(&self, instance: &'a DigitSet) -> &'a Digit {
        &instance.blank
    }
}

impl TokenTask for Digits {
    /// p(x) on MNIST (the GRAM paper, section 3.3): the blank image in, a train digit out; the
    /// image path with 7x7 patches ([`super::gram_config`]), 3,000 steps at batch 64.
    fn recipe(&self) -> TaskRecipe {
        TaskRecipe { config: super::gram_config(true), batch: 64, steps: 3000, full: None }
    }

    /// P(white) per pixel.
    fn shading(&self, obs: &Observation, row: usize) -> Vec<f32> {
        (0..PIXELS).map(|c| obs.probability(row, c, WHITE as usize)).collect()
    }

    type Report = DigitsReport;

    fn tokens(&self, puzzle: &Digit) -> Vec<u32> {
        puzzle.pixels.iter().map(|&p| if p { WHITE } else { BLACK }).collect()
    }

    fn answer_from_prediction(&self, tokens: &[u32]) -> Digit {
        Digit { pixels: tokens.iter().map(|&t| t == WHITE).collect() }
    }

    fn puzzle_from_tokens(&self, tokens: &[u32]) -> Option<Digit> {
        (tokens.len() == PIXELS && tokens.iter().all(|&t| t == BLACK)).then(Digit::blank)
    }

    fn targets(&self, instance: &DigitSet) -> Vec<Vec<u32>> {
        instance.real.iter().map(|d| self.tokens(d)).collect()
    }

    /// No rule says a sample is right, so training's reward is always 0: the halting head learns
    /// never to stop early and every trajectory trains its N_sup steps; the LPRM value carries
    /// no meaning for digits.
    fn is_right_prediction(&self, _x: &[u32], _prediction: &[u32]) -> bool {
        false
    }

    fn default_selection(&self) -> Selection {
        Selection::Lprm
    }

    fn default_settle(&self) -> f64 {
        0.0
    }

    fn eval_batch(&self) -> usize {
        1
    }

    fn new_report(&self, samples: usize) -> DigitsReport {
        DigitsReport::new(samples)
    }

    fn score(&self, report: &mut DigitsReport, instance: &DigitSet, solved: &Solved<Digit>) {
        report.add(&solved.samples_by_step, &instance.real);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_input_is_the_blank_image_and_tokens_round_trip() {
        let task = Digits;
        let blank = Digit::blank();
        assert!(task.parse(&blank.to_text()).is_ok());
        let mut one = Digit::blank();
        one.pixels[100] = true;
        assert_eq!(task.parse(&one.to_text()).unwrap_err().reason::<DigitsError>(), Some(&DigitsError::NotBlankImage));
        let rows = task.parse("0101").unwrap_err();
        assert_eq!(rows.reason::<DigitsError>(), Some(&DigitsError::Digit(crate::tasks::digits::DigitError::Rows(1))));
        let x = task.tokens(&blank);
        assert_eq!(task.puzzle_from_tokens(&x), Some(blank));
        assert_eq!(task.puzzle_from_tokens(&task.tokens(&one)), None);
        assert_eq!(task.answer_from_prediction(&task.tokens(&one)), one);
    }
}
