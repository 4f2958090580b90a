//! The site around the pages: the header with every page's link, the lesson panel, the router
//! with every page's route, and the start page with every page's card, all read from the page
//! table (`crate::pages`). Browser only.

mod home;

use leptos::prelude::*;
use leptos::tachys::view::iterators::StaticVec;
use leptos_router::components::{A, RouteChildren, Router, Routes, RoutesProps};
use leptos_router::{NestedRoute, StaticSegment};

use crate::base_path::href;
use crate::pages::{PAGES, PageView};
use crate::ui::learn::LessonPanel;
use home::{Home, NotFound};

/// The header, the lesson panel and the router, every page's link and route read from the page
/// table (`crate::pages`).
#[component]
pub fn App() -> impl IntoView {
    // The start page, then every row of the table: one route list of one type.
    let start: PageView = || Home().into_any();
    let routes: Vec<_> = std::iter::once(NestedRoute::new(StaticSegment(""), start))
        .chain(PAGES.iter().map(|p| NestedRoute::new(StaticSegment(p.path), p.view)))
        .collect();
    let routes = StaticVec::from(routes);
    let fallback = || view! { <NotFound/> };
    view! {
        <Router base=crate::base_path::router_base()>
            <header class="top">
                <A href=href("/")>"Latent-reasoning playground"</A>
                // Built inside the router: a link resolves its path against it.
                <nav aria-label="Puzzles">{PAGES.iter().map(|p| view! { <A href=href(&format!("/{}", p.path))>{p.nav}</A> }).collect_view()}</nav>
            </header>
            <main>
                <LessonPanel/>
                {Routes(RoutesProps::builder().fallback(fallback).children(RouteChildren::to_children(move || routes)).build())}
            </main>
        </Router>
    }
}
