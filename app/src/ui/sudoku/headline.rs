//! The start page's headline rows that `/sudoku`'s shipped models answer: the paper's number,
//! typed from its table (named in the row), beside the field of the manifest that records ours
//! (`crate::headline`).

use crate::headline::{Headline, Unit};

/// This page's rows, in the order the start page shows them.
pub const ROWS: &[Headline] = &[
    Headline {
        experiment: "Sudoku, GRAM (GRAM paper, Figure 3: Sudoku-Extreme; ours: generated puzzles)",
        measure: "solved, vote of 20",
        paper: "97.0%",
        weights: "gram-sudoku",
        fields: &[("/eval/extra/vote@20", Unit::Percent)],
        route: "/sudoku",
    },
    Headline {
        experiment: "Sudoku, TRM (GRAM paper, Figure 3: Sudoku-Extreme; ours: generated puzzles)",
        measure: "solved, vote of 20",
        paper: "87.4%",
        weights: "trm-sudoku",
        fields: &[("/eval/extra/vote@20", Unit::Percent)],
        route: "/sudoku?model=trm",
    },
];
