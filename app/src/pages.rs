//! The page table: every page of the playground once, each row its path, the header's link, the
//! start page's card, the e2e group that drives it, and its view. The router's routes, the
//! header's navigation and the start page's cards are derived from it (`site/mod.rs`,
//! `site/home.rs`); `cargo xtask dist` writes an `index.html` under each path, so a reload or a
//! shared link works on a plain static host; the headline rows, the task pages and the e2e groups
//! are checked against it by the tests below. Adding a page is its folder under `ui/` and one row.
//!
//! Plain data: xtask compiles this file too (`#[path]`). The view is the page's component in the
//! browser build and nothing elsewhere (native tests and xtask have no Leptos views).

/// What a row's view is: the page's component, type-erased (browser only).
#[cfg(target_arch = "wasm32")]
pub type PageView = fn() -> leptos::prelude::AnyView;
/// Natively (tests, xtask) a page has no view.
#[cfg(not(target_arch = "wasm32"))]
pub type PageView = ();

/// The view of the component at `crate::ui::<path>`.
#[cfg(target_arch = "wasm32")]
macro_rules! view_of {
    ($($component:ident)::+) => {
        || leptos::prelude::IntoAny::into_any(crate::ui::$($component)::+())
    };
}
#[cfg(not(target_arch = "wasm32"))]
macro_rules! view_of {
    ($($component:ident)::+) => {
        ()
    };
}

/// The start page's card for a page: its link text and what it offers.
pub struct Card {
    pub link: &'static str,
    pub text: &'static str,
}

/// One page of the playground.
pub struct Page {
    /// The route under the site's root, without the leading slash.
    pub path: &'static str,
    /// The header's link text.
    pub nav: &'static str,
    /// The start page's card, if the page has one (the lessons are linked from the intro).
    pub card: Option<Card>,
    /// The e2e group (`tests/e2e/shard.mjs`) whose tests drive the page.
    pub e2e: &'static str,
    /// The page's view.
    pub view: PageView,
}

/// Every page but the start page (`/`), in the header's order (the start page's cards keep it).
pub const PAGES: &[Page] = &[
    Page {
        path: "nqueens",
        nav: "N-Queens",
        card: Some(Card {
            link: "N-Queens",
            text: "Place a few queens, let 1 to 64 sampled trajectories complete the board, and see how many of the exact solver's completions they find.",
        }),
        e2e: "webgpu-nqueens",
        view: view_of!(nqueens::NQueensPage),
    },
    Page {
        path: "sudoku",
        nav: "Sudoku",
        card: Some(Card {
            link: "Sudoku",
            text: "Enter, paste or generate a puzzle; watch the recursion settle each cell, the samples vote, and an exact solver check the answer.",
        }),
        e2e: "sudoku",
        view: view_of!(sudoku::SudokuPage),
    },
    Page {
        path: "tree",
        nav: "Tree routes",
        card: Some(Card {
            link: "Tree routes (JEPA-Reasoner)",
            text: "A different kind of reasoner: it thinks in unit vectors, not words, and one vector can hold two choices at once. Ask it for a route through a tree and look inside each thought.",
        }),
        e2e: "tree",
        view: view_of!(tree::TreePage),
    },
    Page {
        path: "grammar",
        nav: "Grammar",
        card: Some(Card {
            link: "Grammar (Transformer vs COCONUT vs JEPA-Reasoner)",
            text: "Corrupt a sequence of a context-free grammar, perturb the models' thoughts, and see which of three models still completes it.",
        }),
        e2e: "grammar",
        view: view_of!(grammar::GrammarPage),
    },
    Page {
        path: "jepa",
        nav: "JEPA live",
        card: Some(Card {
            link: "LLM-JEPA trained live (description and regex, two views)",
            text: "Train two small language models side by side in your browser, one with a JEPA loss between the two views of each example, and watch their embeddings align.",
        }),
        e2e: "jepa",
        view: view_of!(jepa::JepaPage),
    },
    Page {
        path: "coloring",
        nav: "Graph colouring",
        card: Some(Card {
            link: "Graph colouring",
            text: "Draw a graph, ask for 1 to 64 three-colourings, watch the colours settle and the conflicts turn red, and count how many of the exact solver's colourings the samples found.",
        }),
        e2e: "coloring",
        view: view_of!(coloring::ColoringPage),
    },
    Page {
        path: "generate",
        nav: "Generate",
        card: Some(Card {
            link: "Generate",
            text: "No puzzle at all: from a blank input, GRAM draws handwritten digits or whole N-Queens boards out of noise, step by step, while TRM can only ever draw one.",
        }),
        e2e: "generate",
        view: view_of!(generate::GeneratePage),
    },
    Page {
        path: "train",
        nav: "Train",
        card: Some(Card {
            link: "Train GRAM and TRM live",
            text: "Train both reasoners from scratch in your browser, side by side, on 3-colourings of small graphs: watch GRAM learn to find many colourings while TRM learns one, then download the weights.",
        }),
        e2e: "train",
        view: view_of!(train::TrainPage),
    },
    Page { path: "learn", nav: "Lessons", card: None, e2e: "teacher", view: view_of!(learn::LearnPage) },
];

/// The row of a path (`/nqueens` or `nqueens`, a query ignored).
pub fn page(path: &str) -> Option<&'static Page> {
    let name = path.trim_start_matches('/').split('?').next().unwrap_or_default();
    PAGES.iter().find(|p| p.path == name)
}

#[cfg(test)]
mod tests {
    use super::{PAGES, page};

    /// Each path once, and each a plain word (it is a folder of the built site).
    #[test]
    fn each_page_once() {
        for (i, p) in PAGES.iter().enumerate() {
            assert!(p.path.chars().all(|c| c.is_ascii_lowercase()), "{}", p.path);
            assert!(PAGES[..i].iter().all(|q| q.path != p.path), "{} twice", p.path);
        }
        assert_eq!(page("/coloring?size=10").map(|p| p.nav), Some("Graph colouring"));
        assert!(page("/nowhere").is_none());
    }

    /// The browser-only views are read as text here: the router, the header and the start page
    /// take the table, and no page is routed or linked by hand beside it.
    #[test]
    fn routes_nav_and_cards_come_from_the_table() {
        let root = include_str!("site/mod.rs");
        assert!(root.contains("PAGES"), "site/mod.rs derives its routes and links from the table");
        let home = include_str!("site/home.rs");
        assert!(home.contains("PAGES"), "site/home.rs derives its cards from the table");
        for p in PAGES {
            let by_hand = format!("\"/{}\"", p.path);
            assert!(!root.contains(&by_hand), "site/mod.rs names /{} by hand", p.path);
            assert!(!home.contains(&by_hand) || p.card.is_none(), "site/home.rs names /{} by hand", p.path);
        }
    }

    /// Every page is driven by an e2e group that `tests/e2e/shard.mjs` runs, and every page
    /// folder of the app (a `ui/<page>` module with a `<Name>Page` component) has a row.
    #[test]
    fn every_page_has_its_e2e_group_and_every_page_folder_a_row() {
        // The workspace's root: this file is compiled by app and by xtask, each a folder below it.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace");
        let shards = std::fs::read_to_string(root.join("tests/e2e/shard.mjs")).expect("tests/e2e/shard.mjs");
        for p in PAGES {
            assert!(shards.contains(&format!("['{}', ", p.e2e)), "/{}: no e2e group '{}' in shard.mjs", p.path, p.e2e);
        }
        let mut components = Vec::new();
        for entry in std::fs::read_dir(root.join("app/src/ui")).expect("app/src/ui") {
            let path = entry.expect("a folder entry").path();
            // A page folder's component is in its page.rs; a one-file page's in the file.
            let module = if path.is_dir() { path.join("page.rs") } else { path.clone() };
            let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            let text = std::fs::read_to_string(&module).unwrap_or_default();
            if text.lines().any(|l| l.starts_with("pub fn ") && l.contains("Page()")) {
                assert!(page(&name).is_some(), "ui/{name} has a page component but no row in PAGES");
                components.push(name);
            }
        }
        for p in PAGES {
            assert!(components.iter().any(|c| c == p.path), "/{}: no page component in ui/{}", p.path, p.path);
        }
    }
}
