//! The exact oracle: every 3-colouring of a graph up to a permutation of the colours, by
//! backtracking over canonical forms only (vertex i may take a colour already used by vertices
//! 0..i, or the first unused one), so each class of 3! (or 2!, or 1) colourings is met once.

use super::graph::{COLOURS, Colouring, Graph};

/// Every proper 3-colouring of `graph` in canonical form (see [`Colouring::canonical`]), in
/// lexicographic order. Empty when the graph is not 3-colourable.
pub fn canonical_colourings(graph: &Graph) -> Vec<Colouring> {
    let mut out = Vec::new();
    let mut colours = vec![0u8; graph.n()];
    search(graph, 0, 0, &mut colours, &mut |c| out.push(Colouring::new(c.to_vec())), usize::MAX);
    out
}

/// How many canonical 3-colourings `graph` has, stopping at `limit`.
pub fn count_colourings(graph: &Graph, limit: usize) -> usize {
    let mut count = 0;
    let mut colours = vec![0u8; graph.n()];
    search(graph, 0, 0, &mut colours, &mut |_| count += 1, limit);
    count
}

/// Whether `graph` has a proper 3-colouring.
pub fn is_3_colourable(graph: &Graph) -> bool {
    count_colourings(graph, 1) > 0
}

/// Colours vertex `v` onwards; `used` colours are taken by vertices before `v`. Returns the
/// number of colourings reported, stopping once `limit` are.
fn search(graph: &Graph, v: usize, used: u8, colours: &mut [u8], report: &mut dyn FnMut(&[u8]), limit: usize) -> usize {
    if v == graph.n() {
        report(colours);
        return 1;
    }
    let mut found = 0;
    for c in 0..(used + 1).min(COLOURS) {
        let clash = (0..v).any(|u| graph.neighbours(v) >> u & 1 == 1 && colours[u] == c);
        if clash {
            continue;
        }
        colours[v] = c;
        found += search(graph, v + 1, used.max(c + 1), colours, report, limit - found);
        if found >= limit {
            break;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over all 3^n maps, canonicalised and deduplicated.
    fn brute(graph: &Graph) -> Vec<Colouring> {
        let n = graph.n();
        let mut set = std::collections::BTreeSet::new();
        for code in 0..3usize.pow(n as u32) {
            let c: Vec<u8> = (0..n).map(|i| (code / 3usize.pow(i as u32) % 3) as u8).collect();
            let c = Colouring::new(c);
            if graph.is_coloured_by(&c) {
                set.insert(c.canonical());
            }
        }
        set.into_iter().collect()
    }

    #[test]
    fn matches_brute_force_on_small_graphs() {
        let mut state = 5u64;
        for _ in 0..60 {
            let mut g = Graph::empty(6);
            for (i, j) in super::super::graph::pairs(6) {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                if state >> 33 & 1 == 1 {
                    g.set_edge(i, j, true);
                }
            }
            let found = canonical_colourings(&g);
            assert_eq!(found, brute(&g), "graph {}", g.to_text());
            assert_eq!(count_colourings(&g, usize::MAX), found.len());
            assert_eq!(is_3_colourable(&g), !found.is_empty());
            assert!(found.iter().all(|c| c.canonical() == *c && g.is_coloured_by(c)));
        }
    }

    #[test]
    fn known_counts() {
        // No edges on 3 vertices: partitions of 3 items into <= 3 blocks = Bell(3) = 5.
        assert_eq!(canonical_colourings(&Graph::empty(3)).len(), 5);
        // K4 is not 3-colourable; a triangle has exactly one colouring up to renaming.
        let mut k4 = Graph::empty(4);
        for (i, j) in super::super::graph::pairs(4) {
            k4.set_edge(i, j, true);
        }
        assert!(canonical_colourings(&k4).is_empty());
        let triangle = Graph::parse("111", 3).unwrap();
        assert_eq!(canonical_colourings(&triangle), vec![Colouring::new(vec![0, 1, 2])]);
        assert_eq!(count_colourings(&Graph::empty(8), 10), 10);
    }
}
