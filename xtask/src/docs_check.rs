//! The docs check `cargo xtask test` runs first: the README stays a short front door, every
//! relative link in it and in `docs/` resolves (to a file, and to a heading when it names one),
//! every page route and every `native-trainer` subcommand appears in the README's tables, and no
//! file of the repository points outside it (the parent directory's `shared` folder) or speaks of
//! the team's own bookkeeping (issue numbers). Plain std, no regex: the rules are few and simple.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// The README's length bar: a front door, read in five minutes.
pub const README_MAX_LINES: usize = 300;
/// A results page states the current result in under this many lines; its diagnostics and
/// history go to `docs/results/notes/<study>.md`.
pub const RESULTS_MAX_LINES: usize = 400;

/// What the check found.
pub struct Checked {
    /// Every problem, as one line each; empty when the docs are in order.
    pub problems: Vec<String>,
    pub readme_lines: usize,
}

pub fn check(root: &Path) -> Result<Checked, String> {
    let mut problems = Vec::new();
    let readme = read(&root.join("README.md"))?;
    let lines = readme.lines().count();
    if lines >= README_MAX_LINES {
        problems.push(format!("README.md: {lines} lines, the bar is under {README_MAX_LINES}"));
    }
    let mut pages = vec![root.join("README.md")];
    markdown_under(&root.join("docs"), &mut pages)?;
    let mut anchors = Anchors::default();
    for page in &pages {
        let text = read(page)?;
        for (line_no, target) in links(&text) {
            if let Err(why) = resolve(page, &target, &mut anchors) {
                problems.push(format!("{}:{line_no}: link `{target}`: {why}", rel(root, page)));
            }
        }
    }
    let rows = table_rows(&readme);
    let routes = std::iter::once("/".to_string()).chain(crate::pages::PAGES.iter().map(|p| format!("/{}", p.path)));
    for route in routes {
        if !rows.iter().any(|r| r.contains(&format!("`{route}`"))) {
            problems.push(format!("README.md: the page `{route}` is in no table row"));
        }
    }
    let cli = read(&root.join("native-trainer/src/cli.rs"))?;
    for sub in subcommands(&cli) {
        if !rows.iter().any(|r| r.contains(&format!("`{sub}`")) || r.contains(&format!("`{sub} "))) {
            problems.push(format!("README.md: the subcommand `{sub}` is in no table row"));
        }
    }
    problems.extend(results_pages(root)?);
    problems.extend(repository_words(root)?);
    Ok(Checked { problems, readme_lines: lines })
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

fn markdown_under(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            markdown_under(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
    Ok(())
}

/// Lines outside fenced code blocks, with their 1-based numbers.
fn prose(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    text.lines().enumerate().filter_map(move |(i, line)| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return None;
        }
        (!fenced).then_some((i + 1, line))
    })
}

/// Strips inline code spans, so a `[a](b)` shown as code is not taken for a link.
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            out.push(c);
        }
    }
    out
}

/// The targets of inline links and images, `[text](target)` and `![alt](target)`, plus the
/// `src`/`href` of HTML tags, that are relative (no scheme).
pub fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, raw) in prose(text) {
        let line = without_code(raw);
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("").to_string();
            out.push((n, target));
            rest = &after[end..];
        }
        for attr in ["src=\"", "href=\""] {
            let mut rest = line.as_str();
            while let Some(i) = rest.find(attr) {
                let after = &rest[i + attr.len()..];
                let Some(end) = after.find('"') else { break };
                out.push((n, after[..end].to_string()));
                rest = &after[end..];
            }
        }
    }
    out.retain(|(_, t)| !t.is_empty() && !t.contains("://") && !t.starts_with("mailto:"));
    out
}

/// The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as
/// hyphens, repeats numbered `-1`, `-2`, ...
pub fn heading_anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (_, line) in prose(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let slug: String = line[hashes..]
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let count = seen.entry(slug.clone()).or_insert(0);
        out.push(if *count == 0 { slug.clone() } else { format!("{slug}-{count}") });
        *count += 1;
    }
    out
}

#[derive(Default)]
struct Anchors(HashMap<PathBuf, Vec<String>>);

fn resolve(page: &Path, target: &str, anchors: &mut Anchors) -> Result<(), String> {
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let file = if path.is_empty() { page.to_path_buf() } else { normalise(&page.parent().unwrap_or(Path::new(".")).join(path)) };
    if !file.exists() {
        return Err(format!("no such file {}", file.display()));
    }
    let Some(anchor) = anchor else { return Ok(()) };
    if file.extension().is_none_or(|e| e != "md") {
        return Ok(());
    }
    if !anchors.0.contains_key(&file) {
        anchors.0.insert(file.clone(), heading_anchors(&read(&file)?));
    }
    if anchors.0[&file].iter().any(|a| a == anchor) { Ok(()) } else { Err(format!("no heading #{anchor} in {}", file.display())) }
}

fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The README's table rows (lines that start with `|`), code spans kept.
fn table_rows(readme: &str) -> Vec<&str> {
    prose(readme).map(|(_, l)| l).filter(|l| l.trim_start().starts_with('|')).collect()
}

/// The trainer's subcommands, read from its clap `Command` enum: each variant, in kebab case.
pub fn subcommands(cli_rs: &str) -> Vec<String> {
    let Some(start) = cli_rs.find("pub enum Command {") else { return Vec::new() };
    let body = &cli_rs[start..];
    let body = &body[..body.find("\n}").unwrap_or(body.len())];
    body.lines()
        .skip(1)
        .filter(|l| l.starts_with("    ") && l.chars().nth(4).is_some_and(|c| c.is_ascii_uppercase()))
        .map(|l| {
            let name: String = l.trim().chars().take_while(|c| c.is_alphanumeric()).collect();
            let mut kebab = String::new();
            for (i, c) in name.chars().enumerate() {
                if c.is_ascii_uppercase() && i > 0 {
                    kebab.push('-');
                }
                kebab.push(c.to_ascii_lowercase());
            }
            kebab
        })
        .collect()
}

/// Files of the repository (tracked, or new and not ignored) that point at the folder beside
/// the checkout or name an issue by number. Vendored code (`third_party/`) keeps its upstream
/// words.
/// Every results page is under [`RESULTS_MAX_LINES`], and every notes page is a results page's.
fn results_pages(root: &Path) -> Result<Vec<String>, String> {
    let dir = root.join("docs/results");
    let mut problems = Vec::new();
    if !dir.is_dir() {
        return Ok(problems);
    }
    let listed = |dir: &Path| -> Result<Vec<PathBuf>, String> {
        let mut md: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        md.sort();
        Ok(md)
    };
    for page in listed(&dir)? {
        let lines = read(&page)?.lines().count();
        if lines >= RESULTS_MAX_LINES {
            problems.push(format!(
                "{}: {lines} lines, a results page is under {RESULTS_MAX_LINES} (move diagnostics and history to notes/)",
                rel(root, &page)
            ));
        }
    }
    let notes = dir.join("notes");
    if notes.is_dir() {
        for page in listed(&notes)? {
            if !dir.join(page.file_name().unwrap_or_default()).exists() {
                problems.push(format!("{}: notes of no results page", rel(root, &page)));
            }
        }
    }
    Ok(problems)
}

fn repository_words(root: &Path) -> Result<Vec<String>, String> {
    let out = std::process::Command::new("git")
        .current_dir(root)
        .args(["ls-files", "--cached", "--others", "--exclude-standard", "-z"])
        .output()
        .map_err(|e| format!("git ls-files: {e}"))?;
    let outside = ["..", "shared"].join("/");
    let mut problems = Vec::new();
    for name in String::from_utf8_lossy(&out.stdout).split('\0').filter(|n| !n.is_empty()) {
        if name.starts_with("third_party/") || name.ends_with("package-lock.json") {
            continue;
        }
        let Ok(bytes) = std::fs::read(root.join(name)) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        if text.contains(&outside) {
            problems.push(format!("{name}: points at {outside}, which no clone has"));
        }
        if let Some(phrase) = issue_number(&text) {
            problems.push(format!("{name}: names the team's bookkeeping (\"{phrase}\")"));
        }
    }
    Ok(problems)
}

/// The first mention of an issue by number ("issue", "issues" or "issue #", then a digit) in
/// `text`, if any.
pub fn issue_number(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find("issue") {
        let at = from + i;
        from = at + 5;
        if lower[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = lower[at + 5..].strip_prefix('s').unwrap_or(&lower[at + 5..]);
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let rest = rest.strip_prefix('#').unwrap_or(rest);
        if rest.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return Some(lower[at..].chars().take(9).collect());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_found_outside_code_and_only_when_relative() {
        let md = "See [a](docs/a.md#x) and ![pic](p.png \"t\").\n`[not](code.md)` [web](https://x.y)\n```\n[fenced](no.md)\n```\n<img src=\"docs/f.png\">";
        let got: Vec<String> = links(md).into_iter().map(|(_, t)| t).collect();
        assert_eq!(got, ["docs/a.md#x", "p.png", "docs/f.png"]);
    }

    #[test]
    fn anchors_follow_github() {
        let md = "# The `train` command\n## Results: 8x8, test split (898 inputs)\n## Results: 8x8, test split (898 inputs)\n```\n# not a heading\n```\n#nospace";
        assert_eq!(heading_anchors(md), ["the-train-command", "results-8x8-test-split-898-inputs", "results-8x8-test-split-898-inputs-1"]);
    }

    #[test]
    fn subcommands_are_the_enum_variants_in_kebab_case() {
        let src = "#[derive(Subcommand)]\npub enum Command {\n    /// Train.\n    Train(TrainCli),\n    Data {\n        #[command(subcommand)]\n        command: DataCommand,\n    },\n    GpuCheck,\n}\npub enum Other {\n    Nope,\n}";
        assert_eq!(subcommands(src), ["train", "data", "gpu-check"]);
        // The real list, so a renamed enum cannot silently check nothing.
        let real = subcommands(include_str!("../../native-trainer/src/cli.rs"));
        assert!(real.len() >= 13 && real.contains(&"train".to_string()) && real.contains(&"eval".to_string()), "{real:?}");
    }

    #[test]
    fn issue_numbers_are_caught_and_other_words_are_not() {
        // Built from parts, so this file does not fail its own check.
        let word = "issue";
        assert_eq!(issue_number(&format!("fixed in {word} 17.")), Some(format!("{word} 17.")));
        assert!(issue_number(&format!("{word}s #4 and 5")).is_some());
        assert_eq!(issue_number("a known issue; tissue 3; reissue 2; issued 4"), None);
    }

    #[test]
    fn a_broken_link_a_missing_route_a_long_readme_and_long_results_are_reported() {
        let dir = std::env::temp_dir().join(format!("docs-check-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("docs")).unwrap();
        std::fs::create_dir_all(dir.join("native-trainer/src")).unwrap();
        std::fs::write(dir.join("native-trainer/src/cli.rs"), "pub enum Command {\n    Train(X),\n}\n").unwrap();
        std::fs::write(dir.join("docs/a.md"), "# Top\n[back](../README.md#nowhere)\n").unwrap();
        std::fs::create_dir_all(dir.join("docs/results/notes")).unwrap();
        std::fs::write(dir.join("docs/results/long.md"), "x\n".repeat(RESULTS_MAX_LINES)).unwrap();
        std::fs::write(dir.join("docs/results/short.md"), "# Short\n").unwrap();
        std::fs::write(dir.join("docs/results/notes/short.md"), "# Notes\n").unwrap();
        std::fs::write(dir.join("docs/results/notes/orphan.md"), "# Orphan\n").unwrap();
        let mut readme = String::from("| `/` | `/nqueens` | `train` |\n[a](docs/a.md#top) [b](docs/b.md)\n");
        readme.push_str(&"x\n".repeat(README_MAX_LINES));
        std::fs::write(dir.join("README.md"), readme).unwrap();
        let problems = check(&dir).unwrap().problems.join("\n");
        let _ = std::fs::remove_dir_all(&dir);
        assert!(problems.contains("lines, the bar"), "{problems}");
        assert!(problems.contains("docs/results/long.md: 400 lines"), "{problems}");
        assert!(!problems.contains("short.md"), "{problems}");
        assert!(problems.contains("docs/results/notes/orphan.md: notes of no results page"), "{problems}");
        assert!(problems.contains("docs/b.md"), "{problems}");
        assert!(problems.contains("#nowhere"), "{problems}");
        assert!(!problems.contains("#top"), "{problems}");
        assert!(problems.contains("`/sudoku` is in no table row"), "{problems}");
        assert!(!problems.contains("`/nqueens` is in no"), "{problems}");
        assert!(!problems.contains("`train`"), "{problems}");
    }
}
