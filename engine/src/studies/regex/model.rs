//! The regex task's model: the study's LM (`lm::objective`) over the task's vocabulary, and
//! what reads descriptions and writes regexes.

use burn::tensor::Device;

use super::tokens::{BOS, EOS, PAD, PRED, SEP, Vocab};
pub use crate::lm::objective::{JepaLm, JepaLmConfig, Objective};
use crate::lm::sft::{Example, Layout, greedy};
use crate::lm::{Lm, LmConfig};

pub const LAYOUT: Layout = Layout { pad: PAD, sep: SEP, eos: EOS, pred: PRED };
/// Longest sequence the model reads: BOS + the longest description + k <= 4 [PRED] + SEP + the
/// longest regex + EOS fit (a test checks), with room.
pub const MAX_LEN: usize = 48;
/// Regex tokens a model writes at most.
pub const MAX_REGEX_TOKENS: usize = 20;

/// The regex task's model and config are the study's ([`JepaLm`]), named for the task.
pub type RegexModel = JepaLm;
pub type RegexConfig = JepaLmConfig;

/// Width 64, 2 layers, 4 heads, SwiGLU 128, over the task's vocabulary.
pub fn small_config(objective: Objective) -> RegexConfig {
    JepaLmConfig::new(LmConfig::new(Vocab::get().len(), MAX_LEN), objective)
}

/// A pair as model tokens.
pub fn example(description: &str, regex: &str) -> Result<Example, String> {
    let v = Vocab::get();
    let mut text = vec![BOS];
    text.extend(v.description(description)?);
    Ok(Example { text, code: v.regex(regex)? })
}

/// The regexes the LM writes for `descriptions` (greedy), in order; an unreadable description
/// is an error for its line only.
pub fn write_regexes(lm: &Lm, descriptions: &[&str], k: usize, device: &Device) -> Vec<Result<String, String>> {
    let v = Vocab::get();
    let prompts: Vec<Result<Vec<u32>, String>> = descriptions
        .iter()
        .map(|d| {
            let mut text = vec![BOS];
            text.extend(v.description(d)?);
            if text.len() + k + 1 + MAX_REGEX_TOKENS > MAX_LEN {
                return Err(format!("a description of {} words is longer than the model reads", text.len() - 1));
            }
            Ok(LAYOUT.prompt(&text, k))
        })
        .collect();
    let good: Vec<Vec<u32>> = prompts.iter().filter_map(|p| p.as_ref().ok().cloned()).collect();
    let mut written = greedy(lm, &good, &LAYOUT, MAX_REGEX_TOKENS, device).into_iter();
    prompts.into_iter().map(|p| p.map(|_| v.join(&written.next().expect("one answer per prompt")))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lm::sft::Layout;
    use crate::studies::regex::language::pairs;
    use crate::tasks::split::Part;

    #[test]
    fn every_pair_fits_with_four_pred_tokens() {
        let longest = [Part::Train, Part::Validation, Part::Test]
            .iter()
            .flat_map(|&p| pairs(p))
            .map(|p| Layout::sequence(&LAYOUT, &example(&p.description, &p.regex).unwrap(), 4).len())
            .max()
            .unwrap();
        assert!(longest <= MAX_LEN, "{longest} tokens");
        let longest_regex = [Part::Train, Part::Validation, Part::Test]
            .iter()
            .flat_map(|&p| pairs(p))
            .map(|p| example(&p.description, &p.regex).unwrap().code.len())
            .max()
            .unwrap();
        assert!(longest_regex < MAX_REGEX_TOKENS);
    }
}
