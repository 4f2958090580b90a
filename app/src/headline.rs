//! The headline results the start page shows: each experiment of the four papers that a shipped
//! model answers, the paper's number beside ours. A row lives in the folder of the page that runs
//! its model (`ui/<page>/headline.rs`, gathered in the `HEADLINES` of `ui/mod.rs`); the paper's
//! number is the paper's (typed there from its table, with the table named); ours is read at run
//! time from the shipped weights' manifest (`public/weights/<name>.json`, its recorded `eval`),
//! never typed. The README's results table has these rows and more (ablations, PTRM, the grammar
//! and language-model studies, which ship no manifest number of their own). Plain Rust, tested
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

    fn rows() -> impl Iterator<Item = &'static Headline> {
        crate::ui::HEADLINES.into_iter().flatten()
    }

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
        for row in rows() {
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
        assert_eq!(ours(rows().next().unwrap(), &missing), None, "a missing field is said, not guessed");
    }

    /// The README's results table shows, for each of these rows, the paper's number and the one
    /// the shipped manifest records: retraining a model without updating the README fails here.
    #[test]
    fn the_readme_table_agrees_with_the_manifests() {
        let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
        for row in rows() {
            let ours = ours(row, &manifest(row.weights)).unwrap();
            let found = readme.lines().any(|l| l.starts_with('|') && l.contains(row.paper) && l.contains(&ours));
            assert!(found, "README.md: no table row with the paper's {} and our {ours} ({})", row.paper, row.experiment);
        }
    }
}
