//! The start page's headline rows that `/jepa`'s shipped models answer: the paper's number,
//! typed from its table (named in the row), beside the field of the manifest that records ours
//! (`crate::headline`).

use crate::headline::{Headline, Unit};

/// This page's rows, in the order the start page shows them.
pub const ROWS: &[Headline] = &[
    Headline {
        experiment: "English to regex, LM + LLM-JEPA (LLM-JEPA paper, NL-RX; the paper fine-tunes 1B-8B LLMs: no comparable number)",
        measure: "regexes right in meaning",
        paper: "—",
        weights: "regex-llm-jepa",
        fields: &[("/eval/score/semantic", Unit::Share)],
        route: "/jepa",
    },
    Headline {
        experiment: "English to regex, LM alone (LLM-JEPA paper's baseline)",
        measure: "regexes right in meaning",
        paper: "—",
        weights: "regex-lm",
        fields: &[("/eval/score/semantic", Unit::Share)],
        route: "/jepa",
    },
];
