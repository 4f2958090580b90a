//! What `native-trainer data import --format sudoku-csv` keeps of a user's Sudoku-Extreme rows,
//! as the HRM build script does (`--min-difficulty`, `--subsample`, `--augment`), and the
//! validation part carved from them. Every rule is a pure function of the rows and the seed:
//!
//! 1. rating filter: a row is kept iff its rating >= the minimum (none: every row);
//! 2. subsample N: the first N indices of a Fisher-Yates shuffle of the kept rows, drawn from
//!    `NoiseSource::new(seed)`, then put back in file order (none, or N >= the rows: all);
//! 3. validation: the rows whose puzzle text (81 characters, `.` blanks) hashes (FNV-1a 64) to
//!    15..20 modulo 100, the split rule every task shares (about 5%); if none does, the row with
//!    the largest hash. The rest is the train part. An import has no test part;
//! 4. augmentation: each train row, then K validity-preserving copies of it ([`Augmentation`]:
//!    digit relabelling, band/stack and row/column-within-band permutations, transposition),
//!    drawn from `NoiseSource::new(seed ^ AUGMENT_STREAM)` row by row; a copy whose puzzle is a
//!    validation puzzle is drawn again. The validation part is never augmented.

use std::collections::HashSet;

use super::csv::{CsvError, CsvRow, read_csv};
use super::{Augmentation, Instance};
use crate::gram::noise::NoiseSource;
use crate::tasks::DatasetError;
use crate::tasks::split::{Part, fnv1a64, part_by_hash};

/// Mixed into the seed of the augmentations' generator (another stream than the subsample's).
pub const AUGMENT_STREAM: u64 = 0xa96e_0000;

/// The import's options (the HRM build script's names in brackets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Keep this many rows (`subsample_size`).
    pub subsample: Option<usize>,
    /// Keep rows rated at least this (`min_difficulty`).
    pub min_rating: Option<u32>,
    /// Augmented copies per train puzzle (`num_aug`).
    pub augment: usize,
    pub seed: u64,
}

/// The rows an import writes and what it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// Rows after the rating filter and the subsample (before augmentation).
    pub kept: usize,
    /// Train rows: each kept train row followed by its augmented copies.
    pub train: Vec<CsvRow>,
    pub validation: Vec<CsvRow>,
    /// Augmented copies among `train`.
    pub augmented: usize,
}

/// Applies the rules of the module's header to the rows read (in file order). An import needs
/// at least two rows left after filtering (one for each part).
pub fn select(rows: Vec<CsvRow>, options: &ImportOptions) -> Result<Imported, DatasetError> {
    let read = rows.len();
    let rows = filter_and_subsample(rows, options);
    if rows.len() < 2 {
        return Err(DatasetError::TooFewRows { left: rows.len(), read });
    }
    let kept = rows.len();
    let hash = |r: &CsvRow| fnv1a64(&r.puzzle.to_text());
    let (mut validation, mut train): (Vec<CsvRow>, Vec<CsvRow>) =
        rows.into_iter().partition(|r| part_by_hash(hash(r), false) == Part::Validation);
    if validation.is_empty() {
        let largest = (0..train.len()).max_by_key(|&i| hash(&train[i])).expect("at least 2 rows");
        validation.push(train.remove(largest));
    }
    let held: HashSet<String> = validation.iter().map(|r| r.puzzle.to_text()).collect();
    let mut rng = NoiseSource::new(options.seed ^ AUGMENT_STREAM);
    let mut out = Vec::with_capacity(train.len() * (options.augment + 1));
    for row in train {
        let copies: Vec<CsvRow> = (1..=options.augment).map(|k| augmented_copy(&row, k, &held, &mut rng)).collect();
        out.push(row); // the original first, then its copies
        out.extend(copies);
    }
    let augmented = out.len() - (kept - validation.len());
    Ok(Imported { kept, train: out, validation, augmented })
}

/// A test import (`data import --test`): the rows after the rating filter and the subsample,
/// in file order, every one of them the test part (no validation carved, no copies).
pub fn select_test(rows: Vec<CsvRow>, options: &ImportOptions) -> Result<Vec<CsvRow>, DatasetError> {
    if options.augment > 0 {
        return Err(DatasetError::TestAugment);
    }
    let read = rows.len();
    let rows = filter_and_subsample(rows, options);
    if rows.is_empty() {
        return Err(DatasetError::NoRowsLeft { read });
    }
    Ok(rows)
}

/// Rules 1 and 2: the rows rated at least `min_rating`, then the seeded subsample of them.
fn filter_and_subsample(rows: Vec<CsvRow>, options: &ImportOptions) -> Vec<CsvRow> {
    let rows: Vec<CsvRow> = rows.into_iter().filter(|r| options.min_rating.is_none_or(|m| r.rating >= m)).collect();
    subsample(rows, options.subsample, options.seed)
}

/// The `k`-th rule-4 copy of `row`: a random augmentation whose puzzle is not held out.
fn augmented_copy(row: &CsvRow, k: usize, held: &HashSet<String>, rng: &mut NoiseSource) -> CsvRow {
    loop {
        let aug = Augmentation::random(rng);
        let puzzle = aug.apply(&row.puzzle);
        if !held.contains(&puzzle.to_text()) {
            return CsvRow { source: format!("{}#aug{k}", row.source), puzzle, solution: aug.apply(&row.solution), rating: row.rating };
        }
    }
}

/// The rule-2 subsample of `rows`, in their order.
fn subsample(rows: Vec<CsvRow>, n: Option<usize>, seed: u64) -> Vec<CsvRow> {
    let Some(n) = n.filter(|&n| n < rows.len()) else { return rows };
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let mut rng = NoiseSource::new(seed);
    for i in 0..n {
        let j = i + rng.index(rows.len() - i);
        order.swap(i, j);
    }
    let mut chosen = order[..n].to_vec();
    chosen.sort_unstable();
    let mut keep = vec![false; rows.len()];
    chosen.into_iter().for_each(|i| keep[i] = true);
    rows.into_iter().zip(keep).filter_map(|(r, k)| k.then_some(r)).collect()
}

/// The `format` a Sudoku test import's manifest names (a training import's is `sudoku-csv`).
pub const TEST_FORMAT: &str = "sudoku-csv-test";

/// The file of a Sudoku test import that holds its puzzles (`data import --format sudoku-csv
/// --test`), in the CSV's own form.
pub const TEST_FILE: &str = "test.csv";

/// The instances of a Sudoku CSV's text (`source,q,a,rating`), every row checked again as it is
/// read: what a training or test import's file holds.
pub fn read_instances(text: &str) -> Result<Vec<Instance>, CsvError> {
    Ok(read_csv(text)?.iter().map(instance).collect())
}

/// A row as the training data's instance: its puzzle, its solution, its rating in `guesses`.
pub fn instance(row: &CsvRow) -> Instance {
    Instance { puzzle: row.puzzle.clone(), solution: row.solution.clone(), guesses: row.rating as u64 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::sudoku::{Difficulty, generate};

    fn rows(n: usize) -> Vec<CsvRow> {
        let mut rng = NoiseSource::new(11);
        (0..n)
            .map(|i| {
                let inst = generate(Difficulty::Easy.givens().0, &mut rng);
                CsvRow { source: format!("s{i}"), puzzle: inst.puzzle, solution: inst.solution, rating: i as u32 }
            })
            .collect()
    }

    #[test]
    fn filter_subsample_carve_and_augment_follow_the_documented_rules() {
        let all = rows(40);
        let options = ImportOptions { subsample: Some(12), min_rating: Some(10), augment: 3, seed: 7 };
        let out = select(all.clone(), &options).unwrap();
        assert_eq!(out, select(all.clone(), &options).unwrap(), "a pure function of rows and seed");
        assert_eq!(out.kept, 12);
        let originals: Vec<&CsvRow> = out.train.iter().chain(&out.validation).filter(|r| !r.source.contains("#aug")).collect();
        assert_eq!(originals.len(), 12);
        assert!(originals.iter().all(|r| r.rating >= 10));
        // In file order (ratings are the row numbers), each followed by its 3 copies.
        let order: Vec<u32> = out.train.iter().step_by(4).map(|r| r.rating).collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        assert_eq!(out.augmented, 3 * (12 - out.validation.len()));
        assert_eq!(out.train.len(), 4 * (12 - out.validation.len()));
        for pair in out.train.chunks(4) {
            for copy in &pair[1..] {
                assert!(copy.solution.solves(&copy.puzzle));
                assert_eq!(copy.puzzle.givens(), pair[0].puzzle.givens());
                assert_ne!(copy.puzzle, pair[0].puzzle);
            }
        }
        assert!(!out.validation.is_empty());
        assert!(out.validation.iter().all(|r| !r.source.contains("#aug")));
        // Another seed draws another subsample.
        let other = select(all.clone(), &ImportOptions { seed: 8, ..options.clone() }).unwrap();
        assert_ne!(other.train, out.train);
        // No options: every row, validation by the shared hash rule (or the largest hash).
        let plain = select(all.clone(), &ImportOptions::default()).unwrap();
        assert_eq!((plain.kept, plain.augmented), (40, 0));
        assert_eq!(plain.train.len() + plain.validation.len(), 40);
        let by_hash = all.iter().filter(|r| part_by_hash(fnv1a64(&r.puzzle.to_text()), false) == Part::Validation).count();
        assert_eq!(plain.validation.len(), by_hash.max(1));
        assert_eq!(instance(&plain.train[0]).guesses, plain.train[0].rating as u64);
    }

    #[test]
    fn a_test_import_keeps_the_filtered_subsample_whole() {
        let options = ImportOptions { subsample: Some(5), min_rating: Some(1), augment: 0, seed: 3 };
        let kept = select_test(rows(12), &options).unwrap();
        assert_eq!(kept.len(), 5);
        assert!(kept.iter().all(|r| r.rating >= 1));
        // The same rows a training import keeps (its two parts together), in file order.
        let both = select(rows(12), &options).unwrap();
        let mut sources: Vec<String> = both.train.iter().chain(&both.validation).map(|r| r.source.clone()).collect();
        sources.sort_by_key(|s| s[1..].parse::<usize>().unwrap());
        assert_eq!(kept.iter().map(|r| r.source.clone()).collect::<Vec<_>>(), sources);
        assert_eq!(select_test(rows(3), &ImportOptions { augment: 1, ..options.clone() }), Err(DatasetError::TestAugment));
        assert_eq!(select_test(rows(3), &ImportOptions { min_rating: Some(1000), ..options }), Err(DatasetError::NoRowsLeft { read: 3 }));
    }

    #[test]
    fn too_few_rows_left_is_an_error() {
        let err = select(rows(5), &ImportOptions { min_rating: Some(4), ..Default::default() }).unwrap_err();
        assert_eq!(err, DatasetError::TooFewRows { left: 1, read: 5 });
        assert!(err.to_string().contains("1 of the 5 rows read are left"), "{err}");
    }
}
