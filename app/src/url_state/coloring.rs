//! `/coloring`: the graph and the model, on top of the shared [`Sampling`] parameters.

use std::sync::OnceLock;

use engine::tasks::coloring::{Coloring, Graph, Instance, Part};
use engine::tasks::Task;

use super::fields::parsed;
use super::nqueens::Model;
use super::page::UrlState;
use super::sampling::{HasSampling, Sampling};

/// Vertices of the graphs the shipped colouring models were trained on.
pub const VERTICES: usize = 8;
/// Largest N the page accepts.
pub const MAX_SAMPLES: usize = 64;

/// Name of the shipped weights of `model` on 8-vertex graphs.
pub fn weights(model: Model) -> &'static str {
    match model {
        Model::Gram => "gram-coloring8",
        Model::Trm => "trm-coloring8",
    }
}

/// What a teacher shares on `/coloring`: the graph, the model, and how to sample.
#[derive(Clone, Debug, PartialEq)]
pub struct ColoringSettings {
    pub graph: Graph,
    pub model: Model,
    pub sampling: Sampling,
}

/// The held-out (test) graphs, built once: the default graph and "New graph" draw from them.
pub fn held_out() -> &'static [Instance] {
    static SPLIT: OnceLock<Vec<Instance>> = OnceLock::new();
    SPLIT.get_or_init(|| Coloring::new(VERTICES).instances(Part::Test))
}

/// The first held-out graph with 4 to 8 colourings: one the model never trained on, with a
/// handful of answers to find.
pub fn default_graph() -> Graph {
    held_out()
        .iter()
        .find(|i| (4..=8).contains(&i.colourings.len()))
        .map(|i| i.graph.clone())
        .unwrap_or_else(|| Graph::empty(VERTICES))
}

impl Default for ColoringSettings {
    fn default() -> Self {
        Self { graph: default_graph(), model: Model::Gram, sampling: Sampling::with_samples(20) }
    }
}

impl UrlState for ColoringSettings {
    const PATH: &'static str = "/coloring";

    fn apply(&mut self, key: &str, value: &str, notes: &mut Vec<String>) -> bool {
        if self.sampling.read(key, value, MAX_SAMPLES, notes) {
            return true;
        }
        match key {
            "graph" => parsed(key, value, Graph::parse(value, VERTICES), &mut self.graph, "the default graph", notes),
            "model" => parsed(key, value, Model::parse(value).ok_or("gram or trm"), &mut self.model, "gram", notes),
            _ => return false,
        }
        true
    }

    fn to_query(&self) -> String {
        format!("graph={}&model={}&{}", self.graph.to_text(), self.model.key(), self.sampling.to_query())
    }
}

impl HasSampling for ColoringSettings {
    const MAX_SAMPLES: usize = MAX_SAMPLES;
    fn sampling(&self) -> &Sampling {
        &self.sampling
    }
    fn sampling_mut(&mut self) -> &mut Sampling {
        &mut self.sampling
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_contract() {
        let d = ColoringSettings::default();
        assert_eq!(d.to_query(), format!("graph={}&model=gram&n=20&scale=1&seed=0&steps=8", default_graph().to_text()));
        let colourings = engine::tasks::coloring::canonical_colourings(&d.graph).len();
        assert!((4..=8).contains(&colourings), "the default graph has a handful of colourings: {colourings}");
        let (s, notes) = ColoringSettings::from_query(&format!("graph={}&model=trm&n=4&run=1", "1".repeat(3) + &"0".repeat(25)));
        assert_eq!((s.model, s.sampling.samples, s.sampling.run, notes.len()), (Model::Trm, 4, true, 0));
        assert!(s.graph.has_edge(0, 1) && s.graph.has_edge(0, 3) && !s.graph.has_edge(1, 2));
        assert_eq!(ColoringSettings::from_query(&s.to_query()), (s, vec![]));
        let (d2, notes) = ColoringSettings::from_query("graph=0101&model=x&zz=1");
        assert_eq!(d2, ColoringSettings::default());
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert_eq!(notes[0], "Ignored graph=\"0101\" (expected 28 characters (one 0 or 1 per vertex pair), found 4); using the default graph.");
    }
}
