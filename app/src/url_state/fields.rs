//! Readers for single query parameters, shared by every page: whole numbers in a range, decimals
//! rounded to a step, and values a parser understands. Each applies `key=value` to its slot, or
//! keeps the slot's value and leaves the note the page shows. The wording of the notes is part of
//! the URL contract (the e2e tests read it).

use std::fmt::Display;
use std::str::FromStr;

/// The note for a query value that was not understood.
pub fn ignored(key: &str, value: &str, rule: &str, default: impl Display) -> String {
    format!("Ignored {key}={value:?} ({rule}); using {default}.")
}

/// The note for a key no page reads.
pub fn unknown(key: &str) -> String {
    format!("Ignored unknown parameter {key:?}.")
}

/// A whole number from `min` to `max` (both included), e.g. `n`, `steps`, `seed`.
#[derive(Clone, Copy, Debug)]
pub struct Whole<T> {
    pub min: T,
    pub max: T,
}

impl<T: FromStr + PartialOrd + Display + Copy> Whole<T> {
    /// Sets `slot` from `value`; out of range or not a number keeps `slot` and leaves a note
    /// naming the range and the value kept.
    pub fn read(&self, key: &str, value: &str, slot: &mut T, notes: &mut Vec<String>) {
        match value.parse::<T>() {
            Ok(x) if self.min <= x && x <= self.max => *slot = x,
            _ => notes.push(ignored(key, value, &format!("a whole number from {} to {}", self.min, self.max), *slot)),
        }
    }
}

/// A number from 0 to `max`, rounded to `1 / per_unit` (the slider's step).
#[derive(Clone, Copy, Debug)]
pub struct Decimal {
    pub max: f64,
    pub per_unit: f64,
    /// What the note says a good value is.
    pub rule: &'static str,
}

impl Decimal {
    /// `x` on the slider's grid.
    pub fn round(&self, x: f64) -> f64 {
        (x * self.per_unit).round() / self.per_unit
    }

    /// Sets `slot` from `value` (rounded); out of range, NaN or not a number keeps `slot` and
    /// leaves a note.
    pub fn read(&self, key: &str, value: &str, slot: &mut f64, notes: &mut Vec<String>) {
        match value.parse::<f64>() {
            Ok(x) if (0.0..=self.max).contains(&x) => *slot = self.round(x),
            _ => notes.push(ignored(key, value, self.rule, *slot)),
        }
    }
}

/// Sets `slot` from what a parser made of `value`; an error keeps `slot` and leaves a note with
/// the parser's reason and `default` (how the note names the value kept, e.g. "the default board").
pub fn parsed<T, E: Display>(key: &str, value: &str, parsed: Result<T, E>, slot: &mut T, default: &str, notes: &mut Vec<String>) {
    match parsed {
        Ok(x) => *slot = x,
        Err(e) => notes.push(ignored(key, value, &e.to_string(), default)),
    }
}

/// The largest seed a URL may carry.
pub const MAX_SEED: u64 = 1_000_000_000;
/// `seed`: the noise seed of every page.
pub const SEED: Whole<u64> = Whole { min: 0, max: MAX_SEED };

/// `run=1`: start the run as soon as the page is ready; any other value means no.
pub fn read_run(value: &str, slot: &mut bool) {
    *slot = value == "1";
}

/// The query's tail for the run flag: `&run=1` after a run, nothing before.
pub fn run_suffix(run: bool) -> &'static str {
    if run { "&run=1" } else { "" }
}

/// Two decimal settings are the same value (a recorded run's against a page's, each read from text).
pub fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_keep_the_slot_and_name_the_range() {
        let mut notes = Vec::new();
        let mut n = 20usize;
        let range = Whole { min: 1, max: 64 };
        range.read("n", "7", &mut n, &mut notes);
        assert_eq!((n, notes.len()), (7, 0));
        for bad in ["0", "65", "-1", "abc", "", "1.5", " 3"] {
            range.read("n", bad, &mut n, &mut notes);
        }
        assert_eq!(n, 7);
        assert_eq!(notes.len(), 7);
        assert_eq!(notes[0], "Ignored n=\"0\" (a whole number from 1 to 64); using 7.");
        let mut seed = 0u64;
        SEED.read("seed", "1000000001", &mut seed, &mut notes);
        assert_eq!(notes.last().unwrap(), "Ignored seed=\"1000000001\" (a whole number from 0 to 1000000000); using 0.");
        SEED.read("seed", "+42", &mut seed, &mut notes);
        assert_eq!(seed, 42, "Rust's integer parser takes a leading +, as before");
    }

    #[test]
    fn decimals_round_to_the_slider_step_and_refuse_nan() {
        let scale = Decimal { max: 3.0, per_unit: 10.0, rule: "a number from 0 to 3" };
        let mut notes = Vec::new();
        let mut x = 1.0;
        scale.read("scale", "2.46", &mut x, &mut notes);
        assert_eq!(x, 2.5);
        for bad in ["NaN", "inf", "-0.1", "3.01", "x"] {
            scale.read("scale", bad, &mut x, &mut notes);
        }
        assert_eq!((x, notes.len()), (2.5, 5));
        assert_eq!(notes[0], "Ignored scale=\"NaN\" (a number from 0 to 3); using 2.5.");
    }

    #[test]
    fn parsed_values_carry_the_parser_reason() {
        let mut notes = Vec::new();
        let mut slot = 1u8;
        parsed("k", "v", "300".parse::<u8>(), &mut slot, "one", &mut notes);
        assert_eq!(slot, 1);
        assert_eq!(notes, ["Ignored k=\"v\" (number too large to fit in target type); using one."]);
        let mut run = false;
        read_run("1", &mut run);
        assert!(run);
        read_run("true", &mut run);
        assert!(!run);
        assert_eq!((run_suffix(true), run_suffix(false)), ("&run=1", ""));
    }
}
