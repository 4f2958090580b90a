//! `/nqueens`: build a board, sample N trajectories, watch the supervision steps, compare what
//! was found with the exact solver's completions.

use std::collections::{BTreeSet, HashMap};

use engine::metrics::{distinct_valid, found_curve};
use engine::tasks::nqueens::{Board, completions};
use gloo_worker::{Spawnable, WorkerBridge};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::board::{Curve, coverage_plot, mini_board};
use super::status::{Load, UrlNotes, load_view};
use super::{autoplay, now, prefers_reduced_motion, query_pairs};
use crate::url_state::UrlState;
use crate::url_state::nqueens::{MAX_SAMPLES, Model, NQueensSettings as Settings, SIDE, held_out};
use crate::url_state::sampling::MAX_STEPS;
use crate::protocol::{Request, Response, SolveRequest, StepReport};
use crate::worker::ReasonerWorker;


#[derive(Clone, Debug, PartialEq)]
struct Run {
    id: u64,
    puzzle: Board,
    model: Model,
    scale: f64,
    samples: usize,
    steps: usize,
    started: f64,
    first_valid_ms: Option<f64>,
    done_ms: Option<f64>,
    stopped: bool,
    error: Option<String>,
}

impl Run {
    fn label(&self) -> String {
        match self.model {
            Model::Gram => format!("GRAM, scale {:.1}", self.scale),
            Model::Trm => "TRM (deterministic)".into(),
        }
    }
}

/// Every signal of the page; all `Copy`, so closures capture the lot.
#[derive(Clone, Copy)]
struct Page {
    settings: RwSignal<Settings>,
    backend: RwSignal<Option<(String, String)>>,
    loads: RwSignal<HashMap<String, Load>>,
    run: RwSignal<Option<Run>>,
    reports: RwSignal<Vec<StepReport>>,
    shown: RwSignal<usize>,
    playing: RwSignal<bool>,
    focus: RwSignal<usize>,
    previous: RwSignal<Option<Curve>>,
    reduced_motion: bool,
}

fn read_url() -> (Settings, Vec<String>) {
    Settings::from_pairs(&query_pairs())
}

impl Page {
    fn on_response(self, response: Response) {
        match response {
            Response::Backend { name, detail } => self.backend.set(Some((name, detail))),
            Response::LoadProgress { model, loaded, total } => {
                self.loads.update(|l| {
                    l.insert(model, Load::Loading { loaded, total });
                })
            }
            Response::Loaded { model, summary } => self.loads.update(|l| {
                l.insert(model, Load::Ready(summary));
            }),
            Response::LoadFailed { model, message } => self.loads.update(|l| {
                l.insert(model, Load::Failed(message));
            }),
            Response::Step(report) => {
                let Some(run) = self.run.get_untracked().filter(|r| r.id == report.run) else { return };
                if run.first_valid_ms.is_none() {
                    let valid = report
                        .boards
                        .iter()
                        .any(|b| Board::parse(b, SIDE).is_ok_and(|b| b.completes(&run.puzzle)));
                    if valid {
                        let t = now() - run.started;
                        self.run.update(|r| {
                            if let Some(r) = r {
                                r.first_valid_ms = Some(t)
                            }
                        });
                    }
                }
                self.reports.update(|r| r.push(report));
                let arrived = self.reports.with_untracked(Vec::len);
                // Without animation, the page follows the newest step unless the visitor went back.
                if self.reduced_motion && self.shown.get_untracked() + 1 == arrived {
                    self.shown.set(arrived);
                }
            }
            Response::Done { run, .. } => self.run.update(|r| {
                if let Some(r) = r.as_mut().filter(|r| r.id == run) {
                    r.done_ms = Some(now() - r.started);
                }
            }),
            Response::Failed { run, message } => self.run.update(|r| {
                if let Some(r) = r.as_mut().filter(|r| r.id == run) {
                    r.error = Some(message);
                }
            }),
            // Tree answers go to /tree.
            Response::Reasoned(_) => {}
        }
    }
}

#[component]
pub fn NQueensPage() -> impl IntoView {
    let (initial, notes) = read_url();
    let reduced_motion = prefers_reduced_motion();
    let page = Page {
        settings: RwSignal::new(initial.clone()),
        backend: RwSignal::new(None),
        loads: RwSignal::new(HashMap::new()),
        run: RwSignal::new(None),
        reports: RwSignal::new(Vec::new()),
        shown: RwSignal::new(0),
        playing: RwSignal::new(!reduced_motion),
        focus: RwSignal::new(0),
        previous: RwSignal::new(None),
        reduced_motion,
    };
    let Page { settings, backend, loads, run, reports, shown, playing, focus, previous, .. } = page;
    let notes = RwSignal::new(notes);
    let copied = RwSignal::new(None::<String>);
    let speed_ms = RwSignal::new(500u32);
    let next_run = StoredValue::new(1u64);

    let bridge: WorkerBridge<ReasonerWorker> =
        ReasonerWorker::spawner().callback(move |r| page.on_response(r)).spawn("/worker.js");
    let bridge = StoredValue::new_local(bridge);
    let send = move |request: Request| bridge.with_value(|b| b.send(request));
    send(Request::Init { backend: initial.sampling.backend, origin: window().location().origin().unwrap_or_default() });
    send(Request::Load { model: initial.model.weights().into() });

    // The URL always says how to reproduce what is on screen.
    Effect::new(move |_| {
        let query = settings.with(Settings::to_query);
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("/nqueens?{query}")));
        }
    });

    // Playback: one supervision step per `speed_ms` while playing, never past what has arrived.
    autoplay(playing, shown, move || reports.with_untracked(Vec::len), speed_ms);

    let conflicts = Memo::new(move |_| {
        settings.with(|s| s.board.conflicts().into_iter().flat_map(|(a, b)| [a, b]).collect::<BTreeSet<_>>())
    });
    let exact = Memo::new(move |_| settings.with(|s| completions(&s.board)));
    // What is on screen: the report of the step shown, its samples as boards, and the run's
    // coverage curve. Editing the board clears the run, so `exact` is the run's puzzle's list.
    let current = Memo::new(move |_| {
        let i = shown.get();
        reports.with(|r| r.get(i.checked_sub(1)?).cloned())
    });
    let samples = Memo::new(move |_| {
        current.with(|c| {
            c.as_ref()
                .map(|r| r.boards.iter().filter_map(|b| Board::parse(b, SIDE).ok()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    let puzzle = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| r.puzzle.clone())));
    let curve = Memo::new(move |_| {
        if current.with(Option::is_none) {
            return None;
        }
        let run = run.get()?;
        Some(Curve {
            label: run.label(),
            found: samples.with(|s| found_curve(s, &run.puzzle)),
            total: exact.with(Vec::len),
        })
    });
    let running = move || run.with(|r| r.as_ref().is_some_and(|r| r.done_ms.is_none() && r.error.is_none() && !r.stopped));

    let cancel_run = move || {
        if let Some(r) = run.get_untracked().filter(|r| r.done_ms.is_none()) {
            send(Request::Cancel { run: r.id });
        }
    };
    let solve = move || {
        let s = settings.get_untracked();
        if !s.board.conflicts().is_empty() {
            return;
        }
        if let Some(c) = curve.get_untracked() {
            previous.set(Some(c));
        }
        cancel_run();
        let id = next_run.get_value();
        next_run.set_value(id + 1);
        let model = s.model;
        run.set(Some(Run {
            id,
            puzzle: s.board.clone(),
            model,
            scale: s.sampling.scale,
            samples: s.sampling.samples,
            steps: s.sampling.steps,
            started: now(),
            first_valid_ms: None,
            done_ms: None,
            stopped: false,
            error: None,
        }));
        reports.set(Vec::new());
        shown.set(0);
        focus.set(0);
        playing.set(!page.reduced_motion);
        send(Request::Solve(SolveRequest {
            run: id,
            model: model.weights().into(),
            puzzle: s.board.to_text(),
            samples: s.sampling.samples,
            guidance_scale: s.sampling.scale,
            seed: s.sampling.seed,
            steps: s.sampling.steps,
        }));
        settings.update(|s| s.sampling.run = true);
    };
    let stop = move || {
        cancel_run();
        run.update(|r| {
            if let Some(r) = r.as_mut().filter(|r| r.done_ms.is_none()) {
                r.stopped = true;
            }
        });
    };
    // Editing the board invalidates the results on screen.
    let edit_board = move |f: &dyn Fn(&mut Board)| {
        cancel_run();
        run.set(None);
        reports.set(Vec::new());
        shown.set(0);
        settings.update(|s| {
            f(&mut s.board);
            s.sampling.run = false;
        });
    };
    let toggle = move |r: usize, c: usize| edit_board(&|b: &mut Board| b.set(r, c, !b.has_queen(r, c)));
    let new_puzzle = move || {
        let held_out = held_out();
        let pick = (now() as usize).wrapping_mul(2_654_435_761) % held_out.len().max(1);
        if let Some(p) = held_out.get(pick).map(|i| i.puzzle.clone()) {
            edit_board(&|b: &mut Board| *b = p.clone());
        }
    };
    let set_model = move |m: Model| {
        settings.update(|s| {
            s.model = m;
            s.sampling.run = false;
        });
        send(Request::Load { model: m.weights().into() });
    };

    if initial.sampling.run {
        solve();
    }

    // ----- views -----
    let cells = (0..SIDE * SIDE)
        .map(|i| {
            let (r, c) = (i / SIDE, i % SIDE);
            let queen = move || settings.with(|s| s.board.has_queen(r, c));
            let conflict = move || conflicts.with(|set| set.contains(&(r, c)));
            let on_key = move |ev: web_sys::KeyboardEvent| {
                let (dr, dc): (isize, isize) = match ev.key().as_str() {
                    "ArrowUp" => (-1, 0),
                    "ArrowDown" => (1, 0),
                    "ArrowLeft" => (0, -1),
                    "ArrowRight" => (0, 1),
                    _ => return,
                };
                ev.prevent_default();
                let nr = (r as isize + dr).clamp(0, SIDE as isize - 1);
                let nc = (c as isize + dc).clamp(0, SIDE as isize - 1);
                if let Some(el) = document().get_element_by_id(&format!("cell-{nr}-{nc}")) {
                    let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
                }
            };
            view! {
                <button
                    id=format!("cell-{r}-{c}")
                    class="cell"
                    class:dark=(r + c) % 2 == 1
                    class:queen=queen
                    class:conflict=conflict
                    aria-label=format!("Row {}, column {}", r + 1, c + 1)
                    aria-pressed=move || if queen() { "true" } else { "false" }
                    on:click=move |_| toggle(r, c)
                    on:keydown=on_key
                >
                    {move || if queen() { "♛" } else { "" }}
                </button>
            }
        })
        .collect_view();

    let found = Memo::new(move |_| {
        let Some(p) = puzzle.get() else { return Vec::new() };
        samples.with(|s| distinct_valid(s, &p).into_iter().cloned().collect::<Vec<_>>())
    });

    let heat = (0..SIDE * SIDE)
        .map(|i| {
            let (r, c) = (i / SIDE, i % SIDE);
            let prob = move || {
                current.with(|cur| cur.as_ref().and_then(|rep| rep.queen_probs.get(focus.get())).map(|p| p[i]).unwrap_or(0.0))
            };
            let predicted = move || samples.with(|s| s.get(focus.get()).is_some_and(|b| b.has_queen(r, c)));
            let given = move || puzzle.with(|p| p.as_ref().is_some_and(|p| p.has_queen(r, c)));
            view! {
                <div
                    class="cell heat"
                    class:dark=(r + c) % 2 == 1
                    class:given=given
                    title=move || format!("Row {}, column {}: P(queen) = {:.0}%", r + 1, c + 1, 100.0 * prob())
                >
                    <span class="p" style:opacity=move || format!("{:.3}", prob())></span>
                    <span class="g">{move || if predicted() { "♛" } else { "" }}</span>
                </div>
            }
        })
        .collect_view();

    let board_status = move || {
        let n_conf = conflicts.with(BTreeSet::len);
        let total = exact.with(Vec::len);
        let queens = settings.with(|s| s.board.queen_count());
        if n_conf > 0 {
            format!("{n_conf} queens attack each other (marked in red): remove one to solve.")
        } else if total == 0 {
            format!("{queens} queens placed. No completion exists: the exact solver finds none, so every answer the model gives will be wrong.")
        } else {
            format!("{queens} queens placed, no conflicts. The exact solver finds {total} completion{}.", if total == 1 { "" } else { "s" })
        }
    };

    let load_view = move || {
        let model = settings.with(|s| s.model);
        load_view(
            loads.with(|l| l.get(model.weights()).cloned()),
            model.label(),
            "The board still works, and the other model may load: switch the model above, or reload the page.",
        )
    };

    let run_status = move || {
        let Some(r) = run.get() else { return "Press Solve to sample trajectories.".to_string() };
        let arrived = reports.with(Vec::len);
        let mean_ms = reports.with(|v| if v.is_empty() { 0.0 } else { v.iter().map(|s| s.millis).sum::<f64>() / v.len() as f64 });
        let mut parts = vec![format!("{}: {} sample{}, {} of {} steps computed", r.label(), r.samples, if r.samples == 1 { "" } else { "s" }, arrived, r.steps)];
        if arrived > 0 {
            parts.push(format!("{mean_ms:.0} ms per step"));
        }
        if let Some(t) = r.first_valid_ms {
            parts.push(format!("first valid board after {:.1} s", t / 1000.0));
        }
        if let Some(t) = r.done_ms {
            parts.push(format!("done in {:.1} s", t / 1000.0));
        }
        if r.stopped {
            parts.push("stopped".into());
        }
        if let Some(e) = &r.error {
            parts.push(format!("failed: {e}"));
        }
        parts.join(" · ")
    };

    let samples_strip = move || {
        let p = puzzle.get();
        samples.with(|ss| {
            ss.iter()
                .enumerate()
                .map(|(i, b)| {
                    let valid = p.as_ref().is_some_and(|p| b.completes(p));
                    let label = format!("Sample {}: {}", i + 1, if valid { "valid" } else { "not valid" });
                    let text = b.to_text();
                    view! {
                        <li>
                            <button
                                class="sample"
                                data-board=text
                                class:valid=valid
                                class:focused=move || focus.get() == i
                                aria-label=label
                                aria-pressed=move || if focus.get() == i { "true" } else { "false" }
                                on:click=move |_| focus.set(i)
                            >
                                {mini_board(b, p.as_ref())}
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };

    let gallery = move || {
        let p = puzzle.get();
        found.with(|f| {
            f.iter()
                .enumerate()
                .map(|(i, b)| {
                    let text = b.to_text();
                    let copy_text = text.clone();
                    let on_copy = move |_| {
                        let _ = window().navigator().clipboard().write_text(&copy_text);
                        copied.set(Some(copy_text.clone()));
                    };
                    let is_copied = {
                        let text = text.clone();
                        move || copied.with(|c| c.as_deref() == Some(text.as_str()))
                    };
                    view! {
                        <li class="solution" data-solution=text>
                            {mini_board(b, p.as_ref())}
                            <button class="copy" aria-label=format!("Copy solution {}", i + 1) on:click=on_copy>
                                {move || if is_copied() { "Copied" } else { "Copy" }}
                            </button>
                        </li>
                    }
                })
                .collect_view()
        })
    };

    let exact_list = move || {
        let has_run = run.with(Option::is_some);
        let p = settings.with(|s| s.board.clone());
        exact.with(|ex| {
            ex.iter()
                .map(|b| {
                    let hit = found.with(|f| f.contains(b));
                    let mark = if !has_run { "" } else if hit { "found" } else { "missed" };
                    view! {
                        <li class="exact" class:found=hit class:missed=has_run && !hit data-solution=b.to_text() data-found=hit.to_string()>
                            {mini_board(b, Some(&p))}
                            <span>{mark}</span>
                        </li>
                    }
                })
                .collect_view()
        })
    };

    let counter = move || format!("found {} of {}", found.with(Vec::len), exact.with(Vec::len));
    let plot = move || coverage_plot(curve.get(), previous.get());

    view! {
        <section class="nqueens">
            <h1>"N-Queens: sample, inject noise, count what is found"</h1>
            <div class="status-bar">
                <span class="badge" data-backend=move || backend.with(|b| b.as_ref().map(|b| b.0.clone()).unwrap_or_default())>
                    {move || backend.with(|b| b.as_ref().map(|b| b.0.clone()).unwrap_or_else(|| "Starting…".into()))}
                </span>
                <span class="backend-detail">{move || backend.with(|b| b.as_ref().map(|b| b.1.clone()).unwrap_or_default())}</span>
            </div>
            <UrlNotes notes/>
            {load_view}

            <div class="layout">
                <div class="panel">
                    <h2>"Your board"</h2>
                    <p class="hint">"Click, tap or press Enter on a square to place or remove a queen; arrow keys move between squares."</p>
                    <div class="board" role="group" aria-label="Puzzle board">{cells}</div>
                    <p class="board-status" aria-live="polite">{board_status}</p>
                    <div class="row">
                        <button on:click=move |_| edit_board(&|b: &mut Board| *b = Board::empty(SIDE).expect("8"))>"Clear"</button>
                        <button on:click=move |_| new_puzzle()>"New puzzle"</button>
                    </div>
                </div>

                <div class="panel controls">
                    <h2>"Reasoner"</h2>
                    <fieldset class="model">
                        <legend>"Model"</legend>
                        <label>
                            <input type="radio" name="model" prop:checked=move || settings.with(|s| s.model == Model::Gram) on:change=move |_| set_model(Model::Gram)/>
                            "GRAM (stochastic guidance)"
                        </label>
                        <label>
                            <input type="radio" name="model" prop:checked=move || settings.with(|s| s.model == Model::Trm) on:change=move |_| set_model(Model::Trm)/>
                            "TRM (deterministic)"
                        </label>
                    </fieldset>
                    <label>
                        {move || format!("Samples N = {}", settings.with(|s| s.sampling.samples))}
                        <input type="range" min="1" max=MAX_SAMPLES.to_string() aria-label="Samples N"
                            prop:value=move || settings.with(|s| s.sampling.samples.to_string())
                            on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse() { settings.update(|s| { s.sampling.samples = n; s.sampling.run = false; }) } }/>
                    </label>
                    <label>
                        {move || format!("Guidance scale = {:.1}", settings.with(|s| s.sampling.scale))}
                        <input type="range" min="0" max="3" step="0.1" aria-label="Guidance scale"
                            prop:value=move || settings.with(|s| s.sampling.scale.to_string())
                            on:input=move |ev| { if let Ok(x) = event_target_value(&ev).parse::<f64>() { settings.update(|s| { s.sampling.scale = (x * 10.0).round() / 10.0; s.sampling.run = false; }) } }/>
                    </label>
                    <p class="hint">{move || if settings.with(|s| s.model == Model::Trm) {
                        "TRM has no guidance heads: the scale does not change it, and all N samples are the same."
                    } else {
                        "0 = the mean path only (deterministic), 1 = the learned prior, above 1 = amplified noise."
                    }}</p>
                    <label>
                        {move || format!("Supervision steps = {}", settings.with(|s| s.sampling.steps))}
                        <input type="range" min="1" max=MAX_STEPS.to_string() aria-label="Supervision steps"
                            prop:value=move || settings.with(|s| s.sampling.steps.to_string())
                            on:input=move |ev| { if let Ok(n) = event_target_value(&ev).parse() { settings.update(|s| { s.sampling.steps = n; s.sampling.run = false; }) } }/>
                    </label>
                    <label>
                        "Seed "
                        <input type="number" min="0" max="1000000000" class="seed" aria-label="Seed"
                            prop:value=move || settings.with(|s| s.sampling.seed.to_string())
                            on:change=move |ev| { if let Ok(x) = event_target_value(&ev).parse() { settings.update(|s| { s.sampling.seed = x; s.sampling.run = false; }) } }/>
                    </label>
                    <div class="row">
                        <button class="primary" on:click=move |_| solve() disabled=move || !conflicts.with(BTreeSet::is_empty)>"Solve"</button>
                        <button on:click=move |_| stop() disabled=move || !running()>"Stop"</button>
                    </div>
                    <p class="run-status" aria-live="polite">{run_status}</p>
                </div>
            </div>

            <div class="results" hidden=move || run.with(Option::is_none)>
                <div class="layout">
                    <div class="panel">
                        <h2>"Inside one trajectory"</h2>
                        <p class="hint">"Shade = the model's probability of a queen on each square after this step; ♛ = its current answer; outlined squares were given."</p>
                        <div class="player row" role="group" aria-label="Playback">
                            <button aria-label="Previous step" on:click=move |_| { playing.set(false); shown.update(|s| *s = s.saturating_sub(1).max(1)); }>"◀ Back"</button>
                            <button class="play" on:click=move |_| playing.update(|p| *p = !*p)>
                                {move || if playing.get() { "Pause" } else { "Play" }}
                            </button>
                            <button aria-label="Next step" on:click=move |_| { playing.set(false); let max = reports.with(Vec::len); shown.update(|s| *s = (*s + 1).min(max)); }>"Step ▶"</button>
                            <label>
                                "Speed "
                                <select aria-label="Speed" on:change=move |ev| { if let Ok(ms) = event_target_value(&ev).parse() { speed_ms.set(ms) } }>
                                    <option value="1000">"0.5×"</option>
                                    <option value="500" selected>"1×"</option>
                                    <option value="250">"2×"</option>
                                    <option value="100">"5×"</option>
                                </select>
                            </label>
                        </div>
                        <p class="step-label" aria-live="polite">
                            {move || format!("Step {} of {} · sample {} of {}", shown.get(), run.with(|r| r.as_ref().map_or(0, |r| r.steps)), focus.get() + 1, run.with(|r| r.as_ref().map_or(0, |r| r.samples)))}
                        </p>
                        <div class="board heatmap" role="img" aria-label="The focused trajectory's probabilities of a queen per square">{heat}</div>
                    </div>
                    <div class="panel">
                        <h2>"All samples at this step"</h2>
                        <p class="hint">"Green = a valid completion of your board. Choose one to look inside it."</p>
                        <ul class="samples">{samples_strip}</ul>
                        <h2>"Coverage against samples drawn"</h2>
                        {plot}
                    </div>
                </div>
                <div class="layout">
                    <div class="panel">
                        <h2>"Distinct valid completions found"</h2>
                        <p class="counter" aria-live="polite">{counter}</p>
                        <ul class="gallery">{gallery}</ul>
                    </div>
                    <div class="panel">
                        <h2>"The exact solver's completions"</h2>
                        <ul class="exact-list">{exact_list}</ul>
                    </div>
                </div>
            </div>

            <section class="explain">
                <h2>"What is on screen"</h2>
                <p><strong>"Latent state. "</strong>"The model keeps a vector for every square and rewrites it again and again: a few fast inner updates that read your board, then one slow update of its answer state. One "<em>"supervision step"</em>" is a round of those updates; after each, the model can say which squares hold queens. The shaded board shows that readout growing sharper."</p>
                <p><strong>"Stochastic guidance. "</strong>"GRAM adds noise to every update of the answer state, drawn from a distribution the model learned. Different noise sends different trajectories toward different completions. The guidance scale multiplies that noise: at 0 every trajectory follows the mean path and all N samples agree; above 1 they wander further. The last quarter of the steps (2 of 8) runs without noise: the noisy steps choose a completion, the quiet ones let each sample settle on it."</p>
                <p><strong>"Coverage. "</strong>"A board with a few queens usually has several completions. Coverage is the share of them that N samples found. TRM, the same network without noise, gives one answer however often you ask: its coverage stops at one completion. Run GRAM, then TRM, and compare the two lines in the plot."</p>
            </section>
        </section>
    }
}
