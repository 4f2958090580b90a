//! What a teacher shares on `/tree`: the tree and question, the latent noise and its seed, as
//! URL query parameters. Parsing never fails: a bad value keeps its default and leaves a note.

use engine::tasks::tree::TreeTask;

use crate::settings::ignored;

/// Weights the page runs.
pub const WEIGHTS: &str = "reasoner-tree";
/// Largest latent noise the slider offers (sigma as a fraction of max |h|); the paper sweeps 0-15%.
pub const MAX_NOISE: f64 = 0.5;
/// The paper's own example (seed 000, appendix A).
pub const PAPER_EXAMPLE: &str = "NL, NO, LJ, LI, OA, OM, JB, JH, IG, IF, AD, AE, MK, MC[ROOT]N[TARGET]K[ROUTE]";

#[derive(Clone, Debug, PartialEq)]
pub struct TreeSettings {
    /// The question, as the engine writes it.
    pub task: TreeTask,
    /// Latent noise sigma / max |h|, in steps of 0.01.
    pub noise: f64,
    pub seed: u64,
    /// Run as soon as the page is ready.
    pub run: bool,
}

impl Default for TreeSettings {
    fn default() -> Self {
        Self { task: TreeTask::parse(PAPER_EXAMPLE).expect("the paper's example parses"), noise: 0.0, seed: 0, run: false }
    }
}

/// Percent-encodes everything but letters and digits (the tree line has brackets, commas, spaces).
pub fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

impl TreeSettings {
    pub fn from_pairs(pairs: &[(String, String)]) -> (TreeSettings, Vec<String>) {
        let mut s = TreeSettings::default();
        let mut notes = Vec::new();
        for (key, value) in pairs {
            let v = value.as_str();
            match key.as_str() {
                "tree" => match TreeTask::parse(v) {
                    Ok(t) => s.task = t,
                    Err(e) => notes.push(ignored(key, v, &e.to_string(), "the paper's example tree")),
                },
                "noise" => match v.parse::<f64>() {
                    Ok(x) if (0.0..=MAX_NOISE).contains(&x) => s.noise = (x * 100.0).round() / 100.0,
                    _ => notes.push(ignored(key, v, "a number from 0 to 0.5 (a fraction of max |h|)", s.noise)),
                },
                "seed" => match v.parse::<u64>() {
                    Ok(x) if x <= 1_000_000_000 => s.seed = x,
                    _ => notes.push(ignored(key, v, "a whole number from 0 to 1000000000", s.seed)),
                },
                "run" => s.run = v == "1",
                _ => notes.push(format!("Ignored unknown parameter {key:?}.")),
            }
        }
        (s, notes)
    }

    /// The query string (without `?`); decoded by the browser's URLSearchParams.
    pub fn to_query(&self) -> String {
        let mut q = format!("tree={}&noise={}&seed={}", encode(&self.task.input_text()), self.noise, self.seed);
        if self.run {
            q.push_str("&run=1");
        }
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(s: &str) -> String {
        let b = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(b[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn round_trips_and_rejects_bad_values_with_notes() {
        let s = TreeSettings {
            task: TreeTask::parse("AB, AC, BD, BE[ROOT]A[TARGET]E[ROUTE]").unwrap(),
            noise: 0.12,
            seed: 5,
            run: true,
        };
        let back: Vec<(String, String)> = s
            .to_query()
            .split('&')
            .map(|kv| kv.split_once('=').map(|(k, v)| (k.to_string(), decode(v))).unwrap())
            .collect();
        assert_eq!(TreeSettings::from_pairs(&back), (s, vec![]));
        let bad = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
        for (k, v, want) in [("tree", "AB, AC[ROOT]A[TARGET]Q[ROUTE]", "not in the tree"), ("noise", "2", "0 to 0.5"), ("seed", "-1", "whole"), ("x", "1", "unknown")] {
            let (d, notes) = TreeSettings::from_pairs(&bad(k, v));
            assert_eq!(d, TreeSettings::default());
            assert!(notes.len() == 1 && notes[0].contains(want), "{notes:?}");
        }
    }
}
