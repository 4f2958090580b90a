//! The start page's headline rows that `/tree`'s shipped models answer: the paper's number,
//! typed from its table (named in the row), beside the field of the manifest that records ours
//! (`crate::headline`).

use crate::headline::{Headline, Unit};

/// This page's rows, in the order the start page shows them.
pub const ROWS: &[Headline] = &[Headline {
    experiment: "Tree route search, JEPA-Reasoner + Talker (JEPA-Reasoner paper, section 5.1)",
    measure: "exact match / right node is the major contributor",
    paper: "99.87% / 99.89%",
    weights: "reasoner-tree",
    fields: &[("/eval/eval/exact_match", Unit::Percent), ("/eval/eval/major_contributor", Unit::Percent)],
    route: "/tree",
}];
