//! `/learn`: the lessons' index, and the lesson panel every page shows while the URL names a
//! lesson step (`lesson=ID&step=K`, see [`crate::lessons`]). A step's links reload the page in the
//! step's state, so a lesson link opens at its step and the page's own URL state does the rest.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::browser::query_pairs;
use crate::base_path::href;
use crate::lessons::{LESSONS, Lesson, page_pairs, position, step_link};
use crate::url_state::query::encode;

#[component]
pub fn LearnPage() -> impl IntoView {
    let cards = LESSONS
        .iter()
        .map(|l| {
            let steps = l
                .steps
                .iter()
                .enumerate()
                .map(|(i, s)| view! { <li><a href=href(&step_link(l, i + 1)) rel="external">{s.title}</a></li> })
                .collect_view();
            view! {
                <li class="lesson-card" data-lesson=l.id>
                    <a class="start" href=href(&step_link(l, 1)) rel="external">{l.title}</a>
                    <p>{l.summary}</p>
                    <p class="hint">{format!("{} steps on {}", l.steps.len(), l.path)}</p>
                    <ol class="lesson-steps">{steps}</ol>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="intro learn">
            <h1>"Lessons"</h1>
            <p>
                "Short guided tours for a class: each step opens a page in a prepared state, outlines what to look at and says what "
                "the class sees. Every step is a link, so a lesson can be started at any step, shared, or put on a slide."
            </p>
            <ul class="cards">{cards}</ul>
        </section>
    }
}

/// The page's address without the lesson: where "Leave the lesson" goes.
fn without_lesson(lesson: &Lesson) -> String {
    let pairs = page_pairs(&query_pairs());
    let query = pairs.iter().map(|(k, v)| format!("{}={}", encode(k), encode(v))).collect::<Vec<_>>().join("&");
    href(&format!("{}?{query}", lesson.path))
}

/// The panel of the lesson step the URL names (nothing when it names none), following the
/// router's navigation.
#[component]
pub fn LessonPanel() -> impl IntoView {
    let location = leptos_router::hooks::use_location();
    move || {
        location.pathname.track();
        location.search.track();
        lesson_view()
    }
}

fn lesson_view() -> AnyView {
    let Some((lesson, k)) = position(&query_pairs()) else { return ().into_any() };
    // Only on the lesson's own page.
    if window().location().pathname().ok().is_none_or(|p| !p.trim_end_matches('/').ends_with(lesson.path)) {
        return ().into_any();
    }
    let step = lesson.steps[k - 1];
    let n = lesson.steps.len();
    // The outline follows whatever the page re-renders under the selector.
    let outline = format!("{} {{ outline: 3px dashed var(--accent); outline-offset: 4px; }}", step.look_at);
    let show_me = move |_| {
        if let Ok(Some(el)) = document().query_selector(step.look_at) {
            el.unchecked_into::<web_sys::HtmlElement>().scroll_into_view();
        }
    };
    view! {
        <aside class="lesson" aria-label="Lesson" data-lesson=lesson.id data-step=k.to_string()>
            <style>{outline}</style>
            <p class="lesson-where">
                <a href=href("/learn") rel="external">"Lessons"</a>
                {format!(" · {} · step {k} of {n}", lesson.title)}
            </p>
            <h2>{step.title}</h2>
            <p class="lesson-text">{step.text}</p>
            <div class="row">
                {(k > 1).then(|| view! { <a class="button" href=href(&step_link(lesson, k - 1)) rel="external">"← Back"</a> })}
                {if k < n {
                    view! { <a class="button primary next" href=href(&step_link(lesson, k + 1)) rel="external">"Next →"</a> }.into_any()
                } else {
                    view! { <a class="button primary next" href=href("/learn") rel="external">"Finish the lesson"</a> }.into_any()
                }}
                <button on:click=show_me>"Show me"</button>
                <a href=without_lesson(lesson) rel="external">"Leave the lesson"</a>
            </div>
        </aside>
    }
    .into_any()
}
