//! The start page's headline rows that `/generate`'s shipped models answer: the paper's number,
//! typed from its table (named in the row), beside the field of the manifest that records ours
//! (`crate::headline`).

use crate::headline::{Headline, Unit};

/// This page's rows, in the order the start page shows them.
pub const ROWS: &[Headline] = &[
    Headline {
        experiment: "Binarized MNIST digits from nothing, p(x), GRAM at 8 steps (GRAM paper, Table 2; our IS classifier is our own)",
        measure: "IS / FID",
        paper: "1.85 / 84.08",
        weights: "gram-digits",
        fields: &[("/eval/extra/IS", Unit::Plain), ("/eval/extra/FID", Unit::Plain)],
        route: "/generate?kind=digits",
    },
    Headline {
        experiment: "Binarized MNIST digits from nothing, p(x), TRM (GRAM paper, Table 2)",
        measure: "IS / FID",
        paper: "1.00 / 303.29",
        weights: "trm-digits",
        fields: &[("/eval/extra/IS", Unit::Plain), ("/eval/extra/FID", Unit::Plain)],
        route: "/generate?kind=digits&model=trm",
    },
];
