//! The headline results the start page shows: each experiment of the four papers that a shipped
//! model answers, the paper's number beside ours. The paper's number is the paper's (typed here
//! from its table, with the table named); ours is read at run time from the shipped weights'
//! manifest (`public/weights/<name>.json`, its recorded `eval`), never typed. Plain Rust, tested
//! natively: every row's fields exist in the shipped manifests, and the README's results table
//! shows the same numbers.

use serde_json::Value;

/// How a manifest's number is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unit {
    /// Already a percentage: `99.33` is 99.33%.
    Percent,
    /// A share in [0, 1]: `0.9678` is 96.78%.
    Share,
    /// A plain number (conflict edges, FID, IS).
    Plain,
}

/// One row: an experiment, the paper's figure, and where ours is recorded.
#[derive(Clone, Copy, Debug)]
pub struct Headline {
    /// The experiment and the paper's table, as a visitor reads it.
    pub experiment: &'static str,
    /// What the numbers are, e.g. "accuracy / coverage@20".
    pub measure: &'static str,
    /// The paper's numbers, in the same order as `fields`.
    pub paper: &'static str,
    /// The shipped weights whose manifest records ours.
    pub weights: &'static str,
    /// JSON pointers into the manifest, each to one number.
    pub fields: &'static [(&'static str, Unit)],
    /// The page (and settings) where a visitor can try the model.
    pub route: &'static str,
}

/// Every headline row a shipped manifest answers. The README's results table has these rows and
/// more (ablations, PTRM, the grammar and language-model studies, which ship no manifest number
/// of their own), each linked to its results page.
pub const HEADLINES: &[Headline] = &[
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
    Headline {
        experiment: "Tree route search, JEPA-Reasoner + Talker (JEPA-Reasoner paper, section 5.1)",
        measure: "exact match / right node is the major contributor",
        paper: "99.87% / 99.89%",
        weights: "reasoner-tree",
        fields: &[("/eval/eval/exact_match", Unit::Percent), ("/eval/eval/major_contributor", Unit::Percent)],
        route: "/tree",
    },
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

/// A number as the tables show it: at most two decimals, trailing zeros dropped.
pub fn show(value: f64, unit: Unit) -> String {
    let v = if unit == Unit::Share { 100.0 * value } else { value };
    let mut s = format!("{v:.2}");
    while s.contains('.') && (s.ends_with('0') || s.ends_with('.')) {
        s.pop();
    }
    if unit == Unit::Plain { s } else { format!("{s}%") }
}

/// Our numbers for `row` from its manifest, joined as the paper's are (`a / b`); `None` when the
/// manifest lacks one (the page then says so rather than show a guess).
pub fn ours(row: &Headline, manifest: &Value) -> Option<String> {
    let parts: Option<Vec<String>> = row.fields.iter().map(|(ptr, unit)| manifest.pointer(ptr)?.as_f64().map(|v| show(v, *unit))).collect();
    Some(parts?.join(" / "))
}

/// Where the manifest of `weights` is, under the site's root.
pub fn manifest_path(weights: &str) -> String {
    format!("{}/{weights}.json", crate::base_path::WEIGHTS_PATH)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    fn manifest(name: &str) -> Value {
        serde_json::from_str(&std::fs::read_to_string(root().join(format!("public/weights/{name}.json"))).unwrap()).unwrap()
    }

    #[test]
    fn numbers_are_shown_as_the_tables_write_them() {
        assert_eq!(show(99.33, Unit::Percent), "99.33%");
        assert_eq!(show(91.30000001, Unit::Percent), "91.3%");
        assert_eq!(show(0.9677716, Unit::Share), "96.78%");
        assert_eq!(show(48.0, Unit::Plain), "48");
        assert_eq!(show(80.884, Unit::Plain), "80.88");
    }

    #[test]
    fn every_row_reads_from_a_shipped_manifest() {
        for row in HEADLINES {
            let m = manifest(row.weights);
            let ours = ours(row, &m).unwrap_or_else(|| panic!("{}: a field is missing from {}.json", row.experiment, row.weights));
            assert_eq!(
                ours.split(" / ").count(),
                row.paper.split(" / ").count(),
                "{}: ours {ours} against the paper's {}",
                row.experiment,
                row.paper
            );
            assert!(crate::pages::page(row.route).is_some(), "{}", row.route);
        }
        let missing = serde_json::json!({"eval": {"accuracy": 1.0}});
        assert_eq!(ours(&HEADLINES[0], &missing), None, "a missing field is said, not guessed");
    }

    /// The README's results table shows, for each of these rows, the paper's number and the one
    /// the shipped manifest records: retraining a model without updating the README fails here.
    #[test]
    fn the_readme_table_agrees_with_the_manifests() {
        let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
        for row in HEADLINES {
            let ours = ours(row, &manifest(row.weights)).unwrap();
            let found = readme.lines().any(|l| l.starts_with('|') && l.contains(row.paper) && l.contains(&ours));
            assert!(found, "README.md: no table row with the paper's {} and our {ours} ({})", row.paper, row.experiment);
        }
    }
}
