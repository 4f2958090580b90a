//! `/coloring`: the graph and the model, on top of the shared [`Sampling`] parameters.

use engine::tasks::coloring::{Coloring, Graph, Instance, Part};
use engine::tasks::{Task, TokenTask};

use crate::url_state::gram_page::{GramSettings, Model, PageInput};
use crate::url_state::sampling::Sampling;
use crate::url_state::sized::{HeldOut, size_of_text};

/// Vertex counts with shipped models (`gram-coloring8`, `gram-coloring10`, and their TRMs).
pub const SIZES: [usize; 2] = [8, 10];
/// Largest N the page accepts.
pub const MAX_SAMPLES: usize = crate::url_state::sampling::MAX_SAMPLES;

/// What a teacher shares on `/coloring`: the graph, the model, and how to sample.
pub type ColoringSettings = GramSettings<Graph>;

impl ColoringSettings {
    /// Vertices of the graph on screen, and of the model that colours it.
    pub fn vertices(&self) -> usize {
        self.puzzle.n()
    }
}

/// The held-out (test) graphs of each vertex count, built once per count: the default graph and
/// "New graph" draw from them. Counts other than [`SIZES`] have none.
static HELD_OUT: HeldOut<Instance> = HeldOut::new(SIZES, |n| Coloring::new(n).instances(Part::Test));

/// The held-out graphs (with their colourings) of one vertex count.
pub fn held_out(n: usize) -> &'static [Instance] {
    HELD_OUT.of(n)
}

/// The first held-out `n`-vertex graph with 4 to 8 colourings: one the model never trained on,
/// with a handful of answers to find.
pub fn default_graph(n: usize) -> Graph {
    held_out(n).iter().find(|i| (4..=8).contains(&i.colourings.len())).map(|i| i.graph.clone()).unwrap_or_else(|| Graph::empty(n))
}

/// The vertex count a graph text is for: 45 characters is 10 vertices, anything else is read
/// (and, if wrong, reported) as 8.
pub fn vertices_of(text: &str) -> usize {
    size_of_text(text, SIZES, 45)
}

impl PageInput for Graph {
    const PATH: &'static str = "/coloring";
    const KEY: &'static str = "graph";
    const DEFAULT_NAME: &'static str = "the default graph";
    const MAX_SAMPLES: usize = MAX_SAMPLES;
    const SIZES: &'static [usize] = &SIZES;
    const SIZE_NAME: &'static str = "the graph's size";
    const COPIES: bool = true;
    const COPIES_LABEL: &'static str = "Every sample colours its own relabelled copy of the graph (the vertices renumbered: the same graph to the rules, a new input to the network; shown in your numbering). Not the paper's sampler: with it TRM's samples differ too";

    fn default_of(n: usize) -> Self {
        default_graph(n)
    }
    fn held_out(n: usize, pick: usize) -> Option<Self> {
        HELD_OUT.pick(n, pick).map(|i| i.graph.clone())
    }
    fn size(&self) -> usize {
        self.n()
    }
    fn read(text: &str) -> Result<Self, String> {
        Graph::parse(text, vertices_of(text)).map_err(|e| e.to_string())
    }
    fn text(&self) -> String {
        self.to_text()
    }
    /// `gram-coloring8`, `trm-coloring10`, ...
    fn weights(&self, model: Model) -> String {
        format!("{}-coloring{}", model.key(), self.n())
    }
    /// The task's defaults for graphs of `size` vertices (10: guidance scale 1.5); copies off,
    /// offered without the verified stop (the paper's sampler with a copy per sample).
    fn default_sampling(size: usize) -> Sampling {
        Sampling { copies_free: true, ..Sampling::from_defaults(&Coloring::new(size).inference_defaults()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::url_state::UrlState;

    #[test]
    fn the_url_contract() {
        let d = ColoringSettings::default();
        assert_eq!(d.to_query(), format!("size=8&graph={}&model=gram&n=20&scale=1&seed=0&steps=8&stop=0", default_graph(8).to_text()));
        let colourings = engine::tasks::coloring::canonical_colourings(&d.puzzle).len();
        assert!((4..=8).contains(&colourings), "the default graph has a handful of colourings: {colourings}");
        let (s, notes) = ColoringSettings::from_query(&format!("graph={}&model=trm&n=4&run=1", "1".repeat(3) + &"0".repeat(25)));
        assert_eq!((s.model, s.sampling.samples, s.sampling.run, notes.len()), (Model::Trm, 4, true, 0));
        assert!(s.puzzle.has_edge(0, 1) && s.puzzle.has_edge(0, 3) && !s.puzzle.has_edge(1, 2));
        assert_eq!(ColoringSettings::from_query(&s.to_query()), (s, vec![]));
        let (d2, notes) = ColoringSettings::from_query("graph=0101&model=x&zz=1");
        assert_eq!(d2, ColoringSettings::default());
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert_eq!(
            notes[0],
            "Ignored graph=\"0101\" (expected 28 characters (one 0 or 1 per vertex pair), found 4); using the default graph."
        );
        // 10 vertices: the size and a graph of that size, in either order; a bad size is noted.
        let ten = default_graph(10).to_text();
        assert_eq!(ten.len(), 45);
        assert!((4..=8).contains(&engine::tasks::coloring::canonical_colourings(&default_graph(10)).len()));
        for q in [format!("size=10&graph={ten}"), format!("graph={ten}&size=10"), "size=10".into()] {
            let (s, notes) = ColoringSettings::from_query(&q);
            assert_eq!((s.vertices(), s.puzzle.to_text(), s.weights(), notes.len()), (10, ten.clone(), "gram-coloring10".into(), 0), "{q}");
            assert!(s.to_query().starts_with(&format!("size=10&graph={ten}&")));
        }
        let (s, notes) = ColoringSettings::from_query(&format!("graph={ten}&size=8&model=trm"));
        assert_eq!((s.weights(), s.puzzle), ("trm-coloring8".to_string(), default_graph(8)), "the later value wins");
        assert!(notes.is_empty());
        // A copy per sample needs no stop here: `copies=1` alone is kept and written back, and
        // runs on copies (the other pages ignore it without the stop).
        let (s, notes) = ColoringSettings::from_query("model=trm&copies=1");
        assert!(notes.is_empty() && s.sampling.copies && s.sampling.copies_free);
        assert_eq!(s.sampling.run_copies(), engine::solve::Copies::Samples);
        assert!(s.to_query().ends_with("&stop=0&copies=1"), "{}", s.to_query());
        assert_eq!(ColoringSettings::from_query(&s.to_query()), (s, vec![]));
        assert_eq!(ColoringSettings::default().sampling.run_copies(), engine::solve::Copies::None, "off by default");
        let (s, notes) = ColoringSettings::from_query("size=12");
        assert_eq!(notes, ["Ignored size=\"12\" (8 or 10); using the graph's size."]);
        assert_eq!(s, ColoringSettings::default());
    }

    #[test]
    fn the_scale_follows_the_size_unless_set() {
        let scale = |q: &str| ColoringSettings::from_query(q).0.sampling.scale;
        let ten = default_graph(10).to_text();
        // 10 vertices sample at scale 1.5 (the task's defaults), 8 at the paper's 1.
        assert_eq!((scale(""), scale("size=10"), scale(&format!("graph={ten}"))), (1.0, 1.5, 1.5));
        assert_eq!(scale("size=10&size=8"), 1.0, "back to 8 vertices, back to 8's default");
        // A scale in the URL wins wherever it stands, even one equal to the other size's default.
        for q in ["scale=1&size=10", "size=10&scale=1", "scale=2&size=10"] {
            assert_eq!(scale(q), if q.contains("scale=2") { 2.0 } else { 1.0 }, "{q}");
        }
        // Written and read back, a 10-vertex state is the same state.
        let (s, _) = ColoringSettings::from_query("size=10&n=7");
        assert_eq!((s.sampling.samples, s.sampling.scale), (7, 1.5));
        assert!(s.to_query().contains("&n=7&scale=1.5&"), "{}", s.to_query());
        assert_eq!(ColoringSettings::from_query(&s.to_query()), (s.clone(), vec![]));
        // On the page: a new input of the other size moves only what the visitor left at the default.
        let mut edited = s.clone();
        edited.set_puzzle(default_graph(8));
        assert_eq!((edited.sampling.samples, edited.sampling.scale), (7, 1.0));
        let mut chosen = s;
        chosen.sampling.scale = 2.5;
        chosen.set_puzzle(default_graph(8));
        assert_eq!(chosen.sampling.scale, 2.5, "a scale the visitor chose stays");
    }
}
