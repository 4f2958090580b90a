//! The regex task's one vocabulary, shared by both views (as an LLM's tokenizer is): special
//! tokens, the words of the descriptions, and the regex fragments (`.*`, `(`, `[0-9]`, `{3,}`,
//! the words...). A word such as `dog` is one token in either view. A regex is split into
//! fragments by longest match; a model's answer is its fragments joined.
//!
//! The model's sequence (the LLM-JEPA paper's SFT layout): `BOS description [PRED]*k SEP regex EOS`; the
//! LM loss reads the regex and EOS.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::language::{Meaning, WORDS};

pub const PAD: u32 = 0;
pub const BOS: u32 = 1;
/// Between the description and the regex (the "assistant" turn's start).
pub const SEP: u32 = 2;
pub const EOS: u32 = 3;
/// LLM-JEPA's predictor token (the LLM-JEPA paper): k of them end the description.
pub const PRED: u32 = 4;
const SPECIALS: [&str; 5] = ["<pad>", "<bos>", "<sep>", "<eos>", "<pred>"];

/// The vocabulary: token id <-> text.
pub struct Vocab {
    texts: Vec<String>,
    ids: HashMap<String, u32>,
    /// Regex fragments, longest first (for longest-match splitting).
    fragments: Vec<(String, u32)>,
}

impl Vocab {
    pub fn get() -> &'static Vocab {
        static VOCAB: OnceLock<Vocab> = OnceLock::new();
        VOCAB.get_or_init(Vocab::build)
    }

    fn build() -> Vocab {
        let mut texts: Vec<String> = SPECIALS.iter().map(|s| s.to_string()).collect();
        let mut words: Vec<String> = Vec::new();
        for m in Meaning::all() {
            for d in m.all_descriptions() {
                words.extend(d.split(' ').map(str::to_string));
            }
        }
        let mut frags: Vec<String> = [".*", ".", "(", ")", "|", "+", "*"].iter().map(|s| s.to_string()).collect();
        for class in ["aeiou", "a-z", "A-Z", "0-9"] {
            frags.push(format!("[{class}]"));
            frags.push(format!("[^{class}]"));
        }
        for n in 2..=9 {
            frags.push(format!("{{{n}}}"));
            frags.push(format!("{{{n},}}"));
        }
        frags.extend(WORDS.iter().map(|w| w.to_string()));
        words.extend(frags.iter().cloned());
        words.sort();
        words.dedup();
        texts.extend(words);
        let ids: HashMap<String, u32> = texts.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        let mut fragments: Vec<(String, u32)> = frags.iter().map(|f| (f.clone(), ids[f])).collect();
        fragments.sort_by_key(|(f, _)| std::cmp::Reverse(f.len()));
        Vocab { texts, ids, fragments }
    }

    pub fn len(&self) -> usize {
        self.texts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.texts.is_empty()
    }

    pub fn text(&self, id: u32) -> &str {
        &self.texts[id as usize]
    }

    /// The description's tokens; an unknown word is an error naming it.
    pub fn description(&self, text: &str) -> Result<Vec<u32>, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.is_empty() {
            return Err("an empty description".into());
        }
        words
            .iter()
            .map(|w| {
                self.ids
                    .get(&w.to_lowercase())
                    .copied()
                    .filter(|&id| id > PRED)
                    .ok_or_else(|| format!("unknown word '{w}' (the task's words: {})", self.description_words().join(", ")))
            })
            .collect()
    }

    /// Words a description may use.
    pub fn description_words(&self) -> Vec<&str> {
        let frag: std::collections::HashSet<&str> = self.fragments.iter().map(|(f, _)| f.as_str()).collect();
        self.texts[SPECIALS.len()..].iter().map(String::as_str).filter(|t| !frag.contains(t) || WORDS.contains(t)).collect()
    }

    /// The regex's fragments by longest match; an error where no fragment fits.
    pub fn regex(&self, text: &str) -> Result<Vec<u32>, String> {
        let mut out = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let (f, id) = self
                .fragments
                .iter()
                .find(|(f, _)| rest.starts_with(f.as_str()))
                .ok_or_else(|| format!("no regex token fits at '{rest}'"))?;
            out.push(*id);
            rest = &rest[f.len()..];
        }
        Ok(out)
    }

    /// The regex a model wrote: its tokens' texts joined, up to EOS (specials and description-only
    /// words are kept as written, so a wrong answer stays visible and fails to parse).
    pub fn join(&self, tokens: &[u32]) -> String {
        tokens.iter().take_while(|&&t| t != EOS).map(|&t| if t <= PRED { "" } else { self.text(t) }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::studies::regex::language::pairs;
    use crate::tasks::split::Part;

    #[test]
    fn every_pair_round_trips() {
        let v = Vocab::get();
        for part in [Part::Train, Part::Validation, Part::Test] {
            for p in pairs(part) {
                let d = v.description(&p.description).unwrap();
                assert_eq!(d.iter().map(|&t| v.text(t)).collect::<Vec<_>>().join(" "), p.description);
                let r = v.regex(&p.regex).unwrap();
                assert_eq!(v.join(&r), p.regex);
            }
        }
        assert!(v.len() < 128, "a small vocabulary: {}", v.len());
    }

    #[test]
    fn bad_input_is_named() {
        let v = Vocab::get();
        let e = v.description("lines with a unicorn").unwrap_err();
        assert!(e.contains("unknown word 'unicorn'") && e.contains("dog"), "{e}");
        assert!(v.description("   ").is_err());
        assert!(v.regex(".*\\d").unwrap_err().contains("\\d"));
        assert_eq!(v.join(&[v.regex("dog").unwrap()[0], EOS, PAD]), "dog");
    }
}
