//! Exports: a plot as SVG (the drawing as it is on screen) and its data as CSV, a gallery as
//! text. Files are made in the page, from what it holds; nothing is sent anywhere.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Offers `text` to the visitor as a file named `name` (a Blob and a temporary link).
pub fn download(name: &str, mime: &str, text: &str) {
    offer(name, mime, &text.into());
}

/// Offers `bytes` to the visitor as a file named `name`.
pub fn download_bytes(name: &str, mime: &str, bytes: &[u8]) {
    offer(name, mime, &js_sys::Uint8Array::from(bytes).into());
}

/// A Blob of the one part `part` (a string or bytes), offered as the file `name`.
fn offer(name: &str, mime: &str, part: &wasm_bindgen::JsValue) {
    let parts = js_sys::Array::of1(part);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = document().create_element("a") {
        let a: web_sys::HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(name);
        let _ = document().body().map(|b| b.append_child(&a));
        a.click();
        a.remove();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// The `<svg>` inside the `<figure>` that holds `from`, as a standalone SVG file's text.
fn figure_svg(from: &web_sys::Element) -> Option<String> {
    let svg = from.closest("figure").ok()??.query_selector("svg").ok()??;
    let text = svg.outer_html();
    Some(if text.contains("xmlns=") { text } else { text.replacen("<svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"", 1) })
}

/// CSV text from a header and rows (fields holding a comma, quote or newline are quoted).
pub fn csv(header: &[&str], rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let field = |f: &str| if f.contains([',', '"', '\n']) { format!("\"{}\"", f.replace('"', "\"\"")) } else { f.to_string() };
    let mut out = header.join(",");
    out.push('\n');
    for row in rows {
        out.push_str(&row.iter().map(|f| field(f)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

/// "SVG" and "CSV" buttons for the plot in the same `<figure>`: `name` is the file name without
/// its extension, `data` the plot's data as CSV text.
#[component]
pub fn PlotExports(#[prop(into)] name: String, #[prop(into)] data: Signal<String>) -> impl IntoView {
    let svg_name = format!("{name}.svg");
    let csv_name = format!("{name}.csv");
    let label = name.replace('-', " ");
    view! {
        <span class="exports">
            <button
                class="export-svg"
                aria-label=format!("Download the plot {label} as SVG")
                on:click=move |e| {
                    let from = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
                    if let Some(svg) = from.as_ref().and_then(figure_svg) {
                        download(&svg_name, "image/svg+xml", &svg);
                    }
                }
            >
                "SVG"
            </button>
            <button
                class="export-csv"
                aria-label=format!("Download the data of {label} as CSV")
                on:click=move |_| download(&csv_name, "text/csv", &data.get_untracked())
            >
                "CSV"
            </button>
        </span>
    }
}

/// A "Download as text" button for a gallery: `text()` is made when pressed.
#[component]
pub fn TextExport(
    #[prop(into)] name: String,
    #[prop(into)] label: String,
    text: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    view! {
        <button class="export-text" on:click=move |_| download(&name, "text/plain", &text())>{label}</button>
    }
}
