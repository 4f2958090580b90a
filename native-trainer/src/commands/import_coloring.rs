//! `data import --format coloring --test`: graphs from elsewhere (the task's lines, edge lists,
//! DIMACS blocks: `engine::tasks::coloring::read_graph_file`), every one checked to be
//! 3-colourable, written as a test import that `eval --data` scores. It also says how many of
//! them the project's own dataset holds, and in which part, so a score on graphs the models
//! trained on is not taken for one on new graphs.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::process::ExitCode;

use engine::tasks::coloring::{Graph, count_colourings, dataset, impossible_reason, pair_count, part_of, read_graph_file};
use serde_json::json;

use crate::cli::ImportArgs;
use crate::gram::imports::{COLORING_TEST, MANIFEST, pretty, print_written, publish};

/// The models' vertex count: `--vertices`, else the length of the file's first line in the
/// task's format.
fn vertices(a: &ImportArgs, text: &str) -> Result<usize, String> {
    let n = match a.vertices {
        Some(n) => n,
        None => {
            let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with(['#', 'c']));
            match first.map(|l| l.chars().count()) {
                Some(28) => 8,
                Some(45) => 10,
                _ => return Err(format!("{}: say which models the graphs are for: --vertices 8 or --vertices 10 (only a file that starts with the task's 28- or 45-character line says it itself)", a.input.display())),
            }
        }
    };
    if n != 8 && n != 10 {
        return Err(format!("--vertices {n}: the colouring models have 8 or 10 vertices (a smaller graph is read with the rest isolated)"));
    }
    Ok(n)
}

pub fn import_coloring(a: &ImportArgs) -> Result<ExitCode, String> {
    let text = fs::read_to_string(&a.input).map_err(|e| format!("{}: {e}", a.input.display()))?;
    let n = vertices(a, &text)?;
    let graphs = read_graph_file(&text, n).map_err(|e| format!("{}: {e}", a.input.display()))?;
    if graphs.is_empty() {
        return Err(format!("{}: no graph in this file", a.input.display()));
    }
    for (line, g) in &graphs {
        if let Some(reason) = impossible_reason(g) {
            return Err(format!("{}: line {line}: {reason}; a test graph needs a colouring to find", a.input.display()));
        }
    }
    // Where the project's own dataset has these graphs (the same text: the same graph with the same numbering).
    let project = dataset(n);
    let project_density = project.iter().map(|i| i.graph.edges().len()).sum::<usize>() as f64 / (project.len() * pair_count(n)) as f64;
    let known: BTreeMap<String, String> = project.into_iter().map(|i| (i.graph.to_text(), part_of(&i.graph).name().to_string())).collect();
    let mut in_dataset: BTreeMap<String, usize> = BTreeMap::new();
    let mut seen = BTreeSet::new();
    let mut duplicates = 0;
    for (_, g) in &graphs {
        if let Some(part) = known.get(&g.to_text()) {
            *in_dataset.entry(part.clone()).or_default() += 1;
        }
        duplicates += usize::from(!seen.insert(g.to_text()));
    }
    let mut counts: Vec<usize> = graphs.iter().map(|(_, g)| count_colourings(g, usize::MAX)).collect();
    counts.sort_unstable();
    let edges: Vec<usize> = graphs.iter().map(|(_, g)| g.edges().len()).collect();
    let lines: String = graphs.iter().map(|(_, g): &(usize, Graph)| g.to_text() + "\n").collect();
    let manifest = json!({
        "format": "coloring-test",
        "input": a.input.display().to_string(),
        "vertices": n,
        "graphs": graphs.len(),
        "duplicates": duplicates,
        "in_project_dataset": in_dataset,
        "colourings": { "fewest": counts[0], "median": counts[counts.len() / 2], "most": counts[counts.len() - 1] },
        "edge_density": edges.iter().sum::<usize>() as f64 / (graphs.len() * pair_count(n)) as f64,
    });
    let written = publish(&a.out, &[(COLORING_TEST, lines.into_bytes()), (MANIFEST, pretty(&manifest))])?;
    println!("graphs: {} on {n} vertices, every one 3-colourable ({duplicates} a repeat of an earlier line)", graphs.len());
    println!("colourings per graph (up to renaming the colours): fewest {}, median {}, most {}", counts[0], counts[counts.len() / 2], counts[counts.len() - 1]);
    println!("edge density: {:.3} (the project's {n}-vertex graphs: {project_density:.3})", manifest["edge_density"].as_f64().unwrap_or(0.0));
    let parts: Vec<String> = in_dataset.iter().map(|(p, k)| format!("{k} in its {p} part")).collect();
    let trained = match in_dataset.get("train") {
        Some(k) => format!("the models trained on those {k}"),
        None => "none the models trained on".into(),
    };
    println!(
        "in the project's dataset (the same graph, numbered the same): {}",
        if parts.is_empty() { "none".to_string() } else { format!("{} ({trained})", parts.join(", ")) }
    );
    println!("test: {} graphs (for eval --data only)", graphs.len());
    print_written(&written);
    Ok(ExitCode::SUCCESS)
}
