//! Pages. Views are thin: every rule, solver and metric comes from the engine.
//!
//! - [`nqueens`], [`sudoku`], [`tree`], [`coloring`]: the puzzle pages, each a folder of panels around its state;
//! - [`generate`]: p(x), digits and boards drawn from nothing;
//! - [`home`] with [`headline`]: the start page and its measured results, read from the manifests;
//! - [`controls`], [`trajectories`], [`plots`], [`status`], [`recorded`], [`fetch`]: what the pages share;
//! - [`browser`], [`model_worker`]: the page's browser and its model's Web Worker.

pub mod browser;
pub mod coloring;
pub mod controls;
pub mod fetch;
pub mod generate;
pub mod grammar;
pub mod headline;
pub mod home;
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

use leptos::prelude::*;
use leptos_router::components::{A, Route, Router, Routes};
use leptos_router::path;

use home::{Home, NotFound};
use learn::{LearnPage, LessonPanel};

#[component]
pub fn App() -> impl IntoView {
    view! {
        <Router base=crate::base_path::router_base()>
            <header class="top">
                <A href=crate::base_path::href("/")>"Latent-reasoning playground"</A>
                <nav aria-label="Puzzles">
                    <A href=crate::base_path::href("/nqueens")>"N-Queens"</A>
                    <A href=crate::base_path::href("/sudoku")>"Sudoku"</A>
                    <A href=crate::base_path::href("/tree")>"Tree routes"</A>
                    <A href=crate::base_path::href("/grammar")>"Grammar"</A>
                    <A href=crate::base_path::href("/jepa")>"JEPA live"</A>
                    <A href=crate::base_path::href("/coloring")>"Graph colouring"</A>
                    <A href=crate::base_path::href("/generate")>"Generate"</A>
                    <A href=crate::base_path::href("/learn")>"Lessons"</A>
                </nav>
            </header>
            <main>
                <LessonPanel/>
                <Routes fallback=|| view! { <NotFound/> }>
                    <Route path=path!("/") view=Home/>
                    <Route path=path!("/nqueens") view=nqueens::NQueensPage/>
                    <Route path=path!("/sudoku") view=sudoku::SudokuPage/>
                    <Route path=path!("/tree") view=tree::TreePage/>
                    <Route path=path!("/grammar") view=grammar::GrammarPage/>
                    <Route path=path!("/jepa") view=jepa::JepaPage/>
                    <Route path=path!("/coloring") view=coloring::ColoringPage/>
                    <Route path=path!("/generate") view=generate::GeneratePage/>
                    <Route path=path!("/learn") view=LearnPage/>
                </Routes>
            </main>
        </Router>
    }
}
