//! The start page's headline rows that `/coloring`'s shipped models answer: the paper's number,
//! typed from its table (named in the row), beside the field of the manifest that records ours
//! (`crate::headline`).

use crate::headline::{Headline, Unit};

/// This page's rows, in the order the start page shows them.
pub const ROWS: &[Headline] = &[
    Headline {
        experiment: "Graph 3-colouring, 8 vertices, GRAM (GRAM paper, Table 1)",
        measure: "conflict edges / coverage@20",
        paper: "1 / 86.0%",
        weights: "gram-coloring8",
        fields: &[("/eval/extra/conflict_edges", Unit::Plain), ("/eval/coverage", Unit::Percent)],
        route: "/coloring",
    },
    Headline {
        experiment: "Graph 3-colouring, 8 vertices, TRM (GRAM paper, Table 1)",
        measure: "conflict edges / coverage@20",
        paper: "112 / 21.9%",
        weights: "trm-coloring8",
        fields: &[("/eval/extra/conflict_edges", Unit::Plain), ("/eval/coverage", Unit::Percent)],
        route: "/coloring?model=trm",
    },
    Headline {
        experiment: "Graph 3-colouring, 10 vertices, GRAM (GRAM paper, Table 1)",
        measure: "conflict edges / coverage@20",
        paper: "3 / 53.5%",
        weights: "gram-coloring10",
        fields: &[("/eval/extra/conflict_edges", Unit::Plain), ("/eval/coverage", Unit::Percent)],
        route: "/coloring?size=10",
    },
    Headline {
        experiment: "Graph 3-colouring, 10 vertices, TRM (GRAM paper, Table 1)",
        measure: "conflict edges / coverage@20",
        paper: "175 / 6.5%",
        weights: "trm-coloring10",
        fields: &[("/eval/extra/conflict_edges", Unit::Plain), ("/eval/coverage", Unit::Percent)],
        route: "/coloring?size=10&model=trm",
    },
];
