//! The regex task's model: the small LM of `lm::model` with the objective it was trained with
//! (LM only, + LLM-JEPA, + T-decoder-JEPA), and what reads descriptions and writes regexes.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::Device;

use super::tokens::{BOS, EOS, PAD, PRED, SEP, Vocab};
use crate::lm::llm_jepa::LlmJepa;
use crate::lm::sft::{Example, Layout, greedy};
use crate::lm::t_jepa::{Predictor, PredictorConfig, TJepa};
use crate::lm::{Lm, LmConfig};

pub const LAYOUT: Layout = Layout { pad: PAD, sep: SEP, eos: EOS, pred: PRED };
/// Longest sequence the model reads: BOS + the longest description + k <= 4 [PRED] + SEP + the
/// longest regex + EOS fit (a test checks), with room.
pub const MAX_LEN: usize = 48;
/// Regex tokens a model writes at most.
pub const MAX_REGEX_TOKENS: usize = 20;

/// Which objective trained the LM (the ablation's three arms).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Objective {
    /// SFT alone (lambda = 0).
    Lm,
    LlmJepa(LlmJepa),
    TJepa(TJepa),
}

impl Objective {
    pub fn name(&self) -> &'static str {
        match self {
            Objective::Lm => "lm",
            Objective::LlmJepa(_) => "llm-jepa",
            Objective::TJepa(_) => "t-jepa",
        }
    }

    /// [PRED] tokens in the prompt (LLM-JEPA's k; 0 otherwise).
    pub fn k(&self) -> usize {
        match self {
            Objective::LlmJepa(j) => j.k,
            _ => 0,
        }
    }
}

#[derive(Config, Debug, PartialEq)]
pub struct RegexConfig {
    pub lm: LmConfig,
    pub objective: Objective,
    /// T-decoder-JEPA's predictor layers.
    #[config(default = 1)]
    pub predictor_layers: usize,
}

impl RegexConfig {
    /// Width 64, 2 layers, 4 heads, SwiGLU 128, over the task's vocabulary.
    pub fn small(objective: Objective) -> RegexConfig {
        RegexConfig::new(LmConfig::new(Vocab::get().len(), MAX_LEN), objective)
    }

    pub fn init(&self, device: &Device) -> RegexModel {
        let l = &self.lm;
        let predictor = matches!(self.objective, Objective::TJepa(_))
            .then(|| PredictorConfig::new(l.d_model, l.d_ffn, l.n_heads, l.max_len).with_n_layers(self.predictor_layers).init(device));
        RegexModel { lm: l.init(device), predictor }
    }
}

/// What a regex weights file holds: the LM (and, while training with T-decoder-JEPA, its
/// predictor; the EMA target encoder is kept by the trainer's checkpoints).
#[derive(Module, Debug)]
pub struct RegexModel {
    pub lm: Lm,
    pub predictor: Option<Predictor>,
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
    use crate::tasks::regex::language::pairs;
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
