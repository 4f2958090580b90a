//! Where the site lives: at a host's root or under a sub-path (`https://example.org/latent/`,
//! built by `cargo xtask dist --base-path /latent/`). index.html's `<base href>` says which (`/` in
//! app/index.html, dist rewrites it), and everything the page links or fetches goes through here: the
//! router's base, lesson links, the address bar, the worker's script and the weights and recorded
//! runs it fetches.

/// Where the build copies `public/weights/`, under the site's root: the worker fetches weights and
/// the start page their manifests from here.
pub const WEIGHTS_PATH: &str = "/weights";

/// The router's base for a `<base href>` path: `""` at the root, `/latent` under `/latent/`.
pub fn router_base_of(base_href_path: &str) -> String {
    let trimmed = base_href_path.trim_end_matches('/');
    if trimmed.is_empty() {
        String::new()
    } else if trimmed.starts_with('/') {
        trimmed.to_string()
    } else {
        format!("/{trimmed}")
    }
}

/// `path` (a route such as `/nqueens?n=8`, starting with `/`) under the base `router_base`.
pub fn under(router_base: &str, path: &str) -> String {
    format!("{router_base}{path}")
}

/// A path the site's pages should show without its trailing slash (a static host that serves
/// `/latent/nqueens/index.html` redirects `/latent/nqueens` there): `Some(path)` to replace it
/// with, `None` when it is fine as it is (the root keeps its slash).
pub fn without_trailing_slash(router_base: &str, pathname: &str) -> Option<String> {
    let root = format!("{router_base}/");
    (pathname.len() > 1 && pathname.ends_with('/') && pathname != root).then(|| pathname.trim_end_matches('/').to_string())
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use leptos::prelude::{document, window};

    fn base_url() -> Option<web_sys::Url> {
        let uri = document().base_uri().ok().flatten()?;
        web_sys::Url::new(&uri).ok()
    }

    /// The router's base for this page: `""` or e.g. `/latent`.
    pub fn router_base() -> String {
        super::router_base_of(&base_url().map(|u| u.pathname()).unwrap_or_default())
    }

    /// The site's root as an absolute URL without a trailing slash (`http://host` or
    /// `http://host/latent`): what the worker's script, the weights and the recorded runs hang off.
    pub fn site_root() -> String {
        let origin = window().location().origin().unwrap_or_default();
        format!("{origin}{}", router_base())
    }

    /// A route's address under the site's base, for plain `<a>` links and the address bar.
    pub fn href(path: &str) -> String {
        super::under(&router_base(), path)
    }

    /// Drops a trailing slash from the address (see [`super::without_trailing_slash`]) before
    /// the router reads it, keeping the query.
    pub fn tidy_address() {
        let location = window().location();
        let Ok(pathname) = location.pathname() else { return };
        if let Some(path) = super::without_trailing_slash(&router_base(), &pathname) {
            let search = location.search().unwrap_or_default();
            if let Ok(history) = window().history() {
                let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{search}")));
            }
        }
    }
}
#[cfg(target_arch = "wasm32")]
pub use browser::{href, router_base, site_root, tidy_address};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_root_has_an_empty_router_base_and_a_sub_path_keeps_its_name() {
        assert_eq!(router_base_of("/"), "");
        assert_eq!(router_base_of(""), "");
        assert_eq!(router_base_of("/latent/"), "/latent");
        assert_eq!(router_base_of("/a/b/"), "/a/b");
        assert_eq!(under("", "/nqueens?n=8"), "/nqueens?n=8");
        assert_eq!(under("/latent", "/learn"), "/latent/learn");
    }

    #[test]
    fn a_trailing_slash_is_dropped_except_at_the_root() {
        assert_eq!(without_trailing_slash("", "/"), None);
        assert_eq!(without_trailing_slash("/latent", "/latent/"), None);
        assert_eq!(without_trailing_slash("/latent", "/latent/nqueens/"), Some("/latent/nqueens".into()));
        assert_eq!(without_trailing_slash("", "/sudoku/"), Some("/sudoku".into()));
        assert_eq!(without_trailing_slash("", "/sudoku"), None);
    }
}
