//! `cargo xtask dist [--base-path /latent/] [--out DIR] [--no-build]`: the playground as a
//! self-contained static site for any host, at its root or under a sub-path.
//!
//! One build of the app (`dist/`, made first unless `--no-build`; `web.rs`) is copied to `DIR` (default
//! `site/`) and its index.html pointed at the base path: `<base href>` (which the app reads for
//! its router, lesson links, worker script, weights and recorded runs: `app/src/base_path.rs`)
//! and every root-relative link to a file of the build. A copy of index.html goes under each
//! page's folder (`nqueens/index.html`, ...), so a reload or a shared link works on a plain file
//! server without a rewrite rule, and as `404.html`, which hosts such as GitHub Pages serve for
//! any other address (the app then says the page does not exist).

use std::fs;
use std::path::{Path, PathBuf};

use crate::pages::PAGES;

/// What `dist` was asked for.
#[derive(Debug, PartialEq)]
pub struct DistArgs {
    pub base_path: String,
    pub out: PathBuf,
    pub build: bool,
}

/// A marker dist leaves in its output folder, so it only ever replaces a folder it wrote.
const MARKER: &str = ".latent-playground-site";

pub fn parse_args(args: &[String]) -> Result<DistArgs, String> {
    let mut parsed = DistArgs { base_path: "/".into(), out: PathBuf::from("site"), build: true };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--base-path" => parsed.base_path = normalize_base_path(&value("--base-path")?)?,
            "--out" => parsed.out = PathBuf::from(value("--out")?),
            "--no-build" => parsed.build = false,
            other => {
                return Err(format!(
                    "dist: unknown argument {other:?}; usage: cargo xtask dist [--base-path /latent/] [--out DIR] [--no-build]"
                ));
            }
        }
    }
    Ok(parsed)
}

/// `/latent/` from `latent`, `/latent` or `/latent/`; `/` for the root. Only URL-safe path
/// characters, no empty, `.` or `..` segments.
pub fn normalize_base_path(raw: &str) -> Result<String, String> {
    let segments: Vec<&str> = raw.trim_matches('/').split('/').filter(|s| !s.is_empty()).collect();
    if raw.contains("//") && !raw.trim_matches('/').is_empty() {
        return Err(format!("--base-path {raw:?} has an empty segment"));
    }
    for s in &segments {
        if *s == "." || *s == ".." || !s.chars().all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c)) {
            return Err(format!("--base-path {raw:?}: segment {s:?} must be letters, digits, '-', '.', '_' or '~' (and not . or ..)"));
        }
    }
    Ok(if segments.is_empty() { "/".into() } else { format!("/{}/", segments.join("/")) })
}

/// index.html of the app's build, pointed at `base`: the `<base href>` and each root-relative
/// reference to one of the build's top-level `files`.
pub fn rebase_index(html: &str, base: &str, files: &[String]) -> Result<String, String> {
    const ROOT_BASE: &str = "<base href=\"/\"";
    if !html.contains(ROOT_BASE) {
        return Err("dist/index.html has no <base href=\"/\"> (app/index.html must keep <base href=\"/\">)".into());
    }
    let mut out = html.replacen(ROOT_BASE, &format!("<base href=\"{base}\""), 1);
    for f in files {
        for q in ['"', '\''] {
            out = out.replace(&format!("{q}/{f}"), &format!("{q}{base}{f}"));
        }
    }
    Ok(out)
}

pub(crate) fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            fs::copy(&src, &dst).map_err(|e| format!("{} -> {}: {e}", src.display(), dst.display()))?;
        }
    }
    Ok(())
}

/// Writes the site from the app's build in `build_dir`.
pub fn write_site(build_dir: &Path, args: &DistArgs) -> Result<(), String> {
    let index = fs::read_to_string(build_dir.join("index.html"))
        .map_err(|e| format!("{}: {e} (build it first: cargo xtask dist without --no-build)", build_dir.join("index.html").display()))?;
    let out = &args.out;
    if out.exists() {
        let empty = fs::read_dir(out).map_err(|e| format!("{}: {e}", out.display()))?.next().is_none();
        if !empty && !out.join(MARKER).exists() {
            return Err(format!("{} exists and was not written by `cargo xtask dist`: choose another --out", out.display()));
        }
        fs::remove_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    copy_dir(build_dir, out)?;
    let files: Vec<String> = fs::read_dir(build_dir)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()) || e.file_name() == "weights" || e.file_name() == "runs")
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "index.html")
        .collect();
    let page = rebase_index(&index, &args.base_path, &files)?;
    let write = |p: PathBuf| fs::write(&p, &page).map_err(|e| format!("{}: {e}", p.display()));
    write(out.join("index.html"))?;
    write(out.join("404.html"))?;
    for route in PAGES.iter().map(|p| p.path) {
        fs::create_dir_all(out.join(route)).map_err(|e| e.to_string())?;
        write(out.join(route).join("index.html"))?;
    }
    fs::write(out.join(MARKER), format!("base path {}\n", args.base_path)).map_err(|e| e.to_string())?;
    // GitHub Pages: publish the files as they are (no Jekyll).
    fs::write(out.join(".nojekyll"), "").map_err(|e| e.to_string())?;
    eprintln!(
        "xtask: wrote the site for {} to {} ({} pages); copy the folder's contents to the host at that path",
        args.base_path,
        out.display(),
        PAGES.len() + 1
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn base_paths_are_normalized_and_bad_ones_refused() {
        assert_eq!(normalize_base_path("/").unwrap(), "/");
        assert_eq!(normalize_base_path("latent").unwrap(), "/latent/");
        assert_eq!(normalize_base_path("/latent").unwrap(), "/latent/");
        assert_eq!(normalize_base_path("/a/b-c_d.e/").unwrap(), "/a/b-c_d.e/");
        for bad in ["/a//b/", "/../x/", "/a b/", "/x?y/", "/./"] {
            assert!(normalize_base_path(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn arguments_parse_and_unknown_ones_are_refused() {
        let a = parse_args(&strings(&["--base-path", "latent", "--out", "/tmp/x", "--no-build"])).unwrap();
        assert_eq!(a, DistArgs { base_path: "/latent/".into(), out: "/tmp/x".into(), build: false });
        assert!(parse_args(&strings(&["--base-path"])).is_err());
        assert!(parse_args(&strings(&["--bogus"])).is_err());
    }

    #[test]
    fn the_index_points_at_the_base_and_only_the_builds_files_move() {
        let html = "<base href=\"/\"/><link href=\"/style.css\"><script>import init from '/app.js'; init({ module_or_path: '/app_bg.wasm' })</script><a href=\"/elsewhere\">";
        let out = rebase_index(html, "/latent/", &strings(&["style.css", "app.js", "app_bg.wasm"])).unwrap();
        assert_eq!(
            out,
            "<base href=\"/latent/\"/><link href=\"/latent/style.css\"><script>import init from '/latent/app.js'; init({ module_or_path: '/latent/app_bg.wasm' })</script><a href=\"/elsewhere\">"
        );
        assert!(rebase_index("<html></html>", "/x/", &[]).is_err());
    }

    #[test]
    fn a_site_is_written_with_every_page_and_never_over_a_foreign_folder() {
        let tmp = std::env::temp_dir().join(format!("xtask-dist-test-{}", std::process::id()));
        let build = tmp.join("build");
        fs::create_dir_all(build.join("weights")).unwrap();
        fs::write(build.join("index.html"), "<base href=\"/\"/><script src=\"/app.js\"></script>").unwrap();
        fs::write(build.join("app.js"), "js").unwrap();
        fs::write(build.join("weights").join("m.json"), "{}").unwrap();
        let args = DistArgs { base_path: "/latent/".into(), out: tmp.join("site"), build: false };
        write_site(&build, &args).unwrap();
        let expect = "<base href=\"/latent/\"/><script src=\"/latent/app.js\"></script>";
        assert_eq!(fs::read_to_string(tmp.join("site/index.html")).unwrap(), expect);
        assert_eq!(fs::read_to_string(tmp.join("site/404.html")).unwrap(), expect);
        for p in PAGES.iter().map(|p| p.path) {
            assert_eq!(fs::read_to_string(tmp.join("site").join(p).join("index.html")).unwrap(), expect);
        }
        assert_eq!(fs::read_to_string(tmp.join("site/weights/m.json")).unwrap(), "{}");
        // Again over its own output: fine. Over a folder it did not write: refused, untouched.
        write_site(&build, &args).unwrap();
        let foreign = tmp.join("mine");
        fs::create_dir_all(&foreign).unwrap();
        fs::write(foreign.join("notes.txt"), "keep").unwrap();
        let err = write_site(&build, &DistArgs { out: foreign.clone(), ..args }).unwrap_err();
        assert!(err.contains("not written by"), "{err}");
        assert_eq!(fs::read_to_string(foreign.join("notes.txt")).unwrap(), "keep");
        fs::remove_dir_all(&tmp).unwrap();
    }
}
