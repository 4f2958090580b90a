//! Graph 3-colouring (the GRAM paper, appendix E.1.2): graphs, colourings and their formats
//! ([`graph`]), graphs as other sources write them (edge lists, DIMACS, matrices: [`pasted`]),
//! the exact enumerator of canonical colourings ([`solver`]), the Erdős–Rényi dataset and its
//! split ([`data`]), conflict edges and coverage@N ([`metrics`]), the task interface ([`task`]),
//! the model configs ([`model`]) and graphs from elsewhere as a test set ([`import`], written by
//! `data import --format coloring` through [`import_format`]).

mod data;
mod error;
mod graph;
pub mod import;
mod import_error;
mod import_format;
pub mod metrics;
mod model;
mod paste_error;
mod pasted;
mod solver;
mod task;

pub use data::{DATA_SEED, Instance, SplitMix64, dataset, dataset_size, edge_probability, part_of, random_graph, split};
pub use error::ColoringError;
pub use graph::{
    COLOURS, Colouring, DIAGONAL, EDGE, FIRST_COLOUR, Graph, GraphError, NO_EDGE, VOCAB, pair_count, pairs, position, seq_len,
};
pub use import_error::GraphFileError;
pub use model::{gram_attention_config, gram_config};
pub use paste_error::PasteError;
pub use pasted::{from_pasted_onto, read_graph_file};
pub use solver::{canonical_colourings, count_colourings, is_3_colourable};
pub use task::{Coloring, colour_probabilities, impossible_reason, uncolourable};

pub use crate::tasks::split::Part;
