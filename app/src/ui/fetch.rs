//! Fetching a JSON file of the site (a recorded run, a weights manifest) from under its root
//! (`crate::base_path`), read as `T`; `None` when it cannot be fetched or read, so a page can
//! say so and go on.

use leptos::prelude::window;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::base_path::site_root;

/// The JSON file at `path` (starting with `/`) under the site's root.
pub async fn fetch_json<T: DeserializeOwned>(path: &str) -> Option<T> {
    let url = format!("{}{path}", site_root());
    let response: web_sys::Response = JsFuture::from(window().fetch_with_str(&url)).await.ok()?.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    let text = JsFuture::from(response.text().ok()?).await.ok()?.as_string()?;
    serde_json::from_str(&text).ok()
}
