//! Pages. Views are thin: every rule, solver and metric comes from the engine. The site around
//! them (header, router, start page) is the `site` module beside this one, which reads the page
//! table; nothing here knows it.
//!
//! - [`nqueens`], [`sudoku`], [`tree`], [`coloring`]: the puzzle pages, each a folder of panels around its state;
//! - [`generate`]: p(x), digits and boards drawn from nothing;
//! - [`headline`]: the start page's measured results, read from the manifests;
//! - [`controls`], [`trajectories`], [`plots`], [`status`], [`recorded`], [`fetch`]: what the pages share;
//! - [`browser`], [`model_worker`]: the page's browser and its model's Web Worker.

pub mod browser;
pub mod coloring;
pub mod controls;
pub mod fetch;
pub mod generate;
pub mod grammar;
pub mod headline;
pub mod jepa;
pub mod learn;
pub mod model_worker;
pub mod nqueens;
pub mod plots;
pub mod recorded;
pub mod status;
pub mod sudoku;
pub mod trajectories;
pub mod tree;
