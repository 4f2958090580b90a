//! Pages. Each page's folder holds its URL state (`url.rs`: plain Rust, built everywhere and
//! tested natively) and its views (browser only). Views are thin: every rule, solver and metric
//! comes from the engine. The site around them (header, router, start page) is the `site`
//! module beside this one, which reads the page table; nothing here knows it.
//!
//! - [`nqueens`], [`sudoku`], [`tree`], [`coloring`]: the puzzle pages, each a folder of panels around its state;
//! - [`generate`]: p(x), digits and boards drawn from nothing;
//! - [`grammar`], [`jepa`], `learn`: the grammar study, the JEPA language models, the lessons;
//! - [`HEADLINES`]: the start page's measured results, each page's rows (shown by `headline`);
//! - `task_pages_tests`: which page shows each task of the engine's registry, walked over it;
//! - `controls`, `trajectories`, `plots`, `status`, `recorded`, `fetch`: what the pages share;
//! - `browser`, `model_worker`: the page's browser and its model's Web Worker.

pub mod coloring;
pub mod generate;
pub mod grammar;
pub mod jepa;
pub mod nqueens;
pub mod sudoku;
pub mod train;
pub mod tree;

#[cfg(target_arch = "wasm32")]
pub mod browser;
#[cfg(target_arch = "wasm32")]
pub mod controls;
#[cfg(target_arch = "wasm32")]
pub mod fetch;
#[cfg(target_arch = "wasm32")]
pub mod headline;
#[cfg(target_arch = "wasm32")]
pub mod learn;
#[cfg(target_arch = "wasm32")]
pub mod model_worker;
#[cfg(target_arch = "wasm32")]
pub mod plots;
#[cfg(target_arch = "wasm32")]
pub mod recorded;
#[cfg(target_arch = "wasm32")]
pub mod status;
#[cfg(target_arch = "wasm32")]
pub mod trajectories;

#[cfg(test)]
mod task_pages_tests;

use crate::headline::Headline;

/// The start page's headline rows (`crate::headline`), each page's in its folder, in this order.
pub const HEADLINES: [&[Headline]; 6] = [
    nqueens::headline::ROWS,
    coloring::headline::ROWS,
    sudoku::headline::ROWS,
    generate::headline::ROWS,
    tree::headline::ROWS,
    jepa::headline::ROWS,
];
