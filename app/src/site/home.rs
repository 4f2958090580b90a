//! The start page (its cards read from the page table, `crate::pages`) and the page for unknown
//! addresses.

use leptos::prelude::*;
use leptos_router::components::A;

use crate::base_path::href;
use crate::pages::PAGES;
use crate::ui::headline::HeadlineTable;

#[component]
pub fn Home() -> impl IntoView {
    let cards = PAGES
        .iter()
        .filter_map(|p| p.card.as_ref().map(|card| (p.path, card)))
        .map(|(path, card)| view! { <li><A href=href(&format!("/{path}"))>{card.link}</A><p>{card.text}</p></li> })
        .collect_view();
    view! {
        <section class="intro">
            <h1>"Watch a model reason in latent space"</h1>
            <p>
                "A recursive reasoner does not write out its thinking. It keeps a latent state — a vector per board cell — "
                "and refines it step after step, reading the puzzle each time. GRAM (generative recursive reasoning) adds "
                "learned noise to every step, so that running it several times explores different answers, while its "
                "deterministic twin TRM always lands on the same one. These pages run the trained models in your browser."
            </p>
            <p class="teach">
                "Teaching a class? " <A href=crate::base_path::href("/learn")>"The lessons"</A>
                " walk through the pages step by step: deterministic vs generative recursion, width scaling, thinking on the hypersphere."
            </p>
            <ul class="cards">{cards}</ul>
        </section>
        <HeadlineTable/>
    }
}

#[component]
pub fn NotFound() -> impl IntoView {
    view! {
        <section class="intro">
            <h1>"No page here"</h1>
            <p>"This address has no page (yet). " <A href=href(&format!("/{}", PAGES[0].path))>{format!("Try {}", PAGES[0].nav)}</A> " or go to the " <A href=crate::base_path::href("/")>"start page"</A> "."</p>
        </section>
    }
}
