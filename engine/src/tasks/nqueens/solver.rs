//! The exact N-Queens solver: every completion of a partial board, by bitmask backtracking.

use super::board::Board;

/// Every completion of `given` (a solution keeping all its queens), in lexicographic order of the
/// queen columns per row. Exact: a bitmask backtracking search over rows.
pub fn completions(given: &Board) -> Vec<Board> {
    let n = given.n();
    // The column forced in each row by a given queen; two given queens in a row have no completion.
    let mut forced = vec![None; n];
    for (r, c) in given.queens() {
        if forced[r].is_some() {
            return Vec::new();
        }
        forced[r] = Some(c);
    }
    let mut out = Vec::new();
    let mut cols = vec![0usize; n];
    search(n, 0, 0, 0, 0, &forced, &mut cols, &mut out);
    out
}

// The backtracking state is the recursion's arguments (bitmasks and the partial board); a struct would only hide it.
#[allow(clippy::too_many_arguments)]
fn search(n: usize, row: usize, used_cols: u32, diag: u32, anti: u32, forced: &[Option<usize>], cols: &mut [usize], out: &mut Vec<Board>) {
    if row == n {
        let mut board = Board::empty(n).expect("the given board's side");
        for (r, &c) in cols.iter().enumerate() {
            board.set(r, c, true);
        }
        out.push(board);
        return;
    }
    let full = (1u32 << n) - 1;
    let mut free = full & !(used_cols | diag | anti);
    if let Some(c) = forced[row] {
        free &= 1 << c;
    }
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free &= free - 1;
        cols[row] = bit.trailing_zeros() as usize;
        search(n, row + 1, used_cols | bit, ((diag | bit) << 1) & full, (anti | bit) >> 1, forced, cols, out);
    }
}

/// All solutions of the `n`-queens problem (92 for 8, 724 for 10).
pub fn all_solutions(n: usize) -> Vec<Board> {
    completions(&Board::empty(n).expect("supported side"))
}
