//! Sudoku-Extreme's CSV, the file the HRM and TRM build scripts read: a header line, then one
//! row per puzzle, `source,q,a,rating` (q the 81-character puzzle with `.` or `0` for a blank,
//! a its 81-digit solution, rating an integer). Read with every row checked (a bad row is an
//! error naming its line, the header being line 1) and written back in the same form. Text in,
//! text out: reading the file is the caller's.

use super::{CELLS, SudokuGrid, units_of};
use crate::tasks::DatasetError;

/// The header the build scripts' CSV starts with.
pub const HEADER: &str = "source,q,a,rating";
/// The same columns as the Hugging Face copy of Sudoku-Extreme names them; also accepted.
pub const LONG_HEADER: &str = "source,question,answer,rating";

/// One checked row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvRow {
    pub source: String,
    pub puzzle: SudokuGrid,
    /// A complete grid without conflicts that keeps every given of `puzzle`.
    pub solution: SudokuGrid,
    pub rating: u32,
}

/// The first bad line of a file: its number (1-based, the header is line 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct CsvError {
    pub line: usize,
    pub error: DatasetError,
}

/// Every row of `text`, in file order, or the first bad line. Blank lines are skipped; a `\r`
/// before a line's end is ignored. The source may itself hold commas (the last three fields are
/// split off from the right).
pub fn read_csv(text: &str) -> Result<Vec<CsvRow>, CsvError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let header = lines.next().map(|(_, l)| l.trim()).unwrap_or("");
    if header != HEADER && header != LONG_HEADER {
        return Err(CsvError { line: 1, error: DatasetError::Header { expected: HEADER, found: header.to_string() } });
    }
    lines.filter(|(_, l)| !l.trim().is_empty()).map(|(line, l)| parse_row(l).map_err(|error| CsvError { line, error })).collect()
}

/// One data line, checked.
pub fn parse_row(line: &str) -> Result<CsvRow, DatasetError> {
    let fields: Vec<&str> = line.rsplitn(4, ',').collect();
    if fields.len() != 4 {
        return Err(DatasetError::Fields(fields.len()));
    }
    let (rating, a, q, source) = (fields[0].trim(), fields[1], fields[2], fields[3]);
    let puzzle = SudokuGrid::parse(q).map_err(DatasetError::Puzzle)?;
    let solution = SudokuGrid::parse(a).map_err(DatasetError::Solution)?;
    check_solution(&puzzle, &solution)?;
    let rating = rating.parse().map_err(|_| DatasetError::Rating(rating.to_string()))?;
    Ok(CsvRow { source: source.to_string(), puzzle, solution, rating })
}

/// Why `solution` is not the complete, conflict-free grid that keeps `puzzle`'s givens.
fn check_solution(puzzle: &SudokuGrid, solution: &SudokuGrid) -> Result<(), DatasetError> {
    if let Some(c) = (0..CELLS).find(|&c| solution.get(c) == 0) {
        return Err(DatasetError::SolutionBlank(c));
    }
    if let Some(&c) = solution.conflicts().first() {
        let (r, col, b) = units_of(c);
        let d = solution.get(c);
        let unit = (0..CELLS)
            .filter(|&o| o != c && solution.get(o) == d)
            .map(units_of)
            .find_map(|(r2, c2, b2)| {
                if r2 == r {
                    Some(format!("row {}", r + 1))
                } else if c2 == col {
                    Some(format!("column {}", col + 1))
                } else {
                    (b2 == b).then(|| format!("box {}", b + 1))
                }
            })
            .unwrap_or_default();
        return Err(DatasetError::SolutionRepeats { digit: d, unit });
    }
    if let Some(cell) = (0..CELLS).find(|&c| puzzle.get(c) != 0 && puzzle.get(c) != solution.get(c)) {
        return Err(DatasetError::Disagrees { cell, given: puzzle.get(cell), found: solution.get(cell) });
    }
    Ok(())
}

/// A row as a CSV line (no newline), `.` for blanks: what [`parse_row`] reads.
pub fn csv_line(row: &CsvRow) -> String {
    format!("{},{},{},{}", row.source, row.puzzle.to_text(), row.solution.to_text(), row.rating)
}

/// A whole file: the header, then one line per row.
pub fn write_csv(rows: &[CsvRow]) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for row in rows {
        out.push_str(&csv_line(row));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::GridError;
    use super::*;

    const Q: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const A: &str = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn file(rows: &[String]) -> String {
        format!("{HEADER}\n{}\n", rows.join("\n"))
    }

    #[test]
    fn good_rows_round_trip_and_zero_blanks_read_as_dots() {
        let rows = [format!("kaggle,{Q},{A},3"), format!("a,b,{},{A},0", Q.replace('.', "0")), String::new()];
        let read = read_csv(&file(&rows)).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!((read[0].source.as_str(), read[0].rating), ("kaggle", 3));
        assert_eq!(read[1].source, "a,b", "the source keeps its commas");
        assert_eq!(read[1].puzzle, read[0].puzzle);
        assert_eq!(read_csv(&write_csv(&read)).unwrap(), read);
        assert!(read_csv(&format!("{LONG_HEADER}\r\n{}\r\n", rows[0])).is_ok());
    }

    #[test]
    fn each_bad_row_names_its_line_and_what_is_wrong() {
        let good = format!("s,{Q},{A},1");
        let case = |bad: String, want: &str| {
            let err = read_csv(&file(&[good.clone(), good.clone(), bad])).unwrap_err();
            assert_eq!(err.line, 4, "{err}");
            assert!(err.to_string().contains(want), "{err} lacks {want:?}");
        };
        case(format!("s,{},{A},1", &Q[1..]), "q: a Sudoku has 81 cells, this line has 80");
        case(format!("s,x{},{A},1", &Q[1..]), "q: cell 1 (row 1, column 1) is 'x'");
        case(format!("s,{Q},{}.,1", &A[..80]), "a: the solution has a blank at cell 81");
        let mut swapped = A.as_bytes().to_vec();
        swapped[2] = b'5'; // row 1 now holds two 5s
        case(format!("s,{Q},{},1", String::from_utf8(swapped).unwrap()), "digit 5 repeats in row 1");
        // A valid grid with two digits relabelled everywhere: complete, conflict-free, not q's.
        let relabelled: String = A
            .chars()
            .map(|c| match c {
                '1' => '2',
                '2' => '1',
                c => c,
            })
            .collect();
        case(format!("s,{Q},{relabelled},1"), "a disagrees with q at cell");
        case(format!("s,{Q},{A},hard"), "rating \"hard\" is not a non-negative integer");
        case(format!("{Q},{A}"), "expected 4 fields");
        let err = read_csv(&format!("q,a\n{good}\n")).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.to_string().contains("the header must be"), "{err}");
    }

    /// A bad row's field is its variant: the line is the [`CsvError`]'s, what is wrong the
    /// [`DatasetError`]'s, the grid's own error kept whole.
    #[test]
    fn a_bad_row_is_a_variant_naming_its_field() {
        let row = |q: &str, a: &str, rating: &str| parse_row(&format!("s,{q},{a},{rating}")).unwrap_err();
        assert_eq!(row(&Q[1..], A, "1"), DatasetError::Puzzle(GridError::Length(80)));
        assert_eq!(row(Q, &A[1..], "1"), DatasetError::Solution(GridError::Length(80)));
        assert_eq!(row(Q, &format!("{}.", &A[..80]), "1"), DatasetError::SolutionBlank(80));
        assert_eq!(row(Q, A, "-1"), DatasetError::Rating("-1".into()));
        assert_eq!(parse_row(&format!("{Q},{A}")), Err(DatasetError::Fields(2)));
        let err = read_csv(&format!("{HEADER}\ns,{},{A},1\n", &Q[1..])).unwrap_err();
        assert_eq!(err, CsvError { line: 2, error: DatasetError::Puzzle(GridError::Length(80)) });
        assert_eq!(err.to_string(), "line 2: q: a Sudoku has 81 cells, this line has 80");
        let header = read_csv("q,a\n").unwrap_err();
        assert_eq!(header.error, DatasetError::Header { expected: HEADER, found: "q,a".into() });
        assert_eq!(header.to_string(), "line 1: the header must be \"source,q,a,rating\", not \"q,a\"");
    }
}
