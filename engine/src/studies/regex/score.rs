//! Scoring written regexes against the reference: exact text match, and semantic match (the
//! two accept exactly the same lines, decided by `automaton::equivalent`). An answer outside
//! the regex subset is wrong on both.

use serde::{Deserialize, Serialize};

use burn::tensor::Device;

use super::automaton::{Equivalence, Nfa, equivalent};
use super::language::Pair;
use super::model::write_regexes;
use crate::lm::Lm;

/// One answer judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judged {
    pub exact: bool,
    pub semantic: bool,
    /// Written outside the subset (a syntax error).
    pub malformed: bool,
}

pub fn judge(written: &str, reference: &str) -> Judged {
    let nfa = Nfa::parse(reference).expect("references are in the subset");
    match Nfa::parse(written) {
        Err(_) => Judged { exact: false, semantic: false, malformed: true },
        Ok(w) => Judged { exact: written == reference, semantic: equivalent(&w, &nfa) == Equivalence::Same, malformed: false },
    }
}

/// Shares over a set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub n: usize,
    pub exact: f64,
    pub semantic: f64,
    pub malformed: f64,
}

pub fn score(written: &[String], references: &[String]) -> Score {
    let n = written.len();
    let (mut e, mut s, mut m) = (0usize, 0usize, 0usize);
    for (w, r) in written.iter().zip(references) {
        let j = judge(w, r);
        e += j.exact as usize;
        s += j.semantic as usize;
        m += j.malformed as usize;
    }
    let share = |x: usize| x as f64 / n.max(1) as f64;
    Score { n, exact: share(e), semantic: share(s), malformed: share(m) }
}

/// The LM's greedy regexes for `set`'s descriptions (k [PRED] tokens), scored against theirs.
pub fn score_model(lm: &Lm, set: &[Pair], k: usize, device: &Device) -> Score {
    let descriptions: Vec<&str> = set.iter().map(|p| p.description.as_str()).collect();
    let written: Vec<String> = write_regexes(lm, &descriptions, k, device).into_iter().map(|r| r.unwrap_or_default()).collect();
    score(&written, &set.iter().map(|p| p.regex.clone()).collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_semantic_and_malformed() {
        assert_eq!(judge(".*dog.*", ".*dog.*"), Judged { exact: true, semantic: true, malformed: false });
        assert_eq!(judge(".*(cat|dog).*", ".*(dog|cat).*"), Judged { exact: false, semantic: true, malformed: false });
        assert_eq!(judge(".*dog", ".*dog.*"), Judged { exact: false, semantic: false, malformed: false });
        assert_eq!(judge(".*(dog", ".*dog.*"), Judged { exact: false, semantic: false, malformed: true });
        let s = score(&[".*dog.*".into(), "(".into()], &[".*dog.*".into(), ".*".into()]);
        assert_eq!((s.n, s.exact, s.semantic, s.malformed), (2, 0.5, 0.5, 0.5));
    }
}
