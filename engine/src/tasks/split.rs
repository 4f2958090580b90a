//! The split rule every task shares the shape of: a pure function of an instance's text, so anyone
//! can recompute it (README, "The data and its split"), and helpers to sample a split evenly.

/// Which side of the 85:15 split a puzzle belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    Train,
    Test,
}

impl Part {
    /// `train` or `test`.
    pub fn parse(text: &str) -> Option<Part> {
        match text {
            "train" => Some(Part::Train),
            "test" => Some(Part::Test),
            _ => None,
        }
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
