//! The wasm builds' two feature sets (`web.rs`): the page and the CPU worker compile the app's
//! dependencies with one, the WebGPU worker with burn's `webgpu` feature on top. cargo compiles a
//! crate once for both only where its features are the same in both, so app/Cargo.toml turns the
//! WebGPU worker's features of the shared crates (web-sys, hashbrown, cubecl-common, ...) on for
//! every wasm32 build. Left different: burn's own crates, which the page must not link the GPU
//! stack through (docs/speed.md, "Download size"), and the engine and the app built on them.
//!
//! The test below fails when a dependency update brings a difference back (and with it a second
//! compile of leptos, web-sys or gemm on every fresh machine); the fix is the named feature in
//! app/Cargo.toml's wasm32 dependencies.

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use crate::{WASM_TARGET, output};

    /// The crates allowed to differ: burn's, which carry the GPU backend, and ours on them.
    const DIFFERENT: [&str; 6] = ["app", "burn", "burn-backend", "burn-core", "burn-dispatch", "burn-tensor"];

    /// Each crate (name and version) of the app's wasm32 graph with `features`, and the features
    /// cargo resolves for it.
    fn resolved(features: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
        let mut tree = crate::cargo();
        tree.args(["tree", "-q", "--target", WASM_TARGET, "-p", "app", "-e", "features", "--prefix", "none", "-f", "{p}|{f}"]);
        tree.args(features);
        let text = output(&mut tree).expect("cargo tree runs");
        let mut crates: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for line in text.lines() {
            let Some((package, features)) = line.split_once('|') else { continue };
            let mut words = package.split_whitespace();
            let (Some(name), Some(version)) = (words.next(), words.next()) else { continue };
            let features = features.trim_end_matches(" (*)").split(',').filter(|f| !f.is_empty()).map(String::from);
            crates.entry(format!("{name} {version}")).or_default().extend(features);
        }
        crates
    }

    #[test]
    fn the_page_and_the_webgpu_worker_share_every_crate_but_burns() {
        let page = resolved(&[]);
        let webgpu = resolved(&["--features", "webgpu"]);
        assert!(page.keys().any(|k| k.starts_with("leptos v")), "the page's graph was read");
        let unshared: Vec<String> = page
            .iter()
            .filter(|(krate, features)| webgpu.get(*krate).is_some_and(|gpu| gpu != *features))
            .filter(|(krate, _)| !DIFFERENT.contains(&krate.split(' ').next().unwrap_or_default()))
            .map(|(krate, features)| {
                format!("{krate}: the WebGPU worker adds {:?}", webgpu[krate].difference(features).collect::<Vec<_>>())
            })
            .collect();
        assert!(unshared.is_empty(), "compiled twice for wasm32; add these features in app/Cargo.toml: {unshared:#?}");
        // burn's crates do differ: the page is built without the GPU backend.
        let burn = page.keys().find(|k| k.starts_with("burn v")).expect("burn in the page's graph");
        assert_ne!(page[burn], webgpu[burn]);
    }
}
