//! Graphs written the way other sources write them, read onto the models' vertex count: the
//! task's own line (the upper triangle, [`Graph::parse`]), an edge list (`0-1 0-2 1-2`,
//! `(0, 1), (1, 2)`, one edge per line or all on one line; vertices numbered from 0, as on the
//! page), a DIMACS graph (`p edge N M`, then `e u v` lines numbered from 1; `c` lines are
//! comments) or an adjacency matrix (k rows of k `0`/`1`, k >= 3). A graph on fewer vertices
//! than the model's is read with the rest of them isolated: its colourings are the model's
//! graph's, restricted. [`read_graph_file`] reads a file of them (one per line, or DIMACS
//! blocks) for `data import --format coloring`.

use super::graph::{Graph, pair_count};
use super::paste_error::PasteError;

/// Characters that separate the numbers of an edge list.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || ",;()[]{}-:<>–".contains(c)
}

/// The numbers of an edge list, or the first character that is neither a digit nor a separator.
fn numbers(text: &str) -> Result<Vec<usize>, PasteError> {
    let mut out = Vec::new();
    for word in text.split(is_separator).filter(|w| !w.is_empty()) {
        match word.parse::<usize>() {
            Ok(v) => out.push(v),
            Err(_) if word.chars().all(|c| c.is_ascii_digit()) => return Err(PasteError::NotAVertex(word.to_string())),
            Err(_) => return Err(PasteError::NotAGraph(word.chars().find(|c| !c.is_ascii_digit()).unwrap_or('?'))),
        }
    }
    Ok(out)
}

/// Adds the edge (u, v) to `g`, with the vertex numbers as the text wrote them (`base` 0 or 1).
fn add_edge(g: &mut Graph, (u, v): (usize, usize), base: usize) -> Result<(), PasteError> {
    let n = g.n();
    if let Some(vertex) = [u, v].into_iter().find(|&x| x < base || x - base >= n) {
        return Err(PasteError::VertexBeyond { vertex, n, base });
    }
    if u == v {
        return Err(PasteError::SelfLoop(u));
    }
    g.set_edge(u - base, v - base, true);
    Ok(())
}

/// One line of a file or a one-line paste: the task's line (its length says its size) or an
/// edge list on `n` vertices.
fn one_line(line: &str, n: usize) -> Result<Graph, PasteError> {
    let t = line.trim();
    // One word longer than an edge is the task's line (its characters checked by Graph::parse).
    if t.chars().count() > 3 && !t.contains(is_separator) {
        if t.len() == pair_count(n) {
            return Ok(Graph::parse(t, n)?);
        }
        let found = t.chars().count();
        return Err(match [8, 10].into_iter().find(|&m| m != n && pair_count(m) == found) {
            Some(size) => PasteError::OtherSize { found, size, n },
            None if n == 8 || n == 10 => PasteError::LineLength(found),
            None => PasteError::LineLengthOf { expected: pair_count(n), found },
        });
    }
    edge_list(t, n)
}

fn edge_list(text: &str, n: usize) -> Result<Graph, PasteError> {
    let values = numbers(text)?;
    if values.len() % 2 == 1 {
        return Err(PasteError::OddNumbers(values.len()));
    }
    let mut g = Graph::empty(n);
    for pair in values.chunks(2) {
        add_edge(&mut g, (pair[0], pair[1]), 0)?;
    }
    Ok(g)
}

/// A DIMACS `p edge N M` line's N, checked against the model's `n`.
fn dimacs_vertices(line: &str, n: usize) -> Result<usize, PasteError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let count = match words.as_slice() {
        ["p", "edge" | "col", v, _] => v.parse::<usize>().ok(),
        _ => None,
    };
    match count {
        Some(v) if v <= n => Ok(v),
        Some(vertices) => Err(PasteError::DimacsTooLarge { vertices, n }),
        None => Err(PasteError::DimacsProblemLine(line.to_string())),
    }
}

/// An `e u v` line's edge.
fn dimacs_edge(line: &str) -> Result<(usize, usize), PasteError> {
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["e", u, v] => match (u.parse(), v.parse()) {
            (Ok(u), Ok(v)) => Ok((u, v)),
            _ => Err(PasteError::DimacsEdgeNumbers(line.to_string())),
        },
        _ => Err(PasteError::DimacsEdgeLine(line.to_string())),
    }
}

fn is_comment(line: &str) -> bool {
    line.starts_with('c') && (line.len() == 1 || line[1..].starts_with(char::is_whitespace)) || line.starts_with('#')
}

/// An adjacency matrix when `lines` (3 or more, each only `0`/`1` between separators) are k
/// rows of k entries; `None` when they are not shaped as one.
fn matrix(lines: &[&str], n: usize) -> Option<Result<Graph, PasteError>> {
    let rows: Vec<Vec<char>> =
        lines.iter().map(|l| l.chars().filter(|c| !(c.is_whitespace() || *c == ',')).collect::<Vec<char>>()).collect();
    let k = rows.len();
    if k < 3 || rows.iter().any(|r| r.len() != k || r.iter().any(|&c| c != '0' && c != '1')) {
        return None;
    }
    if k > n {
        return Some(Err(PasteError::MatrixTooLarge { k, n }));
    }
    let mut g = Graph::empty(n);
    for i in 0..k {
        if rows[i][i] == '1' {
            return Some(Err(PasteError::MatrixSelfLoop { vertex: i }));
        }
        for j in i + 1..k {
            if rows[i][j] != rows[j][i] {
                return Some(Err(PasteError::MatrixAsymmetric { i, j, ij: rows[i][j], ji: rows[j][i] }));
            }
            if rows[i][j] == '1' {
                g.set_edge(i, j, true);
            }
        }
    }
    Some(Ok(g))
}

impl Graph {
    /// Reads one pasted graph onto `n` vertices (module doc): the task's line, an edge list, a
    /// DIMACS graph or an adjacency matrix. The error says what was expected or which vertex or
    /// character does not fit.
    pub fn from_pasted(text: &str, n: usize) -> Result<Graph, PasteError> {
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty() && !is_comment(l)).collect();
        if lines.is_empty() {
            return Err(PasteError::Empty);
        }
        if lines.iter().any(|l| l.starts_with("p ")) || lines.iter().any(|l| l.starts_with("e ")) {
            let graphs = read_graph_file(text, n)?;
            return match graphs.as_slice() {
                [(_, g)] => Ok(g.clone()),
                _ => Err(PasteError::Several(graphs.len())),
            };
        }
        if let Some(m) = matrix(&lines, n) {
            return m;
        }
        match lines.as_slice() {
            [line] => one_line(line, n),
            _ => edge_list(&lines.join(" "), n),
        }
    }
}

/// Reads a pasted graph onto the first of `sizes` it fits (the page: its current size, then the
/// other), or says why it fits none (the reading at the largest size: a vertex beyond every
/// model's is named there).
pub fn from_pasted_onto(text: &str, sizes: &[usize]) -> Result<Graph, PasteError> {
    if let Some(g) = sizes.iter().find_map(|&n| Graph::from_pasted(text, n).ok()) {
        return Ok(g);
    }
    let largest = sizes.iter().copied().max().ok_or(PasteError::NoSize)?;
    Graph::from_pasted(text, largest)
}

/// The graphs of a file, with the line each starts on: one per line (the task's line or an edge
/// list), or DIMACS blocks (a `p` line, then its `e` lines); blank lines and comments (`c ...`,
/// `# ...`) are skipped. The first bad line is an error that names it.
pub fn read_graph_file(text: &str, n: usize) -> Result<Vec<(usize, Graph)>, PasteError> {
    let mut out: Vec<(usize, Graph)> = Vec::new();
    // The DIMACS graph being read: its index in `out` and its vertex count.
    let mut dimacs: Option<(usize, usize)> = None;
    for (k, raw) in text.lines().enumerate() {
        let (line, at) = (raw.trim(), k + 1);
        let fail = |e: PasteError| e.at_line(at);
        if line.is_empty() || is_comment(line) {
            continue;
        }
        if line.starts_with("p ") {
            let vertices = dimacs_vertices(line, n).map_err(fail)?;
            dimacs = Some((out.len(), vertices));
            out.push((at, Graph::empty(n)));
        } else if line.starts_with("e ") {
            let (index, vertices) = dimacs.ok_or_else(|| fail(PasteError::DimacsEdgeFirst))?;
            let (u, v) = dimacs_edge(line).map_err(fail)?;
            if u.max(v) > vertices {
                return Err(fail(PasteError::DimacsVertexBeyond { vertex: u.max(v), vertices }));
            }
            add_edge(&mut out[index].1, (u, v), 1).map_err(fail)?;
        } else {
            dimacs = None;
            out.push((at, one_line(line, n).map_err(fail)?));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::graph::GraphError;
    use super::*;

    /// The 5-cycle 0-1-2-3-4-0 plus the chord 0-2, on 8 vertices.
    fn expected(n: usize) -> Graph {
        let mut g = Graph::empty(n);
        for (i, j) in [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (0, 2)] {
            g.set_edge(i, j, true);
        }
        g
    }

    #[test]
    fn every_form_reads_the_same_graph() {
        let g = expected(8);
        let forms = [
            g.to_text(),
            "0-1 1-2 2-3 3-4 0-4 0-2".to_string(),
            "(0, 1), (1, 2), (2, 3), (3, 4), (0, 4), (0, 2)".to_string(),
            "0 1\n1 2\n2 3\n3 4\n4 0\n2 0\n".to_string(),
            "[[0,1],[1,2],[2,3],[3,4],[4,0],[0,2]]".to_string(),
            "c the 5-cycle with a chord\np edge 5 6\ne 1 2\ne 2 3\ne 3 4\ne 4 5\ne 1 5\ne 1 3\ne 3 1\n".to_string(),
            "0 1 1 0 1\n1 0 1 0 0\n1 1 0 1 0\n0 0 1 0 1\n1 0 0 1 0".to_string(),
            "01101\n10100\n11010\n00101\n10010".to_string(),
        ];
        for text in &forms {
            assert_eq!(Graph::from_pasted(text, 8).as_ref(), Ok(&g), "{text:?}");
        }
        assert_eq!(Graph::from_pasted("0-1 1-2 2-3 3-4 0-4 0-2", 10), Ok(expected(10)));
    }

    #[test]
    fn errors_say_what_does_not_fit() {
        let err = |t: &str| Graph::from_pasted(t, 8).unwrap_err().to_string();
        assert!(err("0-1 1-8").contains("vertex 8 is beyond this model's 8 vertices (numbered 0 to 7)"), "{}", err("0-1 1-8"));
        assert!(err("0-1 2").contains("two vertices per edge"));
        assert!(err("0-1 1-1").contains("joined to itself"));
        assert!(err("a-b").contains("'a' is not part of a graph"));
        assert!(err(&"0".repeat(45)).contains("a 10-vertex graph's line; these are 8-vertex graphs"));
        assert!(err(&"0".repeat(27)).contains("expected 28 characters (8 vertices) or 45 (10 vertices)"));
        assert!(err(&format!("2{}", "0".repeat(27))).contains("character 1 is '2'"));
        assert!(err("p edge 9 1\ne 1 9").contains("at most 8"));
        assert!(err("p edge 4 1\ne 1 5").contains("beyond the p line's 4 vertices"));
        assert!(err("e 1 2").contains("before its p edge"));
        assert!(err("010\n001\n100").contains("not symmetric"));
        assert!(err("110\n101\n010").contains("joins vertex 0 to itself"));
        assert!(err("   ").starts_with("no graph"));
        let two = format!("{}\n{}", "0".repeat(28), "1".repeat(28));
        assert!(err(&two).contains("is not a vertex number"), "{}", err(&two));
        assert!(err("c a comment\np edge 3 1\ne 1 4").starts_with("line 3: vertex 4"), "lines counted as pasted");
    }

    /// Each failure is its own variant, so a caller tells them apart without reading the words.
    #[test]
    fn errors_are_variants_a_caller_can_match() {
        let err = |t: &str| Graph::from_pasted(t, 8).unwrap_err();
        assert_eq!(err("0-1 1-8"), PasteError::VertexBeyond { vertex: 8, n: 8, base: 0 });
        assert_eq!(err("0-1 1-1"), PasteError::SelfLoop(1));
        assert_eq!(err(&"0".repeat(45)), PasteError::OtherSize { found: 45, size: 10, n: 8 });
        assert_eq!(err(&"0".repeat(27)), PasteError::LineLength(27));
        assert!(matches!(err(&format!("2{}", "0".repeat(27))), PasteError::Graph(GraphError::Char { index: 0, found: '2', .. })));
        assert_eq!(err("010\n001\n100"), PasteError::MatrixAsymmetric { i: 0, j: 1, ij: '1', ji: '0' });
        assert_eq!(err("   "), PasteError::Empty);
        assert_eq!(from_pasted_onto("0-1", &[]), Err(PasteError::NoSize));
        let beyond = err("p edge 4 1\ne 1 5");
        assert_eq!(beyond, PasteError::DimacsVertexBeyond { vertex: 5, vertices: 4 }.at_line(2));
        assert_eq!(beyond.to_string(), "line 2: vertex 5 is beyond the p line's 4 vertices");
        assert_eq!(
            err("0-1 1-9").to_string(),
            "vertex 9 is beyond this model's 8 vertices (numbered 0 to 7): an edge list numbers the vertices from 0 (DIMACS e lines from 1)"
        );
        assert_eq!(err("110\n101\n010").to_string(), "row 1 of the matrix joins vertex 0 to itself");
        assert_eq!(err("010\n001\n100").to_string(), "the matrix is not symmetric: row 1 column 2 is 1, row 2 column 1 is 0");
    }

    /// The page's reading: its current size first, then the other; a graph that fits neither is
    /// explained at the larger.
    #[test]
    fn a_paste_goes_onto_the_size_it_fits() {
        assert_eq!(from_pasted_onto("0-1 1-2", &[10, 8]).unwrap().n(), 10);
        assert_eq!(from_pasted_onto("0-1 1-9", &[8, 10]).unwrap().n(), 10);
        assert_eq!(from_pasted_onto(&"0".repeat(28), &[10, 8]).unwrap().n(), 8);
        let err = from_pasted_onto("0-1 1-12", &[8, 10]).unwrap_err();
        assert!(err.to_string().contains("beyond this model's 10 vertices"), "{err}");
        assert!(from_pasted_onto("0-0", &[8, 10]).unwrap_err().to_string().contains("joined to itself"));
    }

    #[test]
    fn a_file_holds_lines_and_dimacs_blocks() {
        let g = expected(8);
        let text = format!("# mixed\n{}\n\n0-1 1-2\np edge 3 2\ne 1 2\ne 2 3\n0-2\n", g.to_text());
        let graphs = read_graph_file(&text, 8).unwrap();
        let lines: Vec<usize> = graphs.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, vec![2, 4, 5, 8]);
        assert_eq!(graphs[0].1, g);
        assert_eq!(graphs[1].1, graphs[2].1, "0-1 1-2 and the DIMACS path 1-2-3 are one graph");
        assert_eq!(graphs[3].1.edges(), vec![(0, 2)]);
        let bad = read_graph_file("0-1\n0-9\n", 8).unwrap_err();
        assert_eq!(bad, PasteError::VertexBeyond { vertex: 9, n: 8, base: 0 }.at_line(2));
        assert!(bad.to_string().starts_with("line 2: vertex 9"), "{bad}");
    }
}
