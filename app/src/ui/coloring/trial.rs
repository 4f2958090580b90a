//! A trial of two models on one graph, as `/train`'s "Try it" shows it: the graph, each model's
//! samples drawn with this page's pictures (green when proper), a sentence per model, and the
//! graph's colourings (the exact solver's) marked by which model found them. The panel reads
//! plain signals, so the page that trains the models keeps its own state.

use engine::tasks::coloring::metrics::distinct_valid;
use engine::tasks::coloring::{Colouring, Graph, canonical_colourings};
use leptos::prelude::*;

use super::picture::{SIZE, edge_lines, mini_graph, vertex_position};
use crate::protocol::Trial;

/// One model's side of a trial: its name on the page and in `data-model`, its latest answers
/// (or why there are none), and whether it is colouring now.
#[derive(Clone, Copy)]
pub struct TrialSide {
    pub name: &'static str,
    pub id: &'static str,
    pub tried: Signal<Option<Result<Trial, String>>>,
    pub trying: Signal<bool>,
}

/// The graph before anyone colours it: its edges, hollow vertices numbered.
fn bare_graph(graph: &Graph) -> impl IntoView + use<> {
    let n = graph.n();
    let vertices = (0..n)
        .map(|i| {
            let (x, y) = vertex_position(i, n);
            view! { <circle cx=x cy=y r="16" class="vertex none"/> }
        })
        .collect_view();
    view! {
        <svg class="mini graph" viewBox=format!("0 0 {SIZE} {SIZE}") role="img" aria-label=format!("a graph of {n} vertices and {} edges", graph.edges().len())>
            {edge_lines(graph, None)}
            {vertices}
        </svg>
    }
}

/// A trial's samples as colourings of its graph (an answer the graph cannot read is dropped).
fn colourings(trial: &Trial) -> Option<(Graph, Vec<Colouring>)> {
    let graph = parse_any(&trial.puzzle)?;
    let n = graph.n();
    Some((graph, trial.answers.iter().filter_map(|a| Colouring::parse_answer(a, n).ok()).collect()))
}

/// The distinct proper colourings (canonical) a side's latest trial found on `puzzle`.
fn found(side: TrialSide, puzzle: &str) -> Vec<Colouring> {
    side.tried.with(|t| match t {
        Some(Ok(trial)) if trial.puzzle == puzzle => colourings(trial).map(|(g, cs)| distinct_valid(&g, &cs)).unwrap_or_default(),
        _ => Vec::new(),
    })
}

/// One model's answers: a sentence, then each sample's picture.
fn answers(side: TrialSide, total: Memo<usize>) -> impl IntoView {
    let name = side.name;
    move || match side.tried.get() {
        None if side.trying.get() => {
            view! { <p class="trial-summary" data-model=side.id>{format!("{name} is colouring the graph…")}</p> }.into_any()
        }
        None => ().into_any(),
        Some(Err(e)) => view! { <p class="error" data-model=side.id>{format!("{name} could not try: {e}")}</p> }.into_any(),
        Some(Ok(trial)) => {
            let Some((graph, cs)) = colourings(&trial) else {
                return view! { <p class="error">{format!("{name}'s answers could not be read")}</p> }.into_any();
            };
            let proper = cs.iter().filter(|c| graph.is_coloured_by(c)).count();
            let distinct = distinct_valid(&graph, &cs).len();
            let summary = format!(
                "{name} at step {}: {proper} of {} samples are proper colourings, {distinct} different of the graph's {} ({:.0} ms).",
                trial.step,
                cs.len(),
                total.get(),
                trial.millis
            );
            let pictures = cs
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let valid = graph.is_coloured_by(c);
                    let label = if valid { format!("{name} sample {}: a proper colouring", i + 1) } else { format!("{name} sample {}: not proper", i + 1) };
                    view! { <li class="sample" class:valid=valid aria-label=label data-valid=valid.to_string() data-colouring=c.to_text()>{mini_graph(&graph, c)}</li> }
                })
                .collect_view();
            view! {
                <p class="trial-summary" data-model=side.id>{summary}</p>
                <ul class="samples" data-model=side.id>{pictures}</ul>
            }
            .into_any()
        }
    }
}

/// The panel: `puzzle` (graph text) and its `label`, the two sides, the buttons (`can_try`
/// enables them), and `waiting`, the sentence shown while they are disabled.
#[component]
pub fn TrialPanel(
    #[prop(into)] puzzle: Signal<String>,
    #[prop(into)] label: Signal<String>,
    sides: [TrialSide; 2],
    #[prop(into)] can_try: Signal<bool>,
    on_try: Callback<()>,
    on_next: Callback<()>,
    #[prop(into)] intro: String,
    #[prop(into)] waiting: String,
) -> impl IntoView {
    let [gram, trm] = sides;
    let graph = Memo::new(move |_| puzzle.with(|p| parse_any(p)));
    let exact = Memo::new(move |_| graph.with(|g| g.as_ref().map(canonical_colourings).unwrap_or_default()));
    let total = Memo::new(move |_| exact.with(Vec::len));
    let exact_list = move || {
        let Some(g) = graph.get() else { return Vec::new() };
        let p = puzzle.get();
        let (by_gram, by_trm) = (found(gram, &p), found(trm, &p));
        // Marks only once a model has answered this graph.
        let tried = [gram, trm].iter().any(|s| s.tried.with(|t| matches!(t, Some(Ok(t)) if t.puzzle == p)));
        exact.with(|ex| {
            ex.iter()
                .map(|c| {
                    let (g_hit, t_hit) = (by_gram.contains(c), by_trm.contains(c));
                    let mark = match (g_hit, t_hit) {
                        _ if !tried => "",
                        (true, true) => "GRAM, TRM",
                        (true, false) => "GRAM",
                        (false, true) => "TRM",
                        (false, false) => "neither",
                    };
                    view! {
                        <li class="exact" class:found=g_hit || t_hit class:missed=tried && !(g_hit || t_hit) data-gram=g_hit.to_string() data-trm=t_hit.to_string()>
                            {mini_graph(&g, c)}
                            <span>{mark}</span>
                        </li>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="panel try-it">
            <h2>"Try it"</h2>
            <p class="hint">{intro}</p>
            <div class="row trial-input">
                {move || graph.get().map(|g| bare_graph(&g))}
                <span class="trial-graph">{label}</span>
            </div>
            <div class="row">
                <button class="primary" on:click=move |_| on_try.run(()) disabled=move || !can_try.get()>"Try it"</button>
                <button on:click=move |_| on_next.run(()) disabled=move || !can_try.get()>"Another graph"</button>
            </div>
            <p class="hint" hidden=move || can_try.get()>{waiting}</p>
            {answers(gram, total)}
            {answers(trm, total)}
            <h3>{move || format!("The graph's {} colourings (up to renaming the colours)", total.get())}</h3>
            <ul class="exact-list">{exact_list}</ul>
        </div>
    }
}

/// A graph text of any vertex count (the page's task has 6: 15 characters).
fn parse_any(text: &str) -> Option<Graph> {
    (2..=16).find(|n| n * (n - 1) / 2 == text.chars().count()).and_then(|n| Graph::parse(text, n).ok())
}
