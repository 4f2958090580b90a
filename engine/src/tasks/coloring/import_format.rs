//! `data import --format coloring --test`: graphs from elsewhere, read and checked by
//! [`super::import`], written as a test import that `eval --data` scores, with what the set holds
//! and how many of its graphs the project's own dataset has.

use serde_json::json;

use super::import::{TEST_FILE, TEST_FORMAT, check_test_graphs, vertices_of};
use super::import_error::GraphFileError;
use crate::tasks::{ImportFormat, ImportOption, ImportRequest, Imported};

/// The `--format` name of graphs from elsewhere.
pub const FORMAT: &str = "coloring";

/// The task's import format: a test set, for the models of `--vertices` (or of the file's first
/// line).
pub fn import_format() -> ImportFormat {
    ImportFormat { name: FORMAT, takes: &[ImportOption::Test, ImportOption::Size], check, import }
}

/// A colouring import is a test set: `--test` is required.
fn check(request: &ImportRequest) -> Result<(), String> {
    if !request.test {
        return Err(
            "a colouring import is a test set for `eval --data`: add --test (the colouring models train on the task's own graphs)".into()
        );
    }
    Ok(())
}

/// The file's graphs, checked, as the test file and its manifest, and the lines that say what
/// the set holds.
fn import(request: &ImportRequest, input: &str, text: &str) -> Result<Imported, String> {
    let n = vertices_of(request.size, text).map_err(|e| match e {
        // A bad --vertices is the flag's error, not the file's.
        GraphFileError::Vertices(_) => e.to_string(),
        e => format!("{input}: {e}"),
    })?;
    let import = check_test_graphs(text, n).map_err(|e| format!("{input}: {e}"))?;
    let (fewest, median, most) = import.colourings;
    let graph_lines: String = import.graphs.iter().map(|g| g.to_text() + "\n").collect();
    let manifest = json!({
        "format": TEST_FORMAT,
        "input": input,
        "vertices": n,
        "graphs": import.graphs.len(),
        "duplicates": import.duplicates,
        "in_project_dataset": import.in_dataset,
        "colourings": { "fewest": fewest, "median": median, "most": most },
        "edge_density": import.edge_density,
    });
    let parts: Vec<String> = import.in_dataset.iter().map(|(p, k)| format!("{k} in its {p} part")).collect();
    let trained = match import.in_dataset.get("train") {
        Some(k) => format!("the models trained on those {k}"),
        None => "none the models trained on".into(),
    };
    let lines = vec![
        format!(
            "graphs: {} on {n} vertices, every one 3-colourable ({} a repeat of an earlier line)",
            import.graphs.len(),
            import.duplicates
        ),
        format!("colourings per graph (up to renaming the colours): fewest {fewest}, median {median}, most {most}"),
        format!("edge density: {:.3} (the project's {n}-vertex graphs: {:.3})", import.edge_density, import.project_density),
        format!(
            "in the project's dataset (the same graph, numbered the same): {}",
            if parts.is_empty() { "none".to_string() } else { format!("{} ({trained})", parts.join(", ")) }
        ),
        format!("test: {} graphs (for eval --data only)", import.graphs.len()),
    ];
    Ok(Imported { files: vec![(TEST_FILE, graph_lines.into_bytes())], manifest, lines })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--test` is required; a triangle is written as the task's line with its manifest; a bad
    /// `--vertices` is the flag's error, a file's is led by its name.
    #[test]
    fn a_file_of_graphs_is_written_as_a_test_import() {
        let test = ImportRequest { test: true, size: Some(8), ..ImportRequest::default() };
        assert!(check(&ImportRequest::default()).unwrap_err().contains("add --test"));
        assert_eq!(check(&test), Ok(()));
        let out = import(&test, "g.txt", "0-1 1-2 2-0\n").unwrap();
        assert_eq!(out.files.len(), 1);
        assert_eq!(out.files[0].0, TEST_FILE);
        assert_eq!(out.manifest["format"], TEST_FORMAT);
        assert_eq!(out.manifest["input"], "g.txt");
        assert_eq!(out.manifest["vertices"], 8);
        assert!(out.lines[0].starts_with("graphs: 1 on 8 vertices"), "{:?}", out.lines);
        assert_eq!(out.lines[4], "test: 1 graphs (for eval --data only)");
        let flag = import(&ImportRequest { size: Some(9), ..test.clone() }, "g.txt", "0-1\n").unwrap_err();
        assert!(flag.starts_with("--vertices 9: "), "{flag}");
        assert_eq!(import(&test, "g.txt", "# nothing\n").unwrap_err(), "g.txt: no graph in this file");
    }
}
