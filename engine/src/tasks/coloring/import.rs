//! Graphs from elsewhere as a test set (`data import --format coloring --test`, then `eval
//! --data`): which models a file is for, every graph read and checked to be 3-colourable, what the
//! set holds (colourings, density, repeats), and how many of its graphs the project's own dataset
//! already has, in which part, so a score on graphs the models trained on is not taken for one on
//! new graphs. The trainer writes and reads the import directory; the rules are here.

use std::collections::{BTreeMap, BTreeSet};

use super::import_error::GraphFileError;
use super::{Graph, Instance, canonical_colourings, count_colourings, dataset, pair_count, part_of, read_graph_file, uncolourable};

/// The `format` a colouring test import's manifest names.
pub const TEST_FORMAT: &str = "coloring-test";
/// The file of a colouring test import that holds its graphs, one line each in the task's format.
pub const TEST_FILE: &str = "test.txt";

/// A file of graphs, checked.
#[derive(Debug)]
pub struct TestImport {
    /// The models' vertex count the graphs were read onto.
    pub vertices: usize,
    pub graphs: Vec<Graph>,
    /// Graphs that repeat an earlier one (the same text).
    pub duplicates: usize,
    /// Graphs the project's own dataset holds (the same graph, numbered the same), per part.
    pub in_dataset: BTreeMap<String, usize>,
    /// Colourings per graph, up to renaming the colours: fewest, median, most.
    pub colourings: (usize, usize, usize),
    /// Edges over vertex pairs, of these graphs and of the project's dataset.
    pub edge_density: f64,
    pub project_density: f64,
}

/// The models' vertex count: `explicit` (`--vertices`), else the length of the file's first
/// line in the task's format (28 characters: 8 vertices, 45: 10).
pub fn vertices_of(explicit: Option<usize>, text: &str) -> Result<usize, GraphFileError> {
    let n = match explicit {
        Some(n) => n,
        None => {
            let first = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with(['#', 'c']));
            match first.map(|l| l.chars().count()) {
                Some(28) => 8,
                Some(45) => 10,
                _ => return Err(GraphFileError::VerticesUnsaid),
            }
        }
    };
    if n != 8 && n != 10 {
        return Err(GraphFileError::Vertices(n));
    }
    Ok(n)
}

/// Reads and checks a file of graphs (the task's lines, edge lists, DIMACS) onto `n` vertices:
/// every graph must be 3-colourable.
pub fn check_test_graphs(text: &str, n: usize) -> Result<TestImport, GraphFileError> {
    let read = read_graph_file(text, n)?;
    if read.is_empty() {
        return Err(GraphFileError::NoGraphs);
    }
    for (line, g) in &read {
        if let Some(reason) = uncolourable(g) {
            return Err(GraphFileError::Uncolourable { line: *line, reason });
        }
    }
    let graphs: Vec<Graph> = read.into_iter().map(|(_, g)| g).collect();
    let project = dataset(n);
    let density = |gs: &mut dyn Iterator<Item = &Graph>, count: usize| {
        gs.map(|g| g.edges().len()).sum::<usize>() as f64 / (count * pair_count(n)) as f64
    };
    let project_density = density(&mut project.iter().map(|i| &i.graph), project.len());
    let known: BTreeMap<String, String> = project.into_iter().map(|i| (i.graph.to_text(), part_of(&i.graph).name().to_string())).collect();
    let (mut in_dataset, mut seen, mut duplicates) = (BTreeMap::new(), BTreeSet::new(), 0);
    for g in &graphs {
        if let Some(part) = known.get(&g.to_text()) {
            *in_dataset.entry(part.clone()).or_default() += 1;
        }
        duplicates += usize::from(!seen.insert(g.to_text()));
    }
    let mut counts: Vec<usize> = graphs.iter().map(|g| count_colourings(g, usize::MAX)).collect();
    counts.sort_unstable();
    let colourings = (counts[0], counts[counts.len() / 2], counts[counts.len() - 1]);
    let edge_density = density(&mut graphs.iter(), graphs.len());
    Ok(TestImport { vertices: n, graphs, duplicates, in_dataset, colourings, edge_density, project_density })
}

/// A test import's lines (the task's format, one graph each) with every colouring: what `eval
/// --data` scores. Each graph is checked again.
pub fn read_test_lines(text: &str, n: usize) -> Result<Vec<Instance>, GraphFileError> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let graph = Graph::parse(line, n).map_err(|source| GraphFileError::TestLine { line: k + 1, source })?;
        let colourings = canonical_colourings(&graph);
        if colourings.is_empty() {
            return Err(GraphFileError::TestLineUncolourable(k + 1));
        }
        out.push(Instance { graph, colourings });
    }
    if out.is_empty() {
        return Err(GraphFileError::NoTestGraphs);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file's first line names its models; a triangle and a training graph are read, counted
    /// and placed; an impossible graph (K4) and a file of nothing are refused.
    #[test]
    fn a_file_of_graphs_is_checked_and_placed() {
        let train = dataset(8).into_iter().find(|i| part_of(&i.graph) == crate::tasks::split::Part::Train).unwrap().graph;
        assert_eq!(vertices_of(None, &train.to_text()), Ok(8));
        assert_eq!(vertices_of(None, "0-1 1-2\n"), Err(GraphFileError::VerticesUnsaid));
        assert!(vertices_of(None, "0-1 1-2\n").unwrap_err().to_string().contains("--vertices 8 or --vertices 10"));
        assert_eq!(vertices_of(Some(9), ""), Err(GraphFileError::Vertices(9)));
        assert!(vertices_of(Some(9), "").unwrap_err().to_string().starts_with("--vertices 9: "));
        let text = format!("{}\n# a triangle\n0-1 1-2 2-0\n\n{}\n", train.to_text(), train.to_text());
        let import = check_test_graphs(&text, 8).unwrap();
        assert_eq!(import.graphs.len(), 3);
        assert_eq!(import.duplicates, 1);
        assert_eq!(import.in_dataset.get("train"), Some(&2));
        assert!(import.colourings.0 >= 1 && import.edge_density > 0.0 && import.project_density > 0.0);
        let k4 = "0-1 0-2 0-3 1-2 1-3 2-3\n";
        let err = check_test_graphs(k4, 8).unwrap_err();
        assert_eq!(err, GraphFileError::Uncolourable { line: 1, reason: super::super::ColoringError::FourClique([0, 1, 2, 3]) });
        assert!(err.to_string().ends_with("; a test graph needs a colouring to find"), "{err}");
        assert_eq!(check_test_graphs("# nothing\n", 8).unwrap_err(), GraphFileError::NoGraphs);
        assert!(matches!(
            check_test_graphs("0-1\n0-9\n", 8),
            Err(GraphFileError::Graphs(super::super::PasteError::AtLine { line: 2, .. }))
        ));
        let lines: String = import.graphs.iter().map(|g| g.to_text() + "\n").collect();
        assert_eq!(read_test_lines(&lines, 8).unwrap().len(), 3);
        assert_eq!(read_test_lines("\n", 8).unwrap_err(), GraphFileError::NoTestGraphs);
        assert_eq!(read_test_lines(&format!("{lines}{}", "1".repeat(28)), 8).unwrap_err(), GraphFileError::TestLineUncolourable(4));
    }
}
