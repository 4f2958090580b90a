//! The start page's headline rows that `/nqueens`'s shipped models answer: the paper's number,
//! typed from its table (named in the row), beside the field of the manifest that records ours
//! (`crate::headline`).

use crate::headline::{Headline, Unit};

/// This page's rows, in the order the start page shows them.
pub const ROWS: &[Headline] = &[
    Headline {
        experiment: "8x8 N-Queens, GRAM (GRAM paper, Table 1)",
        measure: "accuracy / coverage@20",
        paper: "99.7% / 88.1%",
        weights: "gram-nqueens8",
        fields: &[("/eval/accuracy", Unit::Percent), ("/eval/coverage", Unit::Percent)],
        route: "/nqueens",
    },
    Headline {
        experiment: "8x8 N-Queens, TRM (GRAM paper, Table 1)",
        measure: "accuracy / coverage@20",
        paper: "72.9% / 23.1%",
        weights: "trm-nqueens8",
        fields: &[("/eval/accuracy", Unit::Percent), ("/eval/coverage", Unit::Percent)],
        route: "/nqueens?model=trm",
    },
    Headline {
        experiment: "10x10 N-Queens, GRAM (GRAM paper, Table 1)",
        measure: "accuracy / coverage@20",
        paper: "90.3% / 53.7%",
        weights: "gram-nqueens10",
        fields: &[("/eval/accuracy", Unit::Percent), ("/eval/coverage", Unit::Percent)],
        route: "/nqueens?size=10",
    },
    Headline {
        experiment: "10x10 N-Queens, TRM (GRAM paper, Table 1)",
        measure: "accuracy / coverage@20",
        paper: "24.3% / 2.5%",
        weights: "trm-nqueens10",
        fields: &[("/eval/accuracy", Unit::Percent), ("/eval/coverage", Unit::Percent)],
        route: "/nqueens?size=10&model=trm",
    },
];
