//! A Sudoku as a visitor pastes it from elsewhere: the 81-character line of puzzle collections,
//! the same with `-` or `_` for blanks (a popular generator's format), digits with spaces, or a
//! grid drawn with `|`, `+` and `-` lines, on one line or many. [`SudokuGrid::parse`] stays the
//! strict one-line format of files, URLs and the command line.

use super::{CELLS, GridError, SudokuGrid};

/// Characters that stand for a blank cell in every reading.
const BLANKS: [char; 7] = ['.', '0', '_', '*', 'x', 'X', '?'];

/// The cells of `text` under one reading: `-` a blank (`dash_blank`) or a grid line; spaces and
/// `|` are skipped in both, `+` and `=` only where `-` draws lines. `Err((cells so far, ch))` at
/// the first character the reading cannot place.
fn cells(text: &str, dash_blank: bool) -> Result<Vec<u8>, (usize, char)> {
    let mut out = Vec::with_capacity(CELLS);
    for ch in text.chars() {
        match ch {
            '1'..='9' => out.push(ch as u8 - b'0'),
            c if BLANKS.contains(&c) => out.push(0),
            '-' if dash_blank => out.push(0),
            '-' | '+' | '=' if !dash_blank => {}
            '|' => {}
            c if c.is_whitespace() || c == ',' => {}
            c => return Err((out.len(), c)),
        }
    }
    Ok(out)
}

impl SudokuGrid {
    /// Reads a pasted puzzle (module doc): exactly 81 cells of `1`-`9` and a blank (`.`, `0`,
    /// `-`, `_`, `*`, `x` or `?`), with spaces, commas, line breaks and `|` between them skipped.
    /// Where `-` would make more than 81 cells, it is read as part of a drawn grid (with `+` and
    /// `=`) and skipped instead. The error names the cell count or the first character that is
    /// neither.
    pub fn from_pasted(text: &str) -> Result<Self, GridError> {
        let readings = [cells(text, true), cells(text, false)];
        if let Some(c) = readings.iter().flatten().find_map(|c| <[u8; CELLS]>::try_from(c.as_slice()).ok()) {
            return Ok(SudokuGrid::from_cells(c));
        }
        match &readings[1] {
            Err((at, ch)) => Err(GridError::Character(*at, *ch)),
            Ok(c) => Err(GridError::Cells(c.len())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn as_grid(line: &str) -> String {
        let rows: Vec<String> = line
            .as_bytes()
            .chunks(9)
            .map(|r| {
                let c: Vec<String> = r.iter().map(|&b| (b as char).to_string()).collect();
                format!("{} {} {} | {} {} {} | {} {} {}", c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8])
            })
            .collect();
        let rule = "------+-------+------";
        format!(
            "{}\n{}\n{}\n{rule}\n{}\n{}\n{}\n{rule}\n{}\n{}\n{}\n",
            rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7], rows[8]
        )
    }

    #[test]
    fn every_common_layout_reads_as_the_same_puzzle() {
        let want = SudokuGrid::parse(LINE).unwrap();
        let grid = as_grid(LINE);
        for text in [
            LINE.to_string(),
            LINE.replace('.', "0"),
            LINE.replace('.', "-"),
            LINE.replace('.', "_"),
            format!("  {LINE}\n"),
            LINE.chars().map(|c| format!("{c} ")).collect::<String>(),
            LINE.chars().map(|c| c.to_string()).collect::<Vec<_>>().join(","),
            grid.clone(),
            grid.replace('.', "0"),
            // A browser's text field drops the line breaks of a pasted grid.
            grid.replace('\n', ""),
            grid.replace('\n', " "),
        ] {
            assert_eq!(SudokuGrid::from_pasted(&text), Ok(want.clone()), "{text:?}");
        }
    }

    #[test]
    fn what_is_not_a_puzzle_is_named() {
        assert_eq!(SudokuGrid::from_pasted("12345"), Err(GridError::Cells(5)));
        assert_eq!(SudokuGrid::from_pasted(&LINE[..80]), Err(GridError::Cells(80)));
        assert_eq!(SudokuGrid::from_pasted(&format!("{LINE}1")), Err(GridError::Cells(82)));
        let mut bad = LINE.to_string();
        bad.replace_range(10..11, "a");
        assert_eq!(SudokuGrid::from_pasted(&bad), Err(GridError::Character(10, 'a')));
        assert_eq!(SudokuGrid::from_pasted(&format!("Puzzle: {LINE}")), Err(GridError::Character(0, 'P')));
    }
}
