//! What the pages ask of the browser: the clock, the URL, the visitor's motion preference.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::url_state::UrlState;

/// Milliseconds since the page started (`performance.now()`).
pub fn now() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}

/// The page URL's decoded query parameters, in order.
pub fn query_pairs() -> Vec<(String, String)> {
    let search = window().location().search().unwrap_or_default();
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()
        .map(|p| {
            js_sys::try_iter(&p)
                .ok()
                .flatten()
                .into_iter()
                .flatten()
                .filter_map(|entry| {
                    let pair: js_sys::Array = entry.ok()?.dyn_into().ok()?;
                    Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The page's state from its URL, and the notes on values that were not understood.
/// A lesson's `lesson` and `step` are the lesson panel's, not the page's.
pub fn read_url<S: UrlState>() -> (S, Vec<String>) {
    S::from_pairs(&crate::lessons::page_pairs(&query_pairs()))
}

/// Keeps the URL saying how to reproduce what is on screen: rewrites it (without a history
/// entry) whenever `state` changes.
pub fn sync_url<S: UrlState + Send + Sync + 'static>(state: RwSignal<S>) {
    Effect::new(move |_| {
        let mut query = state.with(S::to_query);
        // A lesson step stays in the address while the visitor plays with the page.
        for (k, v) in untrack(query_pairs).into_iter().filter(|(k, _)| crate::lessons::KEYS.contains(&k.as_str())) {
            query.push_str(&format!("&{k}={}", crate::url_state::query::encode(&v)));
        }
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("{}?{query}", crate::base_path::href(S::PATH))),
            );
        }
    });
}

/// The visitor asked the system for less motion: no autoplay.
pub fn prefers_reduced_motion() -> bool {
    window().match_media("(prefers-reduced-motion: reduce)").ok().flatten().is_some_and(|m| m.matches())
}

/// Moves the keyboard focus to the element with `id`, if there is one.
pub fn focus_element(id: &str) {
    if let Some(el) = document().get_element_by_id(id) {
        let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
    }
}
