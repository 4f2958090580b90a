//! `data import --format coloring --test`: graphs from elsewhere, read and checked by the task
//! (`engine::tasks::coloring::import`), written as a test import that `eval --data` scores, with
//! what the set holds and how many of its graphs the project's own dataset has.

use std::process::ExitCode;

use engine::tasks::coloring::GraphFileError;
use engine::tasks::coloring::import::{TEST_FILE, TEST_FORMAT, check_test_graphs, vertices_of};
use serde_json::json;

use crate::cli::ImportArgs;
use crate::gram::imports::{MANIFEST, pretty, print_written, publish};

pub fn import_coloring(a: &ImportArgs) -> Result<ExitCode, String> {
    let input = a.input.display();
    let text = crate::utf8::read(&a.input)?;
    let n = vertices_of(a.vertices, &text).map_err(|e| match e {
        // A bad --vertices is the flag's error, not the file's.
        GraphFileError::Vertices(_) => e.to_string(),
        e => format!("{input}: {e}"),
    })?;
    let import = check_test_graphs(&text, n).map_err(|e| format!("{input}: {e}"))?;
    let (fewest, median, most) = import.colourings;
    let lines: String = import.graphs.iter().map(|g| g.to_text() + "\n").collect();
    let manifest = json!({
        "format": TEST_FORMAT,
        "input": input.to_string(),
        "vertices": n,
        "graphs": import.graphs.len(),
        "duplicates": import.duplicates,
        "in_project_dataset": import.in_dataset,
        "colourings": { "fewest": fewest, "median": median, "most": most },
        "edge_density": import.edge_density,
    });
    let written = publish(&a.out, &[(TEST_FILE, lines.into_bytes()), (MANIFEST, pretty(&manifest))])?;
    println!("graphs: {} on {n} vertices, every one 3-colourable ({} a repeat of an earlier line)", import.graphs.len(), import.duplicates);
    println!("colourings per graph (up to renaming the colours): fewest {fewest}, median {median}, most {most}");
    println!("edge density: {:.3} (the project's {n}-vertex graphs: {:.3})", import.edge_density, import.project_density);
    let parts: Vec<String> = import.in_dataset.iter().map(|(p, k)| format!("{k} in its {p} part")).collect();
    let trained = match import.in_dataset.get("train") {
        Some(k) => format!("the models trained on those {k}"),
        None => "none the models trained on".into(),
    };
    println!(
        "in the project's dataset (the same graph, numbered the same): {}",
        if parts.is_empty() { "none".to_string() } else { format!("{} ({trained})", parts.join(", ")) }
    );
    println!("test: {} graphs (for eval --data only)", import.graphs.len());
    print_written(&written);
    Ok(ExitCode::SUCCESS)
}
