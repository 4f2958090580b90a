//! The question drawn: the tree as SVG (the asked route, the model's route, the target, the
//! latent on screen), and the menu of target leaves.

use leptos::prelude::*;

use super::state::TreeState;

/// The tree with its layout from the engine: edges marked on the route, on the model's route or
/// both; nodes marked on the route, said, target, and the latent on screen's expected and read
/// node.
pub(super) fn tree_svg(page: TreeState) -> impl IntoView {
    let TreeState { task, result, step, .. } = page;
    let t = task.get();
    let correct = t.route();
    let model: Vec<u8> = result.with(|r| r.as_ref().and_then(|(e, _)| e.route.clone()).unwrap_or_default()).into_bytes();
    let focus: Option<(u8, u8)> = step.with(|s| {
        s.as_ref().map(|s| (s.expected.as_bytes().first().copied().unwrap_or(0), s.token.as_bytes().first().copied().unwrap_or(0)))
    });
    let pos = t.tree.layout();
    let width = pos.iter().map(|p| p.1).fold(0.0, f64::max) + 1.0;
    let x = move |v: f64| 20.0 + (v + 0.5) * 360.0 / width;
    let y = |d: usize| 24.0 + d as f64 * 56.0;
    let at = |n: u8| pos.iter().find(|p| p.0 == n).map(|p| (x(p.1), y(p.2)));
    let on_path = |path: &[u8], p: u8, c: u8| path.windows(2).any(|w| w[0] == p && w[1] == c);
    let edges = t
        .tree
        .edges()
        .iter()
        .filter_map(|&(p, c)| {
            let ((x1, y1), (x2, y2)) = (at(p)?, at(c)?);
            let class = match (on_path(&correct, p, c), on_path(&model, p, c)) {
                (true, true) => "edge both",
                (true, false) => "edge route",
                (false, true) => "edge model",
                _ => "edge",
            };
            Some(view! { <line x1=x1 y1=y1 x2=x2 y2=y2 class=class/> })
        })
        .collect_view();
    let nodes = pos
        .iter()
        .map(|&(n, px, d)| {
            let mut class = String::from("node");
            if correct.contains(&n) {
                class.push_str(" on-route");
            }
            if model.contains(&n) {
                class.push_str(" said");
            }
            if n == t.target {
                class.push_str(" target");
            }
            if focus.is_some_and(|f| f.0 == n) {
                class.push_str(" focus");
            }
            if focus.is_some_and(|f| f.1 == n) {
                class.push_str(" talker");
            }
            let letter = (n as char).to_string();
            let data = letter.clone();
            view! {
                <g class=class data-node=data>
                    <circle cx=x(px) cy=y(d) r="14"/>
                    <text x=x(px) y=y(d) dy="0.35em" text-anchor="middle">{letter}</text>
                </g>
            }
        })
        .collect_view();
    let levels = t.tree.levels();
    let label = format!(
        "A tree of {} nodes on {levels} levels rooted at {}. The route to the target {} is {}.",
        pos.len(),
        t.tree.root() as char,
        t.target as char,
        t.route_text()
    );
    view! {
        <svg class="tree-svg" viewBox=format!("0 0 400 {}", 48 + 56 * (levels - 1)) role="img" aria-label=label>
            {edges}
            {nodes}
        </svg>
    }
}

/// "Target leaf": choosing another leaf asks a new question of the same tree.
pub(super) fn leaves_select(page: TreeState) -> impl IntoView {
    let task = page.task;
    let t = task.get();
    let options = t
        .tree
        .leaves()
        .into_iter()
        .map(|l| {
            let c = (l as char).to_string();
            let value = c.clone();
            view! { <option value=value selected=l == t.target>{c}</option> }
        })
        .collect_view();
    view! {
        <label>
            "Target leaf "
            <select aria-label="Target leaf" on:change=move |ev| {
                let v = event_target_value(&ev);
                let mut t = task.get_untracked();
                if let Some(&b) = v.as_bytes().first() {
                    t.target = b;
                    page.set_task(t);
                }
            }>{options}</select>
        </label>
    }
}
