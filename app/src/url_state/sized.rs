//! What the pages with models of two sizes (`/nqueens`: 8x8 and 10x10 boards, `/coloring`: 8
//! and 10 vertices) read the same way: their held-out (test) inputs, built once per size, and the
//! size a text is for.

use std::sync::OnceLock;

/// The held-out inputs of each of two sizes, each list built on first use.
pub struct HeldOut<T: 'static> {
    sizes: [usize; 2],
    lists: [OnceLock<Vec<T>>; 2],
    build: fn(usize) -> Vec<T>,
}

impl<T> HeldOut<T> {
    /// The inputs of `sizes`, each list built by `build(size)`.
    pub const fn new(sizes: [usize; 2], build: fn(usize) -> Vec<T>) -> Self {
        Self { sizes, lists: [OnceLock::new(), OnceLock::new()], build }
    }

    /// The inputs of `size`; a size without models has none.
    pub fn of(&'static self, size: usize) -> &'static [T] {
        match self.sizes.iter().position(|&s| s == size) {
            Some(i) => self.lists[i].get_or_init(|| (self.build)(size)),
            None => &[],
        }
    }

    /// The input `pick` (modulo the list's length) of `size`.
    pub fn pick(&'static self, size: usize, pick: usize) -> Option<&'static T> {
        let list = self.of(size);
        list.get(pick % list.len().max(1))
    }
}

/// The size a text is for: the larger of `sizes` when it is `long` characters (spaces around it
/// aside), the smaller otherwise (a wrong text is then read, and reported, at the smaller size).
pub fn size_of_text(text: &str, sizes: [usize; 2], long: usize) -> usize {
    if text.trim().chars().count() == long { sizes[1] } else { sizes[0] }
}

#[cfg(test)]
mod tests {
    use super::*;

    static SQUARES: HeldOut<usize> = HeldOut::new([2, 3], |n| (0..n).map(|i| i * i).collect());

    #[test]
    fn each_size_its_own_list_and_none_for_another() {
        assert_eq!(SQUARES.of(3), &[0, 1, 4]);
        assert_eq!(SQUARES.of(2), &[0, 1]);
        assert!(SQUARES.of(4).is_empty());
        assert_eq!(SQUARES.pick(3, 5), Some(&4));
        assert_eq!(SQUARES.pick(4, 5), None);
        assert_eq!((size_of_text(" abc ", [8, 10], 3), size_of_text("ab", [8, 10], 3)), (10, 8));
    }
}
