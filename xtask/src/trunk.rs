//! The page `cargo xtask` serves, made from `app/index.html`, whose `data-trunk` links describe
//! the build for trunk (with the top-level `Trunk.toml`). xtask builds the same three wasm
//! binaries itself (`web.rs`) and puts its own loading lines where the trunk links were: the
//! style sheet, a preload of the page's wasm and the module script that starts it (the workers
//! are started by the page, `app/src/gpu_probe.rs`). The test below holds the two descriptions
//! together: each trunk link of a binary is one of `web::ALL`, with its features, glue and
//! wasm-opt level, and Trunk.toml keeps the file names the page asks for.

/// What xtask's site loads in place of the trunk links: the page's binary `bin`.
fn loader(bin: &str) -> String {
    [
        "  <link rel=\"stylesheet\" href=\"/style.css\">".to_string(),
        format!("  <link rel=\"modulepreload\" href=\"/{bin}.js\" crossorigin=\"anonymous\">"),
        format!("  <link rel=\"preload\" href=\"/{bin}_bg.wasm\" crossorigin=\"anonymous\" as=\"fetch\" type=\"application/wasm\">"),
        "  <script type=\"module\">".to_string(),
        format!("    import init from '/{bin}.js';"),
        format!("    await init({{ module_or_path: '/{bin}_bg.wasm' }});"),
        "  </script>".to_string(),
    ]
    .join("\n")
}

/// `app/index.html` as xtask's site serves it: the trunk links out, xtask's loader where the
/// first of them was. An error if it has none (then neither build would load the page).
pub fn page_html(source: &str, page: &str) -> Result<String, String> {
    let mut out = Vec::new();
    let mut placed = false;
    for line in source.lines() {
        if line.trim_start().starts_with("<link data-trunk ") {
            if !placed {
                out.push(loader(page));
                placed = true;
            }
        } else {
            out.push(line.to_string());
        }
    }
    if !placed {
        return Err("app/index.html has no <link data-trunk ...> line: it describes the build".into());
    }
    Ok(out.join("\n") + "\n")
}

/// One `data-trunk rel="rust"` link: its binary, features, wasm-bindgen target, wasm-opt level.
#[cfg(test)]
#[derive(Debug, PartialEq)]
struct TrunkRust {
    bin: String,
    features: String,
    target: String,
    wasm_opt: String,
}

/// The value of `name="..."` in a tag, empty if absent.
#[cfg(test)]
fn attr(tag: &str, name: &str) -> String {
    let key = format!(" {name}=\"");
    tag.find(&key).map(|i| tag[i + key.len()..].split('"').next().unwrap_or_default().to_string()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::root;
    use crate::web::{ALL, Glue, PAGE};

    fn index() -> String {
        std::fs::read_to_string(root().join("app").join("index.html")).unwrap()
    }

    #[test]
    fn the_trunk_links_are_xtasks_builds() {
        let links: Vec<TrunkRust> = index()
            .lines()
            .filter(|l| l.contains("data-trunk") && l.contains("rel=\"rust\""))
            .map(|l| TrunkRust {
                bin: attr(l, "data-bin"),
                features: attr(l, "data-cargo-features"),
                target: attr(l, "data-bindgen-target"),
                wasm_opt: attr(l, "data-wasm-opt"),
            })
            .collect();
        let ours: Vec<TrunkRust> = ALL
            .iter()
            .map(|w| TrunkRust {
                bin: w.bin.into(),
                features: w.features.into(),
                target: (if w.glue == Glue::Web { "web" } else { "no-modules" }).into(),
                // web.rs runs wasm-opt -Oz on every binary of a release build.
                wasm_opt: "z".into(),
            })
            .collect();
        assert_eq!(links, ours, "app/index.html's trunk links and xtask's web::ALL describe other builds");
        let page = index().lines().find(|l| l.contains("data-type=\"main\"")).map(|l| attr(l, "data-bin"));
        assert_eq!(page.as_deref(), Some(PAGE.bin), "the page is trunk's main binary");
        // Trunk.toml: the page's index, file names without hashes (the page and gpu_probe.rs ask
        // for app.js, worker_cpu.js ...), the wasm-bindgen that Cargo.lock pins, binaryen 132.
        let trunk = std::fs::read_to_string(root().join("Trunk.toml")).unwrap();
        let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap();
        let bindgen = lock.split("name = \"wasm-bindgen\"\nversion = \"").nth(1).and_then(|r| r.split('"').next()).unwrap();
        for line in [
            "target = \"app/index.html\"".to_string(),
            "filehash = false".into(),
            format!("wasm_bindgen = \"{bindgen}\""),
            "wasm_opt = \"version_132\"".into(),
        ] {
            assert!(trunk.lines().any(|l| l.trim() == line), "Trunk.toml lacks {line}");
        }
        // The shipped weights and recorded runs travel with both sites.
        for dir in ["weights", "runs"] {
            assert!(index().contains(&format!("rel=\"copy-dir\" href=\"../public/{dir}\"")), "trunk copies public/{dir}");
        }
    }

    #[test]
    fn xtasks_page_loads_its_own_build_where_the_trunk_links_were() {
        let page = page_html(&index(), PAGE.bin).unwrap();
        assert!(!page.contains("<link data-trunk"));
        assert!(page.contains("import init from '/app.js';") && page.contains("module_or_path: '/app_bg.wasm'"));
        assert!(page.contains("<link rel=\"stylesheet\" href=\"/style.css\">"));
        let (head, body) = page.split_once("</head>").unwrap();
        assert!(head.contains("<script type=\"module\">") && body.contains("<noscript>"));
        assert!(page_html("<html></html>", "app").is_err(), "a page without the build's description is refused");
    }
}
