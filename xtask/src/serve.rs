//! `cargo xtask serve`: the playground on http://127.0.0.1:8080/ as soon as the page and the
//! CPU worker are built; the WebGPU worker is built after, while the site is already served, and
//! put beside them when done. Until then a page whose browser offers a hardware WebGPU adapter
//! finds no `worker_webgpu.js`, says so and runs the model on the CPU
//! (`app/src/ui/model_worker/`); a reload after "the WebGPU worker is ready" times it against the CPU.
//!
//! Nothing is passed through wasm-opt: on a local server the files' size hardly matters, and it
//! would take minutes of a core (`cargo xtask dist` and `test` shrink them). The server is a
//! small static one (std only): a file of the site, the folder's index.html, or
//! for an extension-less path (the app's routes, `/sudoku`) index.html; 404 otherwise.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::time::Instant;

use crate::web;

/// Builds the first part, serves, builds the rest; returns only on an error.
pub fn serve() -> Result<(), String> {
    crate::ensure_build_tools()?;
    let port: u16 = std::env::var("PORT").unwrap_or_else(|_| "8080".into()).parse().map_err(|e| format!("PORT: {e}"))?;
    let started = Instant::now();
    let site = web::site_dir();
    let how = web::Build { optimise: false, lint: false };
    web::build_site(&site, &[web::PAGE, web::CPU_WORKER], how)?;
    let listener = TcpListener::bind(("127.0.0.1", port)).map_err(|e| format!("127.0.0.1:{port}: {e} (PORT=... picks another port)"))?;
    eprintln!(
        "xtask: the playground is at http://127.0.0.1:{port}/ ({}, built in {} s; pages run the model on the CPU until the WebGPU worker is built)",
        crate::pages::PAGES.iter().map(|p| format!("/{}", p.path)).collect::<Vec<_>>().join(", "),
        started.elapsed().as_secs()
    );
    let serving = std::thread::spawn({
        let site = site.clone();
        move || accept(listener, site)
    });
    match web::build_wasm(web::WEBGPU_WORKER, &site, how) {
        Ok(()) => eprintln!(
            "xtask: the WebGPU worker is ready ({} s after the start): reload a page to use a GPU; http://127.0.0.1:{port}/",
            started.elapsed().as_secs()
        ),
        Err(e) => eprintln!("xtask: the WebGPU worker did not build ({e}); the playground goes on serving with the CPU worker"),
    }
    serving.join().map_err(|_| "the server stopped".to_string())
}

/// Serves `site` to every connection, each on its own thread.
pub fn accept(listener: TcpListener, site: PathBuf) {
    for stream in listener.incoming().flatten() {
        let site = site.clone();
        std::thread::spawn(move || {
            let _ = answer(stream, &site);
        });
    }
}

/// The file of `site` that answers a request for `target` (None: 404).
pub fn resolve(site: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let relative = Path::new(path.trim_start_matches('/'));
    if relative.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let file = site.join(relative);
    if file.is_file() {
        return Some(file);
    }
    if file.join("index.html").is_file() {
        return Some(file.join("index.html"));
    }
    // The app's routes have no extension; a missing file with one is a 404.
    let is_route = relative.extension().is_none();
    is_route.then(|| site.join("index.html")).filter(|f| f.is_file())
}

/// The Content-Type for a file of the site.
pub fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "csv" => "text/csv; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "txt" | "md" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn answer(stream: TcpStream, site: &Path) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // The headers are read and not needed.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let mut out = stream;
    if method != "GET" && method != "HEAD" {
        return out.write_all(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    }
    let Some(file) = resolve(site, target) else {
        let body = format!("not found: {target}\n");
        let head =
            format!("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
        out.write_all(head.as_bytes())?;
        return if method == "GET" { out.write_all(body.as_bytes()) } else { Ok(()) };
    };
    let body = std::fs::read(&file)?;
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        content_type(&file),
        body.len()
    );
    out.write_all(head.as_bytes())?;
    if method == "GET" {
        out.write_all(&body)?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn site() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-serve-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("weights")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>page</p>").unwrap();
        std::fs::write(dir.join("app_bg.wasm"), [0u8, 97, 115, 109]).unwrap();
        std::fs::write(dir.join("weights").join("m.json"), "{}").unwrap();
        dir
    }

    #[test]
    fn files_routes_and_misses_resolve_as_a_browser_needs() {
        let dir = site();
        assert_eq!(resolve(&dir, "/"), Some(dir.join("index.html")));
        assert_eq!(resolve(&dir, "/sudoku?n=4"), Some(dir.join("index.html")));
        assert_eq!(resolve(&dir, "/weights/m.json"), Some(dir.join("weights").join("m.json")));
        assert_eq!(resolve(&dir, "/worker_webgpu.js"), None, "a missing script is a 404, never the page");
        assert_eq!(resolve(&dir, "/../etc/passwd"), None);
        assert_eq!(content_type(&dir.join("app_bg.wasm")), "application/wasm");
        assert_eq!(content_type(Path::new("x.js")), "text/javascript; charset=utf-8");
    }

    #[test]
    fn the_server_answers_get_head_and_404() {
        let dir = site();
        let listener = TcpListener::bind(("127.0.0.1", 0)).unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || accept(listener, dir));
        let ask = |request: &str| {
            let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
            s.write_all(request.as_bytes()).unwrap();
            let mut text = String::new();
            s.read_to_string(&mut text).unwrap();
            text
        };
        let page = ask("GET /coloring HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(page.starts_with("HTTP/1.1 200") && page.contains("text/html") && page.ends_with("<p>page</p>"), "{page}");
        let head = ask("HEAD /app_bg.wasm HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(head.contains("application/wasm") && head.contains("Content-Length: 4") && head.ends_with("\r\n\r\n"), "{head}");
        assert!(ask("GET /worker_webgpu.js HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 404"));
        assert!(ask("POST / HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 405"));
    }
}
