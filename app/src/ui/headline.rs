//! The start page's results table: the paper's number beside ours, ours read from each shipped
//! manifest as the page opens (`crate::headline`), each row linking to the page that runs it.

use leptos::prelude::*;
use leptos_router::components::A;
use serde_json::Value;

use super::HEADLINES;
use super::fetch::fetch_json;
use crate::headline::{Headline, manifest_path, ours};

/// What a row shows in the "ours" column.
#[derive(Clone, PartialEq)]
enum Ours {
    Loading,
    Read(String),
    Missing,
}

#[component]
fn Row(row: &'static Headline) -> impl IntoView {
    let value = RwSignal::new(Ours::Loading);
    leptos::task::spawn_local(async move {
        let read = fetch_json::<Value>(&manifest_path(row.weights)).await.and_then(|m| ours(row, &m));
        value.set(read.map_or(Ours::Missing, Ours::Read));
    });
    view! {
        <tr>
            <td data-label="experiment">{row.experiment}</td>
            <td data-label="measure">{row.measure}</td>
            <td class="num" data-label="paper">{row.paper}</td>
            <td class="num" data-label="ours" data-weights=row.weights>
                {move || match value.get() {
                    Ours::Loading => "…".to_string(),
                    Ours::Read(s) => s,
                    Ours::Missing => format!("not recorded in {}.json", row.weights),
                }}
            </td>
            <td data-label="page"><A href=crate::base_path::href(row.route)>"Try it"</A></td>
        </tr>
    }
}

#[component]
pub fn HeadlineTable() -> impl IntoView {
    view! {
        <section class="headline" aria-labelledby="headline-title">
            <h2 id="headline-title">"What the models here have measured"</h2>
            <p>
                "The papers' numbers beside ours. Ours are read as this page opens from the manifests of the weights it ships, "
                "each recorded by "<code>"native-trainer eval --record"</code>" on held-out data; our models are much smaller "
                "and trained far less than the papers' (a 2-core CPU against GPUs), and the docs say where the data differ."
            </p>
            <div class="table-scroll">
                <table>
                    <thead>
                        <tr><th scope="col">"experiment"</th><th scope="col">"measure"</th><th scope="col">"paper"</th><th scope="col">"ours"</th><th scope="col">"page"</th></tr>
                    </thead>
                    <tbody>{HEADLINES.into_iter().flatten().map(|row| view! { <Row row/> }).collect_view()}</tbody>
                </table>
            </div>
        </section>
    }
}
