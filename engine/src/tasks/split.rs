//! The split rule every task shares the shape of: a pure function of an instance's text, so anyone
//! can recompute it (docs/cli.md, "The data and its split"), and helpers to sample a split evenly.

/// Which part of the split an instance belongs to: train, validation (carved from the training
/// side: training never reads it, training-time choices are made on it) or test (read by `eval`
/// alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    Train,
    Validation,
    Test,
}

impl Part {
    /// `train`, `validation` or `test`.
    pub fn parse(text: &str) -> Option<Part> {
        match text {
            "train" => Some(Part::Train),
            "validation" => Some(Part::Validation),
            "test" => Some(Part::Test),
            _ => None,
        }
    }

    /// The name [`Part::parse`] reads.
    pub fn name(self) -> &'static str {
        match self {
            Part::Train => "train",
            Part::Validation => "validation",
            Part::Test => "test",
        }
    }
}

/// The part of an input whose hash is `h` and whose task's own test rule says `is_test`: test,
/// else validation iff `h % 100` is in `15..20` (the one validation rule every task shares),
/// else train.
pub fn part_by_hash(h: u64, is_test: bool) -> Part {
    if is_test {
        Part::Test
    } else if (15..20).contains(&(h % 100)) {
        Part::Validation
    } else {
        Part::Train
    }
}

/// 64-bit FNV-1a of the bytes of `text`.
pub fn fnv1a64(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        hash ^= b as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// `k` items spread evenly over the list (all of it when `k` >= its length). Over a split in
/// dataset order this keeps every removed-queen count represented.
pub fn spread<T: Clone>(list: &[T], k: usize) -> Vec<T> {
    if k >= list.len() {
        return list.to_vec();
    }
    (0..k).map(|i| list[i * list.len() / k].clone()).collect()
}
