//! The playground's pages, as paths under the site's root. One list for the router's table
//! (a native test checks `ui/mod.rs` routes exactly these) and for `cargo xtask dist`, which
//! writes an `index.html` under each so a reload or a shared link works on a plain static host.
//! Plain data with no dependencies: xtask compiles this file too (`#[path]`).

/// Every route but the start page (`/`), without the leading slash.
pub const PAGES: [&str; 8] = ["nqueens", "sudoku", "tree", "grammar", "jepa", "coloring", "generate", "learn"];

#[cfg(test)]
mod tests {
    use super::PAGES;

    /// The router in `ui/mod.rs` (browser-only, so read as text here) has a route for the start
    /// page and for each entry of [`PAGES`], and no other.
    #[test]
    fn the_router_routes_exactly_these_pages() {
        let src = include_str!("ui/mod.rs");
        let mut routed: Vec<&str> = src
            .split("<Route path=path!(\"/")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').expect("a route path ends with a quote")])
            .collect();
        assert_eq!(routed.first(), Some(&""), "the start page is routed first");
        routed.remove(0);
        assert_eq!(routed, PAGES.to_vec());
        // The header's navigation links every page too, under the site's base (a leptos `<A>`
        // does not add the router's base to an absolute path).
        for p in PAGES {
            assert!(src.contains(&format!("<A href=crate::base_path::href(\"/{p}\")>")), "the header links /{p} under the base");
        }
    }
}
