//! `/tree`: route search with the JEPA-Reasoner. Edit or generate a tree, ask for the route from
//! the root to a leaf, and look inside each latent the Reasoner wrote: what the Talker read from
//! it, its cosines to the vocabulary, how much of the right node and of its sibling it holds, and
//! where it lies among the node embeddings (PCA). Parsing, layout, latents and every figure come
//! from the engine.

use engine::gram::noise::NoiseSource;
use engine::jepa::tree::{Explanation, StepView};
use engine::tasks::tree::{Part, TreeTask, part_of};
use gloo_worker::{Spawnable, WorkerBridge};
use leptos::prelude::*;

use super::status::{Load, UrlNotes, load_view};
use super::{autoplay, now, prefers_reduced_motion, query_pairs};
use crate::protocol::{BackendChoice, Request, Response, TreeRequest};
use crate::tree_settings::{MAX_NOISE, TreeSettings, WEIGHTS};
use crate::worker::ReasonerWorker;


#[derive(Clone, Debug, PartialEq)]
struct Run {
    id: u64,
    task: TreeTask,
    noise: f64,
    seed: u64,
    result: Option<(Explanation, f64)>,
    error: Option<String>,
}

/// One answered run of the current tree, for the noise history.
#[derive(Clone, Debug, PartialEq)]
struct Tried {
    noise: f64,
    seed: u64,
    route: String,
    correct: bool,
}

fn route_or_garbled(route: &Option<String>) -> String {
    route.clone().unwrap_or_else(|| "(no route: the Talker wrote a non-letter)".into())
}

#[component]
pub fn TreePage() -> impl IntoView {
    let (initial, url_notes) = TreeSettings::from_pairs(&query_pairs());
    let reduced_motion = prefers_reduced_motion();
    let settings = RwSignal::new(initial.clone());
    let notes = RwSignal::new(url_notes);
    let text = RwSignal::new(initial.task.input_text());
    let text_error = RwSignal::new(None::<String>);
    let backend = RwSignal::new(None::<(String, String)>);
    let load = RwSignal::new(None::<Load>);
    let run = RwSignal::new(None::<Run>);
    let history = RwSignal::new(Vec::<Tried>::new());
    let shown = RwSignal::new(0usize);
    let playing = RwSignal::new(false);
    let speed_ms = RwSignal::new(900u32);
    let next_run = StoredValue::new(1u64);
    let generated = StoredValue::new(0u64);

    let on_response = move |response: Response| match response {
        Response::Backend { name, detail } => backend.set(Some((name, detail))),
        Response::LoadProgress { loaded, total, .. } => load.set(Some(Load::Loading { loaded, total })),
        Response::Loaded { summary, .. } => load.set(Some(Load::Ready(summary))),
        Response::LoadFailed { message, .. } => load.set(Some(Load::Failed(message))),
        Response::Reasoned(report) => {
            let mut answered = None;
            run.update(|r| {
                if let Some(r) = r.as_mut().filter(|r| r.id == report.run) {
                    answered = Some(Tried {
                        noise: r.noise,
                        seed: r.seed,
                        route: route_or_garbled(&report.explanation.route),
                        correct: report.explanation.correct,
                    });
                    r.result = Some((report.explanation, report.millis));
                }
            });
            if let Some(t) = answered {
                history.update(|h| {
                    h.retain(|x| (x.noise, x.seed) != (t.noise, t.seed));
                    h.push(t);
                });
                shown.set(if reduced_motion { run.with_untracked(|r| r.as_ref().and_then(|r| r.result.as_ref()).map_or(0, |x| x.0.steps.len())) } else { 1 });
                playing.set(!reduced_motion);
            }
        }
        Response::Failed { run: id, message } => run.update(|r| {
            if let Some(r) = r.as_mut().filter(|r| r.id == id) {
                r.error = Some(message);
            }
        }),
        Response::Step(_) | Response::Done { .. } => {}
    };
    let bridge: WorkerBridge<ReasonerWorker> = ReasonerWorker::spawner().callback(on_response).spawn("/worker.js");
    let bridge = StoredValue::new_local(bridge);
    let send = move |request: Request| bridge.with_value(|b| b.send(request));
    // The tree model always runs on burn-flex (see the worker); no GPU is initialised for it.
    send(Request::Init { backend: BackendChoice::Cpu, origin: window().location().origin().unwrap_or_default() });
    send(Request::Load { model: WEIGHTS.into() });

    Effect::new(move |_| {
        let query = settings.with(TreeSettings::to_query);
        if let Ok(h) = window().history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("/tree?{query}")));
        }
    });
    let steps_available = move || run.with_untracked(|r| r.as_ref().and_then(|r| r.result.as_ref()).map_or(0, |x| x.0.steps.len()));
    autoplay(playing, shown, steps_available, speed_ms);

    let reason = move || {
        let s = settings.get_untracked();
        let id = next_run.get_value();
        next_run.set_value(id + 1);
        run.set(Some(Run { id, task: s.task.clone(), noise: s.noise, seed: s.seed, result: None, error: None }));
        shown.set(0);
        playing.set(false);
        send(Request::Reason(TreeRequest { run: id, model: WEIGHTS.into(), input: s.task.input_text(), noise: s.noise, seed: s.seed }));
        settings.update(|s| s.run = true);
    };
    // A new question: the old answer and the noise history belong to the old one.
    let set_task = move |task: TreeTask| {
        text.set(task.input_text());
        text_error.set(None);
        run.set(None);
        history.set(Vec::new());
        shown.set(0);
        settings.update(|s| {
            s.task = task;
            s.run = false;
        });
    };
    let apply_text = move || match TreeTask::parse(&text.get_untracked()) {
        Ok(t) => set_task(t),
        Err(e) => text_error.set(Some(format!("Not used: {e}. The tree on screen is unchanged."))),
    };
    let generate = move || {
        let n = generated.get_value() + 1;
        generated.set_value(n);
        let seed = (now() as u64).wrapping_mul(0x9E37_79B9) ^ n.wrapping_mul(0x2545_F491_4F6C_DD1D);
        set_task(TreeTask::random(&mut NoiseSource::new(seed)));
    };

    if initial.run {
        reason();
    }

    // ----- what is on screen -----
    let task = Memo::new(move |_| settings.with(|s| s.task.clone()));
    let result = Memo::new(move |_| run.with(|r| r.as_ref().filter(|r| r.task == task.get()).and_then(|r| r.result.clone())));
    let step = Memo::new(move |_| {
        let i = shown.get();
        result.with(|r| r.as_ref().and_then(|(e, _)| e.steps.get(i.checked_sub(1)?).cloned()))
    });
    let pending = move || run.with(|r| r.as_ref().is_some_and(|r| r.result.is_none() && r.error.is_none()));

    let tree_svg = move || {
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
    };

    let leaves_select = move || {
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
                        set_task(t);
                    }
                }>{options}</select>
            </label>
        }
    };

    let verdict = move || {
        let r = run.get()?;
        if let Some(e) = &r.error {
            return Some(view! { <p class="verdict bad" role="alert">{format!("The Reasoner could not run: {e}")}</p> }.into_any());
        }
        let (e, ms) = r.result.clone()?;
        let want = r.task.route_text();
        let said = route_or_garbled(&e.route);
        let noise = if r.noise > 0.0 { format!(" with latent noise {:.0}% (seed {})", 100.0 * r.noise, r.seed) } else { String::new() };
        let (class, text) = if e.correct {
            ("verdict ok", format!("The Talker wrote the route {said}{noise}: correct, it is the path from {} to {}.", r.task.tree.root() as char, r.task.target as char))
        } else {
            ("verdict bad", format!("The Talker wrote {said}{noise}: wrong, the route is {want}."))
        };
        Some(view! {
            <div>
                <p class=class role="status" data-route=e.route.clone().unwrap_or_default() data-correct=e.correct.to_string()>{text}</p>
                <p class="hint">{format!("{} latents, Talker and analysis in {:.0} ms on the CPU.", e.steps.len(), ms)}</p>
            </div>
        }
        .into_any())
    };

    let step_strip = move || {
        let Some((e, _)) = result.get() else { return Vec::new() };
        e.steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let ok = s.token == s.expected;
                let label = format!("Latent {}: the Talker read {}, expected {}", i + 1, s.token, s.expected);
                view! {
                    <li>
                        <button class="step" class:ok=ok class:bad=!ok class:focused=move || shown.get() == i + 1
                            aria-pressed=move || if shown.get() == i + 1 { "true" } else { "false" }
                            aria-label=label
                            on:click=move |_| { playing.set(false); shown.set(i + 1) }>
                            <span class="n">{(i + 1).to_string()}</span>
                            <span class="tok">{s.token.clone()}</span>
                        </button>
                    </li>
                }
            })
            .collect::<Vec<_>>()
    };

    let step_card = move || {
        let s = step.get()?;
        let i = shown.get();
        Some(step_view(i, &s))
    };

    let pca_plot = move || {
        let (e, _) = result.get()?;
        Some(pca_view(&e, shown.get()))
    };

    let history_view = move || {
        history
            .get()
            .into_iter()
            .rev()
            .map(|t| {
                let line = format!(
                    "noise {:.0}%, seed {}: {} ({})",
                    100.0 * t.noise,
                    t.seed,
                    t.route,
                    if t.correct { "correct" } else { "wrong" }
                );
                view! { <li class:ok=t.correct class:bad=!t.correct>{line}</li> }
            })
            .collect::<Vec<_>>()
    };

    let load_view = move || {
        load_view(load.get(), "JEPA-Reasoner", "You can still edit and generate trees; reload the page to try again.")
    };
    let ready = move || matches!(load.get(), Some(Load::Ready(_)));

    view! {
        <section class="tree-page">
            <h1>"Tree routes: a reasoner that thinks in unit vectors"</h1>
            <div class="status-bar">
                <span class="badge" data-backend="CPU">"CPU"</span>
                <span class="backend-detail">"This small model (about 1.3 M parameters, five latents per answer) always runs on the CPU backend in a Web Worker."</span>
            </div>
            <UrlNotes notes/>
            {load_view}

            <div class="layout">
                <div class="panel">
                    <h2>"The tree and the question"</h2>
                    {tree_svg}
                    <p class="hint">"Blue: the route the question asks for. Orange, dashed: where the model's route leaves it. The target leaf has a thick ring."</p>
                    <p class="hint split-part">{move || match part_of(&task.get()) {
                        Part::Test => "This question is in the held-out part of the split: the model never trained on it.",
                        Part::Validation => "This question is in the validation part of the split: training runs leave it out to check themselves on (the shipped weights were trained before that part was carved out, so they may have drawn it).",
                        Part::Train => "This question falls in the training part of the split: training drew its trees from that part (though with so many possible trees, most likely not this exact one).",
                    }}</p>
                    <div class="row">
                        {leaves_select}
                        <button on:click=move |_| generate()>"New random tree"</button>
                    </div>
                    <label class="tree-text">
                        "Tree as text (edges parent-child, then root and target)"
                        <textarea rows="3" aria-label="Tree as text" spellcheck="false"
                            prop:value=move || text.get()
                            on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                    </label>
                    <div class="row">
                        <button on:click=move |_| apply_text()>"Use this tree"</button>
                    </div>
                    <Show when=move || text_error.with(Option::is_some)>
                        <p class="error" role="alert">{move || text_error.get().unwrap_or_default()}</p>
                    </Show>
                </div>

                <div class="panel controls">
                    <h2>"Reasoner"</h2>
                    <label>
                        {move || format!("Latent noise = {:.0}% of max |h|", 100.0 * settings.with(|s| s.noise))}
                        <input type="range" min="0" max=MAX_NOISE.to_string() step="0.01" aria-label="Latent noise"
                            prop:value=move || settings.with(|s| s.noise.to_string())
                            on:input=move |ev| { if let Ok(x) = event_target_value(&ev).parse::<f64>() { settings.update(|s| { s.noise = (x * 100.0).round() / 100.0; s.run = false; }) } }/>
                    </label>
                    <p class="hint">"Gaussian noise added to every latent before it is read and looped back (sigma as a share of the latent's largest component). The paper's robustness test goes to 15%."</p>
                    <label>
                        "Noise seed "
                        <input type="number" min="0" max="1000000000" class="seed" aria-label="Noise seed"
                            prop:value=move || settings.with(|s| s.seed.to_string())
                            on:change=move |ev| { if let Ok(x) = event_target_value(&ev).parse() { settings.update(|s| { s.seed = x; s.run = false; }) } }/>
                    </label>
                    <div class="row">
                        <button class="primary" on:click=move |_| reason() disabled=move || !ready() || pending()>"Find the route"</button>
                    </div>
                    <p class="run-status" aria-live="polite">{move || if pending() { "Reasoning…".to_string() } else if run.with(Option::is_none) { "Press Find the route.".to_string() } else { String::new() }}</p>
                    {verdict}
                    <h3>"Tried on this tree"</h3>
                    <p class="hint" hidden=move || !history.with(Vec::is_empty)>"No runs yet. Each run on this tree is listed here with its noise, seed and route."</p>
                    <ul class="history" aria-label="Runs on this tree">{history_view}</ul>
                </div>
            </div>

            <div class="results" hidden=move || result.with(Option::is_none)>
                <div class="layout">
                    <div class="panel">
                        <h2>"Inside each latent"</h2>
                        <div class="player row" role="group" aria-label="Playback">
                            <button aria-label="Previous latent" on:click=move |_| { playing.set(false); shown.update(|s| *s = s.saturating_sub(1).max(1)); }>"◀ Back"</button>
                            <button class="play" on:click=move |_| { if shown.get_untracked() >= steps_available() { shown.set(0) } playing.update(|p| *p = !*p) }>
                                {move || if playing.get() { "Pause" } else { "Play" }}
                            </button>
                            <button aria-label="Next latent" on:click=move |_| { playing.set(false); let max = steps_available(); shown.update(|s| *s = (*s + 1).min(max)); }>"Step ▶"</button>
                        </div>
                        <ol class="steps" aria-label="Latents after [ROUTE]">{step_strip}</ol>
                        {step_card}
                    </div>
                    <div class="panel">
                        <h2>"Latents among the node embeddings"</h2>
                        {pca_plot}
                    </div>
                </div>
            </div>

            <section class="explain">
                <h2>"What is on screen"</h2>
                <p><strong>"Thinking without words. "</strong>"The Reasoner reads the tree as tokens, but after "<code>"[ROUTE]"</code>" it never picks a token: each step it writes a vector of length one (a point on a 128-dimensional sphere) and reads that vector back as its next input. A separate small model, the Talker, turns the vectors into letters only at the end."</p>
                <p><strong>"Two choices in one vector. "</strong>"Going down the tree, the next node is one of two siblings. α and β are the coefficients of the vector on the plane of those two nodes' embeddings, and the rank says how close that plane is compared with every pair of the 32 tokens (496 pairs). In the paper's large model the vector keeps a visible part of the sibling; this small model's vectors sit almost on the right node (β near 0, yet the sibling's plane still ranks near the top). Add latent noise to push the vectors off the tokens and watch the Talker cope."</p>
                <p><strong>"Noise. "</strong>"Raise the latent noise to see how far the vectors can be pushed before the route breaks; the same seed gives the same noise, so a shared link reproduces a run exactly."</p>
            </section>
        </section>
    }
}

/// The card of one latent: the Talker's token, the top cosines and the sibling plane.
fn step_view(i: usize, s: &StepView) -> AnyView {
    let ok = s.token == s.expected;
    let head = format!("Latent {i}: the Talker read {} (the route needs {}) — {}", s.token, s.expected, if ok { "right" } else { "wrong" });
    let top = s
        .top
        .iter()
        .map(|(tok, c)| {
            let w = format!("{:.0}%", 100.0 * c.max(0.0));
            view! {
                <li>
                    <span class="tok">{tok.clone()}</span>
                    <span class="bar"><span style:width=w></span></span>
                    <span class="val">{format!("{c:.3}")}</span>
                </li>
            }
        })
        .collect_view();
    let sibling = s.sibling.clone().map(|(c, sib, a, b, rank, pairs)| {
        let major = a > b;
        let share = 100.0 * rank as f64 / pairs as f64;
        let text = format!(
            "On the plane of {c} (the right node) and its sibling {sib}: α = {a:.2} for {c}, β = {b:.2} for {sib}. {}",
            if major { format!("{c} is the major contributor.") } else { format!("{sib}, the wrong sibling, dominates.") }
        );
        let rank_text = format!("Of all {pairs} pairs of token embeddings, this plane is number {rank} closest to the latent (top {share:.1}%).");
        let total = (a.abs() + b.abs()).max(1e-9);
        view! {
            <div class="sibling" data-major=major.to_string()>
                <p>{text}</p>
                <div class="ab" aria-hidden="true">
                    <span class="a" style:width=format!("{:.0}%", 100.0 * a.abs() / total)>{c.clone()}</span>
                    <span class="b" style:width=format!("{:.0}%", 100.0 * b.abs() / total)>{sib.clone()}</span>
                </div>
                <p>{rank_text}</p>
            </div>
        }
    });
    let no_sibling = s.sibling.is_none().then(|| {
        let why = if s.expected.starts_with('[') || s.expected == "-" { "the end of the route" } else { "the root, which has no sibling" };
        view! { <p class="hint">{format!("No sibling plane here: this latent stands for {why}.")}</p> }
    });
    view! {
        <div class="step-card" data-token=s.token.clone() data-expected=s.expected.clone()>
            <h3 class:ok=ok class:bad=!ok>{head}</h3>
            <p class="hint">"Cosine of the latent with the five closest token embeddings:"</p>
            <ol class="cosines">{top}</ol>
            {sibling}
            {no_sibling}
        </div>
    }
    .into_any()
}

/// The PCA scatter: tree nodes' embeddings as letters, latents as numbered dots joined in order.
fn pca_view(e: &Explanation, current: usize) -> AnyView {
    let all: Vec<(f64, f64)> = e.vocab_points.iter().map(|p| (p.1, p.2)).chain(e.steps.iter().map(|s| s.pca)).collect();
    let (x0, x1) = all.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = all.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let sx = move |v: f64| 20.0 + 260.0 * (v - x0) / (x1 - x0).max(1e-9);
    let sy = move |v: f64| 200.0 - 180.0 * (v - y0) / (y1 - y0).max(1e-9);
    let vocab = e
        .vocab_points
        .iter()
        .map(|(l, x, y)| {
            // The letter sits beside its point, so a latent drawn on top of it leaves it readable.
            view! {
                <circle cx=sx(*x) cy=sy(*y) r="2" class="vocab-dot"/>
                <text x=sx(*x) + 5.0 y=sy(*y) - 5.0 class="vocab">{l.clone()}</text>
            }
        })
        .collect_view();
    let path = e.steps.iter().map(|s| format!("{:.1},{:.1}", sx(s.pca.0), sy(s.pca.1))).collect::<Vec<_>>().join(" ");
    let dots = e
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let class = if i + 1 == current { "latent current" } else { "latent" };
            view! {
                <g class=class>
                    <circle cx=sx(s.pca.0) cy=sy(s.pca.1) r="8"/>
                    <text x=sx(s.pca.0) y=sy(s.pca.1) dy="0.35em" text-anchor="middle">{(i + 1).to_string()}</text>
                </g>
            }
        })
        .collect_view();
    let rows = e
        .steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let near = s.top.first().map(|t| format!("{} (cos {:.2})", t.0, t.1)).unwrap_or_default();
            view! { <tr><td>{(i + 1).to_string()}</td><td>{format!("{:.2}", s.pca.0)}</td><td>{format!("{:.2}", s.pca.1)}</td><td>{near}</td></tr> }
        })
        .collect_view();
    let caption = format!(
        "The plane of the two main directions (PCA) of the tree's node embeddings and these latents; it shows {:.0}% + {:.0}% of their spread. Letters: node embeddings; numbered dots: the latents in order.",
        100.0 * e.explained_variance[0],
        100.0 * e.explained_variance[1]
    );
    view! {
        <figure class="plot pca">
            <svg viewBox="0 0 300 220" role="img" aria-label="PCA scatter of the latents among the tree's node embeddings; the same data is in the table below">
                <polyline class="latent-path" points=path/>
                {vocab}
                {dots}
            </svg>
            <figcaption>{caption}</figcaption>
            <table class="pca-table">
                <caption>"The latents in the PCA plane"</caption>
                <thead><tr><th>"latent"</th><th>"PC 1"</th><th>"PC 2"</th><th>"closest token"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </figure>
    }
    .into_any()
}
