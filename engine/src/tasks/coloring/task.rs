//! Graph 3-colouring behind the task interface: the text format, the exact oracle (every
//! canonical colouring), the split, and the paper's metrics.

use super::data::{Instance, part_of, split};
use super::error::ColoringError;
use super::graph::{COLOURS, Colouring, FIRST_COLOUR, Graph, VOCAB, position, seq_len, triangle};
use super::metrics::Report as ColouringReport;
use super::solver::is_3_colourable;
use crate::gram::noise::NoiseSource;
use crate::gram::{Observation, Selection};
use crate::tasks::{
    CopyMaker, FullSize, ImportFormat, InferenceDefaults, InputCopy, Part, PuzzleError, Solved, Task, TaskRecipe, TestImport, TokenTask,
    Variant,
};

/// 3-colouring of `n`-vertex graphs (8 and 10: the GRAM paper, Table 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coloring {
    n: usize,
}

impl Coloring {
    pub fn new(n: usize) -> Coloring {
        Coloring { n }
    }

    /// Vertex count.
    pub fn n(&self) -> usize {
        self.n
    }
}

/// Why a graph has no 3-colouring, in words (the page's editor): [`uncolourable`]'s sentence.
pub fn impossible_reason(graph: &Graph) -> Option<String> {
    uncolourable(graph).map(|e| e.to_string())
}

/// Why a graph has no 3-colouring: four vertices joined pairwise when there are
/// ([`ColoringError::FourClique`]), else the exhaustive search's verdict
/// ([`ColoringError::NotColourable`]); `None` for a 3-colourable graph.
pub fn uncolourable(graph: &Graph) -> Option<ColoringError> {
    if is_3_colourable(graph) {
        return None;
    }
    let n = graph.n();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    let q = [a, b, c, d];
                    if q.iter().enumerate().all(|(i, &u)| q[i + 1..].iter().all(|&v| graph.has_edge(u, v))) {
                        return Some(ColoringError::FourClique(q));
                    }
                }
            }
        }
    }
    Some(ColoringError::NotColourable)
}

impl Task for Coloring {
    type Puzzle = Graph;
    type Answer = Colouring;
    type Instance = Instance;

    fn id(&self) -> String {
        format!("coloring{}", self.n)
    }

    /// The task's line or an edge list (`0-1 0-2 1-2`, vertices from 0): [`Graph::from_pasted`].
    fn parse(&self, text: &str) -> Result<Graph, PuzzleError> {
        let graph = Graph::from_pasted(text, self.n)?;
        match uncolourable(&graph) {
            Some(reason) => Err(reason.into()),
            None => Ok(graph),
        }
    }

    fn puzzle_text(&self, puzzle: &Graph) -> String {
        puzzle.to_text()
    }

    fn answer_text(&self, answer: &Colouring) -> String {
        answer.to_text()
    }

    /// Every vertex coloured, no edge between two vertices of one colour.
    fn is_valid(&self, puzzle: &Graph, answer: &Colouring) -> bool {
        puzzle.is_coloured_by(answer)
    }

    fn part_of(&self, puzzle: &Graph) -> Part {
        part_of(puzzle)
    }

    fn instances(&self, part: Part) -> Vec<Instance> {
        split(self.n, part)
    }

    fn puzzle_of<'a>(&self, instance: &'a Instance) -> &'a Graph {
        &instance.graph
    }
}

impl TokenTask for Coloring {
    /// Graphs from elsewhere (`data import --format coloring --test`), for the weights of the
    /// manifest's vertex count, every graph's colourings found again as it is read.
    fn test_import(&self) -> Option<TestImport<Instance>> {
        let n = self.n;
        Some(TestImport {
            noun: "colouring",
            format: super::import::TEST_FORMAT,
            file: super::import::TEST_FILE,
            command: "data import --format coloring --test",
            check: Box::new(move |manifest| match manifest["vertices"].as_u64() {
                Some(v) if v as usize == n => Ok(()),
                Some(v) => Err(format!("{v}-vertex graphs; these are coloring{n} weights")),
                None => Err("the import does not say its vertex count".into()),
            }),
            read: Box::new(move |text| super::import::read_test_lines(text, n).map_err(|e| e.to_string())),
        })
    }

    /// Graphs from elsewhere, written as a test import (`data import --format coloring --test`).
    fn import_format(&self) -> Option<ImportFormat> {
        Some(super::import_format::import_format())
    }

    /// 10,000 steps at batch 64; Table 7: 5,000 epochs of the split's 6,673 (8 vertices) or
    /// 12,577 (10) graphs, attention core (the shipped models use the mixer).
    fn recipe(&self) -> TaskRecipe {
        let (train_inputs, beta) = if self.n >= 10 { (12_577, 0.45) } else { (6_673, 0.5) };
        if self.n < 8 {
            // The graphs the page learns live (`registry::LEARNABLE`): no paper run, a short one.
            return TaskRecipe { config: super::gram_config(self.n, true), batch: 64, steps: 2_000, full: None };
        }
        TaskRecipe {
            config: super::gram_config(self.n, true),
            batch: 64,
            steps: 10_000,
            full: Some(FullSize { mixer: false, k_inner: 4, beta, epochs: 5_000, train_inputs }),
        }
    }

    /// The paper's attention core at the shipped models' width and recipe
    /// (`gram_attention_config`): the architecture comparison.
    fn variants(&self) -> Vec<Variant> {
        let r = self.recipe();
        vec![Variant { suffix: "attn", config: super::gram_attention_config(self.n, true), batch: r.batch, steps: r.steps }]
    }

    /// P(colour 0..3) per vertex.
    fn shading(&self, obs: &Observation, row: usize) -> Vec<f32> {
        colour_probabilities(obs, row, self.n)
    }

    fn puzzle_noun(&self) -> &'static str {
        "graph"
    }

    /// The graph with its vertices relabelled by a uniform random permutation, and the answer with
    /// them (colours renamed back to canonical form): an isomorphic copy, whose canonical
    /// colourings are exactly the relabelled ones. Kept when its text falls in the train part.
    fn augment(&self, x: &[u32], y: &[u32], rng: &mut NoiseSource) -> Option<(Vec<u32>, Vec<u32>)> {
        let graph = self.puzzle_from_tokens(x)?;
        let mut perm: Vec<usize> = (0..self.n).collect();
        for k in (1..self.n).rev() {
            perm.swap(k, rng.index(k + 1));
        }
        let copy = graph.relabel(&perm);
        let answer = Colouring::from_prediction(y, self.n).relabel(&perm).canonical();
        (part_of(&copy) == Part::Train).then(|| (copy.tokens(), copy.target_tokens(&answer)))
    }

    /// The graph with its vertices relabelled by a uniform random permutation: the same graph to
    /// the rules (its colourings are the relabelled ones) and a new input to the network. Vertex
    /// i's colour is read back from the copy's vertex perm[i], and every pair with it; colours
    /// are not renamed (every answer is compared in canonical form).
    fn restart_copy(&self, x: &[u32], rng: &mut NoiseSource) -> Option<InputCopy> {
        let graph = self.puzzle_from_tokens(x)?;
        let n = self.n;
        let mut perm: Vec<usize> = (0..n).collect();
        for k in (1..n).rev() {
            perm.swap(k, rng.index(k + 1));
        }
        let from = triangle(n).map(|(i, j)| position(n, perm[i].min(perm[j]), perm[i].max(perm[j]))).collect();
        Some(InputCopy { x: graph.relabel(&perm).tokens(), from, token: (0..VOCAB as u32).collect() })
    }

    fn copy_maker(&self) -> Option<CopyMaker> {
        Some(CopyMaker { noun: "graph colouring", augment: true, restart: true })
    }

    type Report = ColouringReport;

    fn tokens(&self, puzzle: &Graph) -> Vec<u32> {
        puzzle.tokens()
    }

    fn answer_from_prediction(&self, tokens: &[u32]) -> Colouring {
        debug_assert_eq!(tokens.len(), seq_len(self.n));
        Colouring::from_prediction(tokens, self.n)
    }

    fn puzzle_from_tokens(&self, tokens: &[u32]) -> Option<Graph> {
        Graph::from_tokens(tokens, self.n).ok()
    }

    fn targets(&self, instance: &Instance) -> Vec<Vec<u32>> {
        instance.colourings.iter().map(|c| instance.graph.target_tokens(c)).collect()
    }

    /// As N-Queens: several answers are right, so the LPRM value head picks, not a vote.
    fn default_selection(&self) -> Selection {
        Selection::Lprm
    }

    /// Chosen on the validation part with the shipped GRAMs (docs/results/coloring.md, "The
    /// sampler's settings"). 8 vertices: none, every step samples from the prior (the paper's
    /// sampler): coverage@20 45.7% against 36.9% with N-Queens' 0.25, at 75 conflict edges
    /// against 73 in 338 graphs. 10 vertices: N-Queens' 0.25 stays, because there the paper's
    /// sampler triples coverage@20 (4.7% -> 15.6%) but costs 42% more conflict edges (635 -> 899
    /// in 598 graphs): not a free gain, so not the default.
    fn default_settle(&self) -> f64 {
        if self.n >= 10 { 0.25 } else { 0.0 }
    }

    /// The paper's sampler, but for 10 vertices guidance scale 1.5: chosen on the validation
    /// part with the shipped `gram-coloring10` over three sampler seeds (docs/results/coloring.md,
    /// "The sampler's settings"): coverage@20 up 0.8-2.0 points on every seed, at steps 40,000,
    /// 56,000, 69,500 and 72,000, at no measurable cost in conflict edges. 8 vertices keep scale
    /// 1 (1.5 costs conflict edges there).
    fn inference_defaults(&self) -> InferenceDefaults {
        let guidance_scale = if self.n >= 10 { 1.5 } else { 1.0 };
        InferenceDefaults { guidance_scale, ..InferenceDefaults::PAPER }
    }

    fn eval_batch(&self) -> usize {
        16
    }

    fn input_noun(&self) -> &'static str {
        "graphs"
    }

    fn new_report(&self, samples: usize) -> ColouringReport {
        ColouringReport::new(samples)
    }

    fn score(&self, report: &mut ColouringReport, instance: &Instance, solved: &Solved<Colouring>) {
        report.add(&instance.graph, instance.colourings.len(), &solved.samples);
    }
}

/// P(colour 0, 1, 2) of each vertex in trajectory `row` of a step, `[n * 3]` (the browser
/// shades each vertex with them).
pub fn colour_probabilities(obs: &crate::gram::Observation, row: usize, n: usize) -> Vec<f32> {
    (0..n)
        .flat_map(|i| (0..COLOURS as usize).map(move |c| (i, c)))
        .map(|(i, c)| obs.probability(row, position(n, i, i), FIRST_COLOUR as usize + c))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{GraphError, PasteError};
    use super::*;

    /// The task's own reason behind a parse's error.
    fn reason(err: &PuzzleError) -> &ColoringError {
        err.reason::<ColoringError>().expect("a colouring reason")
    }

    #[test]
    fn parse_explains_bad_graphs() {
        let task = Coloring::new(8);
        assert_eq!(reason(&task.parse(&"0".repeat(27)).unwrap_err()), &ColoringError::Paste(PasteError::LineLength(27)));
        assert!(task.parse(&"0".repeat(27)).unwrap_err().to_string().contains("expected 28 characters"));
        assert!(task.parse("0-1 1-2 2-0").is_ok(), "an edge list");
        // The task line's own format error is the graph's, however the paste was read.
        let bad = task.parse(&format!("2{}", "0".repeat(27))).unwrap_err();
        assert!(matches!(reason(&bad), ColoringError::Graph(GraphError::Char { index: 0, found: '2', .. })), "{bad:?}");
        assert!(bad.to_string().contains("character 1 is '2'"));
        // K4 on vertices 0..4: pairs (0,1),(0,2),(0,3) then (1,2),(1,3) then (2,3).
        let mut g = Graph::empty(8);
        for (i, j) in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)] {
            g.set_edge(i, j, true);
        }
        let err = task.parse(&g.to_text()).unwrap_err();
        assert_eq!(reason(&err), &ColoringError::FourClique([0, 1, 2, 3]));
        assert_eq!(err.to_string(), "not 3-colourable: vertices 0, 1, 2 and 3 are all joined to each other, so they need four colours");
        assert_eq!(impossible_reason(&g), Some(err.to_string()));
        let ok = task.parse(&"0".repeat(28)).unwrap();
        assert_eq!(task.puzzle_text(&ok), "0".repeat(28));
    }

    /// `position` is the index of a pair in the token order, and a target keeps every edge token.
    #[test]
    fn positions_follow_the_token_order() {
        use super::super::graph::{position, triangle};
        for n in [3, 8, 10] {
            for (index, (i, j)) in triangle(n).enumerate() {
                assert_eq!(position(n, i, j), index, "n={n} ({i},{j})");
            }
        }
        let task = Coloring::new(8);
        let inst = &task.instances(Part::Validation)[0];
        let target = inst.graph.target_tokens(&inst.colourings[0]);
        let input = inst.graph.tokens();
        let changed: Vec<usize> = (0..input.len()).filter(|&k| input[k] != target[k]).collect();
        assert_eq!(changed, (0..8).map(|i| position(8, i, i)).collect::<Vec<_>>());
    }

    #[test]
    fn tokens_round_trip_and_answers_sit_on_the_diagonal() {
        let task = Coloring::new(10);
        for inst in task.instances(Part::Validation).iter().take(20) {
            let t = task.tokens(&inst.graph);
            assert_eq!(t.len(), 55);
            assert_eq!(Graph::from_tokens(&t, 10).unwrap(), inst.graph);
            for c in &inst.colourings {
                let answer = task.answer_from_prediction(&inst.graph.target_tokens(c));
                assert_eq!(&answer, c);
                assert!(task.is_valid(&inst.graph, &answer));
            }
        }
    }

    /// A copy's colourings read back are exactly the graph's: the exact solver's canonical
    /// colourings of the copy, each put on the copy's tokens and read back, give the graph's
    /// set, and the copy's input reads back to the graph's.
    #[test]
    fn a_copy_reads_back_to_the_graph_as_given() {
        use crate::gram::noise::NoiseSource;
        use std::collections::BTreeSet;
        for n in [8, 10] {
            let task = Coloring::new(n);
            let mut rng = NoiseSource::new(3);
            let mut changed = 0;
            for inst in task.instances(Part::Validation).iter().take(30) {
                let x = task.tokens(&inst.graph);
                let copy = task.restart_copy(&x, &mut rng).expect("colouring makes copies");
                changed += (copy.x != x) as usize;
                assert_eq!(copy.prediction_back(&copy.x), x, "the copy's input reads back to the graph");
                let graph_copy = Graph::from_tokens(&copy.x, n).unwrap();
                let back: BTreeSet<Colouring> = crate::tasks::coloring::canonical_colourings(&graph_copy)
                    .iter()
                    .map(|c| task.answer_from_prediction(&copy.prediction_back(&graph_copy.target_tokens(c))).canonical())
                    .collect();
                let exact: BTreeSet<Colouring> = inst.colourings.iter().cloned().collect();
                assert_eq!(back, exact, "n={n}");
                assert!(back.iter().all(|c| task.is_valid(&inst.graph, c)));
            }
            assert!(changed >= 25, "n={n}: only {changed} of 30 copies differ from the graph");
        }
    }

    /// `train --augment`'s copies keep the answer set exact: the copy's canonical colourings (the
    /// exact solver's, afresh) are the relabelled ones, the copied answer is one of them, and
    /// every copy kept is a train-part graph.
    #[test]
    fn augmented_copies_keep_the_answer_set_exact() {
        use crate::gram::noise::NoiseSource;
        use std::collections::BTreeSet;
        for n in [8, 10] {
            let task = Coloring::new(n);
            let mut rng = NoiseSource::new(7);
            let (mut kept, mut changed) = (0, 0);
            for inst in task.instances(Part::Train).iter().take(40) {
                let (x, y) = (task.tokens(&inst.graph), inst.graph.target_tokens(&inst.colourings[0]));
                let Some((x2, y2)) = task.augment(&x, &y, &mut rng) else { continue };
                let copy = Graph::from_tokens(&x2, n).unwrap();
                assert_eq!(part_of(&copy), Part::Train);
                assert_eq!(copy.edges().len(), inst.graph.edges().len());
                let exact: BTreeSet<Colouring> = crate::tasks::coloring::canonical_colourings(&copy).into_iter().collect();
                assert_eq!(exact.len(), inst.colourings.len(), "an isomorphic copy has as many colourings");
                assert!(exact.contains(&task.answer_from_prediction(&y2)), "the copied answer colours the copy");
                assert!(task.is_right_prediction(&x2, &y2));
                kept += 1;
                changed += (x2 != x) as usize;
            }
            assert!(kept >= 30 && changed >= kept / 2, "n={n}: {kept} kept, {changed} changed");
        }
    }
}
