//! `/sudoku`: enter, paste or generate a puzzle; sample N trajectories of GRAM; watch each cell's
//! digit distribution settle over the supervision steps, the samples vote, and the exact solver
//! check the vote. Rules, solver, vote and curve are the engine's.

use std::collections::BTreeSet;

use engine::sudoku_solve::{vote, width_curve};
use engine::tasks::sudoku::{Difficulty, SudokuGrid, assess, unique_solution};
use engine::sudoku_solve::WidthPoint;
use gloo_worker::{Spawnable, WorkerBridge};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::grid::{mini_grid, width_plot};
use super::status::{Load, UrlNotes, load_view};
use super::{autoplay, now, prefers_reduced_motion, query_pairs};
use crate::protocol::{Request, Response, SolveRequest, StepReport};
use crate::url_state::UrlState;
use crate::url_state::sampling::MAX_STEPS;
use crate::url_state::sudoku::{MAX_SAMPLES, SudokuSettings, WEIGHTS};
use crate::worker::ReasonerWorker;


#[derive(Clone, Debug, PartialEq)]
struct Run {
    id: u64,
    puzzle: SudokuGrid,
    /// The exact solver's answer (the run only starts for a puzzle with exactly one).
    solution: SudokuGrid,
    samples: usize,
    steps: usize,
    scale: f64,
    started: f64,
    done_ms: Option<f64>,
    stopped: bool,
    error: Option<String>,
}

/// A generated puzzle's facts, shown under the grid.
#[derive(Clone, Debug, PartialEq)]
struct Generated {
    difficulty: Difficulty,
    givens: usize,
    guesses: u64,
}

fn digit_of_key(key: &str) -> Option<u8> {
    match key {
        "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" => key.parse().ok(),
        _ => None,
    }
}

#[component]
pub fn SudokuPage() -> impl IntoView {
    let (initial, url_notes) = SudokuSettings::from_pairs(&query_pairs());
    let reduced_motion = prefers_reduced_motion();
    let settings = RwSignal::new(initial.clone());
    let notes = RwSignal::new(url_notes);
    let backend = RwSignal::new(None::<(String, String)>);
    let load = RwSignal::new(None::<Load>);
    let run = RwSignal::new(None::<Run>);
    let reports = RwSignal::new(Vec::<StepReport>::new());
    let shown = RwSignal::new(0usize);
    let playing = RwSignal::new(!reduced_motion);
    let focus = RwSignal::new(0usize);
    let cell_focus = RwSignal::new(None::<usize>);
    let previous = RwSignal::new(None::<(String, Vec<WidthPoint>)>);
    let paste = RwSignal::new(String::new());
    let paste_error = RwSignal::new(None::<String>);
    let difficulty = RwSignal::new(Difficulty::Hard);
    let generated = RwSignal::new(None::<Generated>);
    let speed_ms = RwSignal::new(500u32);
    let next_run = StoredValue::new(1u64);

    let on_response = move |response: Response| match response {
        Response::Backend { name, detail } => backend.set(Some((name, detail))),
        Response::LoadProgress { loaded, total, .. } => load.set(Some(Load::Loading { loaded, total })),
        Response::Loaded { summary, .. } => load.set(Some(Load::Ready(summary))),
        Response::LoadFailed { message, .. } => load.set(Some(Load::Failed(message))),
        Response::Step(report) => {
            if run.with_untracked(|r| r.as_ref().is_some_and(|r| r.id == report.run)) {
                reports.update(|r| r.push(report));
                let arrived = reports.with_untracked(Vec::len);
                if reduced_motion && shown.get_untracked() + 1 == arrived {
                    shown.set(arrived);
                }
            }
        }
        Response::Done { run: id, .. } => run.update(|r| {
            if let Some(r) = r.as_mut().filter(|r| r.id == id) {
                r.done_ms = Some(now() - r.started);
            }
        }),
        Response::Failed { run: id, message } => run.update(|r| {
            if let Some(r) = r.as_mut().filter(|r| r.id == id) {
                r.error = Some(message);
            }
        }),
        Response::Reasoned(_) => {}
    };
    let bridge: WorkerBridge<ReasonerWorker> = ReasonerWorker::spawner().callback(on_response).spawn("/worker.js");
    let bridge = StoredValue::new_local(bridge);
    let send = move |request: Request| bridge.with_value(|b| b.send(request));
    send(Request::Init { backend: initial.sampling.backend, origin: window().location().origin().unwrap_or_default() });
    send(Request::Load { model: WEIGHTS.into() });

    Effect::new(move |_| {
        let query = settings.with(SudokuSettings::to_query);
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("/sudoku?{query}")));
        }
    });

    autoplay(playing, shown, move || reports.with_untracked(Vec::len), speed_ms);

    // ----- what the engine says about the puzzle -----
    // Derived from the puzzle alone, so moving a slider does not re-run the solver; one exact
    // search gives both whether the puzzle is proper and its search effort.
    let puzzle = Memo::new(move |_| settings.with(|s| s.puzzle.clone()));
    let conflicts = Memo::new(move |_| puzzle.with(|p| p.conflicts().into_iter().collect::<BTreeSet<_>>()));
    let assessment = Memo::new(move |_| puzzle.with(assess));

    // ----- what is on screen of the run -----
    let current = Memo::new(move |_| {
        let i = shown.get();
        reports.with(|r| r.get(i.checked_sub(1)?).cloned())
    });
    let samples = Memo::new(move |_| {
        current.with(|c| {
            c.as_ref()
                .map(|r| r.boards.iter().filter_map(|b| SudokuGrid::parse(b).ok()).collect::<Vec<_>>())
                .unwrap_or_default()
        })
    });
    let voted = Memo::new(move |_| samples.with(|s| vote(s)));
    let curve = Memo::new(move |_| {
        let solution = run.with(|r| r.as_ref().map(|r| r.solution.clone()))?;
        if samples.with(Vec::is_empty) {
            return None;
        }
        Some(samples.with(|s| width_curve(s, &solution)))
    });
    let running = move || run.with(|r| r.as_ref().is_some_and(|r| r.done_ms.is_none() && r.error.is_none() && !r.stopped));

    let cancel_run = move || {
        if let Some(r) = run.get_untracked().filter(|r| r.done_ms.is_none()) {
            send(Request::Cancel { run: r.id });
        }
    };
    let solve = move || {
        let s = settings.get_untracked();
        let Some(solution) = unique_solution(&s.puzzle) else { return };
        // Keep the last run's curve to compare with, when it was the same puzzle.
        if let (Some(points), Some(r)) = (curve.get_untracked(), run.get_untracked()) {
            if r.puzzle == s.puzzle {
                previous.set(Some((format!("previous run (scale {:.1}, seed {})", r.scale, settings.with_untracked(|s| s.sampling.seed)), points)));
            } else {
                previous.set(None);
            }
        }
        cancel_run();
        let id = next_run.get_value();
        next_run.set_value(id + 1);
        run.set(Some(Run {
            id,
            puzzle: s.puzzle.clone(),
            solution,
            samples: s.sampling.samples,
            steps: s.sampling.steps,
            scale: s.sampling.scale,
            started: now(),
            done_ms: None,
            stopped: false,
            error: None,
        }));
        reports.set(Vec::new());
        shown.set(0);
        focus.set(0);
        cell_focus.set(None);
        playing.set(!reduced_motion);
        send(Request::Solve(SolveRequest {
            run: id,
            model: WEIGHTS.into(),
            puzzle: s.puzzle.to_text(),
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
    // Any edit of the puzzle invalidates the results on screen.
    let edit = move |f: &dyn Fn(&mut SudokuGrid)| {
        cancel_run();
        run.set(None);
        reports.set(Vec::new());
        shown.set(0);
        previous.set(None);
        settings.update(|s| {
            f(&mut s.puzzle);
            s.sampling.run = false;
        });
    };
    let load_paste = move || {
        let text = paste.get_untracked();
        match SudokuGrid::parse(&text) {
            Ok(g) => {
                paste_error.set(None);
                generated.set(None);
                edit(&|p: &mut SudokuGrid| *p = g.clone());
            }
            Err(e) => paste_error.set(Some(format!("Not loaded: {e}. The grid is unchanged."))),
        }
    };
    let new_puzzle = move || {
        let d = difficulty.get_untracked();
        let seed = (now() as u64).wrapping_mul(2_654_435_761) ^ settings.with_untracked(|s| s.sampling.seed);
        let inst = d.generate(seed);
        generated.set(Some(Generated { difficulty: d, givens: inst.givens(), guesses: inst.guesses }));
        paste_error.set(None);
        edit(&|p: &mut SudokuGrid| *p = inst.puzzle.clone());
    };

    if initial.sampling.run {
        solve();
    }

    // ----- the input grid -----
    let move_focus = |cell: usize, dr: isize, dc: isize| {
        let r = (cell / 9) as isize + dr;
        let c = (cell % 9) as isize + dc;
        let (r, c) = (r.clamp(0, 8), c.clamp(0, 8));
        if let Some(el) = document().get_element_by_id(&format!("sc-{r}-{c}")) {
            let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
        }
    };
    let inputs = (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let digit = move || settings.with(|s| s.puzzle.get(i));
            let conflict = move || conflicts.with(|set| set.contains(&i));
            let on_key = move |ev: web_sys::KeyboardEvent| {
                let key = ev.key();
                let set = |d: u8| edit(&|p: &mut SudokuGrid| p.set(i, d));
                match key.as_str() {
                    "ArrowUp" => move_focus(i, -1, 0),
                    "ArrowDown" => move_focus(i, 1, 0),
                    "ArrowLeft" => move_focus(i, 0, -1),
                    "ArrowRight" => move_focus(i, 0, 1),
                    "Backspace" | "Delete" | "0" | "." | " " => {
                        if digit() != 0 {
                            set(0);
                        }
                    }
                    k => match digit_of_key(k) {
                        Some(d) => {
                            if digit() != d {
                                set(d);
                            }
                        }
                        None if k == "Tab" || k.len() > 1 => return,
                        None => {}
                    },
                }
                ev.prevent_default();
            };
            // Virtual keyboards may not send key names: read what the input now holds.
            let on_input = move |ev: web_sys::Event| {
                let text = event_target_value(&ev);
                let d = text.chars().rev().find_map(|ch| ch.to_digit(10)).unwrap_or(0) as u8;
                edit(&|p: &mut SudokuGrid| p.set(i, d));
            };
            view! {
                <input
                    id=format!("sc-{r}-{c}")
                    class="scell"
                    class:bt=r % 3 == 0
                    class:bl=c % 3 == 0
                    class:filled=move || digit() != 0
                    class:conflict=conflict
                    type="text"
                    inputmode="numeric"
                    maxlength="1"
                    autocomplete="off"
                    aria-label=format!("Row {}, column {}", r + 1, c + 1)
                    aria-invalid=move || if conflict() { "true" } else { "false" }
                    prop:value=move || match digit() { 0 => String::new(), d => d.to_string() }
                    on:keydown=on_key
                    on:input=on_input
                />
            }
        })
        .collect_view();

    let puzzle_status = move || {
        let n_conf = conflicts.with(BTreeSet::len);
        let givens = puzzle.with(SudokuGrid::givens);
        if n_conf > 0 {
            format!("{n_conf} cells clash (marked in red): the same digit twice in a row, column or box. Fix them to solve.")
        } else {
            match assessment.get() {
                Err(p) => format!("{givens} givens: {p}, so there is no single answer to check. Add or change digits to solve."),
                Ok(guesses) => format!(
                    "{givens} givens, exactly one solution. The exact solver needed {guesses} guess{} to find and prove it.",
                    if guesses == 1 { "" } else { "es" }
                ),
            }
        }
    };

    // ----- the focused trajectory, cell by cell -----
    let digit_probs = move |cell: usize| -> Vec<f32> {
        current.with(|cur| {
            cur.as_ref()
                .and_then(|rep| rep.digit_probs.get(focus.get()))
                .map(|p| p[cell * 9..cell * 9 + 9].to_vec())
                .unwrap_or_default()
        })
    };
    let think_cells = (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let given = move || run.with(|ru| ru.as_ref().map_or(0, |ru| ru.puzzle.get(i)));
            let predicted = move || samples.with(|s| s.get(focus.get()).map_or(0, |g| g.get(i)));
            let confidence = move || {
                let d = predicted();
                if d == 0 { 0.0 } else { digit_probs(i).get(d as usize - 1).copied().unwrap_or(0.0) }
            };
            let label = move || {
                if given() != 0 {
                    format!("Row {}, column {}: given {}", r + 1, c + 1, given())
                } else if predicted() == 0 {
                    format!("Row {}, column {}: undecided", r + 1, c + 1)
                } else {
                    format!("Row {}, column {}: {} ({:.0}% sure)", r + 1, c + 1, predicted(), 100.0 * confidence())
                }
            };
            view! {
                <button
                    class="tcell"
                    class:bt=r % 3 == 0
                    class:bl=c % 3 == 0
                    class:given=move || given() != 0
                    class:picked=move || cell_focus.get() == Some(i)
                    aria-label=label
                    title=label
                    on:click=move |_| cell_focus.set(Some(i))
                >
                    <span class="conf" style:opacity=move || if given() != 0 { "0".to_string() } else { format!("{:.3}", confidence()) }></span>
                    <span class="dg">{move || match (given(), predicted()) {
                        (0, 0) => String::new(),
                        (0, d) => d.to_string(),
                        (g, _) => g.to_string(),
                    }}</span>
                </button>
            }
        })
        .collect_view();

    // The cell whose distribution is shown: the one chosen, else the first blank.
    let shown_cell = move || {
        cell_focus.get().or_else(|| run.with(|r| r.as_ref().and_then(|r| (0..81).find(|&i| r.puzzle.get(i) == 0))))
    };
    let distribution = move || {
        let Some(cell) = shown_cell() else { return view! { <p class="hint">"Choose a cell."</p> }.into_any() };
        let probs = digit_probs(cell);
        let answer = run.with(|r| r.as_ref().map_or(0, |r| r.solution.get(cell)));
        let bars = probs
            .iter()
            .enumerate()
            .map(|(k, &p)| {
                let d = k + 1;
                view! {
                    <li class:answer=d == answer as usize>
                        <span class="digit">{d.to_string()}</span>
                        <span class="bar"><span style:width=format!("{:.1}%", 100.0 * p)></span></span>
                        <span class="pct">{format!("{:.0}%", 100.0 * p)}</span>
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="dist">
                <p class="dist-title">{format!("Row {}, column {}: the focused sample's digit probabilities at this step", cell / 9 + 1, cell % 9 + 1)}</p>
                <ol class="bars" aria-label="Digit probabilities">{bars}</ol>
                <p class="hint">"Outlined: the exact solver's digit."</p>
            </div>
        }
        .into_any()
    };

    let samples_strip = move || {
        let Some(r) = run.get() else { return Vec::new() };
        samples.with(|ss| {
            ss.iter()
                .enumerate()
                .map(|(i, g)| {
                    let right = *g == r.solution;
                    let wrong = g.wrong_cells(&r.solution).len();
                    let label = if right {
                        format!("Sample {}: right", i + 1)
                    } else {
                        format!("Sample {}: wrong, {wrong} cells differ from the solution", i + 1)
                    };
                    view! {
                        <li>
                            <button
                                class="sample"
                                class:valid=right
                                class:focused=move || focus.get() == i
                                data-grid=g.to_text()
                                data-right=right.to_string()
                                aria-label=label
                                aria-pressed=move || if focus.get() == i { "true" } else { "false" }
                                on:click=move |_| focus.set(i)
                            >
                                {mini_grid(g, &r.puzzle, Some(&r.solution))}
                            </button>
                        </li>
                    }
                })
                .collect::<Vec<_>>()
        })
    };

    let verdict = move || {
        let r = run.get()?;
        let (grid, agree) = voted.get()?;
        let n = samples.with(Vec::len);
        let wrong = grid.wrong_cells(&r.solution);
        let (class, text) = if wrong.is_empty() {
            ("verdict ok", "Verified: the vote is the exact solver's solution.".to_string())
        } else {
            ("verdict bad", format!("Not solved: {} cell{} of the vote differ from the exact solver's solution (marked red).", wrong.len(), if wrong.len() == 1 { "" } else { "s" }))
        };
        let right = samples.with(|s| s.iter().filter(|g| **g == r.solution).count());
        Some(view! {
            <div class="vote">
                <div class="vote-grid" data-grid=grid.to_text()>{mini_grid(&grid, &r.puzzle, Some(&r.solution))}</div>
                <div>
                    <p class="agree">{format!("{agree} of {n} samples agree on this grid.")}</p>
                    <p class=class role="status" data-verified=wrong.is_empty().to_string()>{text}</p>
                    <p class="right-count">{format!("Samples right at this step: {right} of {n}.")}</p>
                </div>
            </div>
        })
    };

    let load_view = move || {
        load_view(load.get(), "GRAM", "You can still enter, paste, generate and check puzzles; reload the page to try again.")
    };

    let run_status = move || {
        let Some(r) = run.get() else { return "Press Solve to sample trajectories.".to_string() };
        let arrived = reports.with(Vec::len);
        let mean_ms = reports.with(|v| if v.is_empty() { 0.0 } else { v.iter().map(|s| s.millis).sum::<f64>() / v.len() as f64 });
        let mut parts = vec![format!(
            "GRAM, scale {:.1}: {} sample{}, {arrived} of {} steps computed",
            r.scale,
            r.samples,
            if r.samples == 1 { "" } else { "s" },
            r.steps
        )];
        if arrived > 0 {
            parts.push(format!("{mean_ms:.0} ms per step"));
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
    let plot = move || {
        let points = curve.get()?;
        Some(width_plot(points, previous.get(), "this run".into()))
    };
    let blocked = move || !conflicts.with(BTreeSet::is_empty) || assessment.with(Result::is_err);

    view! {
        <section class="sudoku">
            <h1>"Sudoku: watch the recursion settle, the samples vote, the solver check"</h1>
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
                    <h2>"Your puzzle"</h2>
                    <p class="hint">"Type 1-9 in a cell; Backspace, Delete or 0 clears it; arrow keys move."</p>
                    <div class="sgrid" role="group" aria-label="Sudoku puzzle">{inputs}</div>
                    <p class="board-status" aria-live="polite">{puzzle_status}</p>
                    <p class="hint">{move || generated.get().map(|g| format!(
                        "Generated at {} ({}-{} givens): {} givens; the solver's search effort is {} guess{}.",
                        g.difficulty.name(), g.difficulty.givens().0, g.difficulty.givens().1, g.givens, g.guesses, if g.guesses == 1 { "" } else { "es" }
                    ))}</p>
                    <div class="row">
                        <button on:click=move |_| { generated.set(None); edit(&|p: &mut SudokuGrid| *p = SudokuGrid::empty()) }>"Clear"</button>
                        <label>
                            "Difficulty "
                            <select aria-label="Difficulty" on:change=move |ev| { if let Some(d) = Difficulty::parse(&event_target_value(&ev)) { difficulty.set(d) } }>
                                {Difficulty::ALL.into_iter().map(|d| {
                                    let (lo, hi) = d.givens();
                                    view! { <option value=d.name() selected=d == Difficulty::Hard>{format!("{} ({lo}-{hi} givens)", d.name())}</option> }
                                }).collect_view()}
                            </select>
                        </label>
                        <button on:click=move |_| new_puzzle()>"New puzzle"</button>
                    </div>
                    <div class="row paste">
                        <label>
                            "Paste 81 characters "
                            <input type="text" class="paste-input" aria-label="Puzzle text, 81 characters" placeholder="53..7....6..195..."
                                prop:value=move || paste.get()
                                on:input=move |ev| paste.set(event_target_value(&ev))
                                on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" { load_paste() }/>
                        </label>
                        <button on:click=move |_| load_paste()>"Load"</button>
                    </div>
                    <Show when=move || paste_error.with(Option::is_some)>
                        <p class="error" role="alert">{move || paste_error.get().unwrap_or_default()}</p>
                    </Show>
                </div>

                <div class="panel controls">
                    <h2>"Reasoner (GRAM)"</h2>
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
                    <p class="hint">"0 = the mean path only (every sample the same), 1 = the learned prior, above 1 = amplified noise."</p>
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
                        <button class="primary" on:click=move |_| solve() disabled=blocked>"Solve"</button>
                        <button on:click=move |_| stop() disabled=move || !running()>"Stop"</button>
                    </div>
                    <p class="hint solve-blocked" hidden=move || !blocked()>"Solve needs a puzzle with exactly one solution and no clashes (see under the grid)."</p>
                    <p class="run-status" aria-live="polite">{run_status}</p>
                </div>
            </div>

            <div class="results" hidden=move || run.with(Option::is_none)>
                <div class="layout">
                    <div class="panel">
                        <h2>"Inside one sample"</h2>
                        <p class="hint">"Each blank cell shows the focused sample's current digit; the shade is how sure the model is. Blue digits were given. Choose a cell to see its nine probabilities."</p>
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
                        <div class="tgrid" role="group" aria-label="The focused sample's grid at this step">{think_cells}</div>
                        {distribution}
                    </div>
                    <div class="panel">
                        <h2>"The vote and the oracle"</h2>
                        {verdict}
                        <h2>"All samples at this step"</h2>
                        <p class="hint">"Green border = the whole grid is right; red digits differ from the solution. Choose one to look inside it."</p>
                        <ul class="samples">{samples_strip}</ul>
                        <h2>"Accuracy against the number of samples"</h2>
                        {plot}
                    </div>
                </div>
            </div>

            <section class="explain">
                <h2>"What is on screen"</h2>
                <p><strong>"Recursion. "</strong>"The model keeps a vector for each of the 81 cells and rewrites it again and again: six fast updates that read your puzzle, then one slow update of its answer state, twice per "<em>"supervision step"</em>". After each step it can say which digit it would write in every cell. Step through and watch cells settle: the shade is its confidence."</p>
                <p><strong>"Samples and the vote. "</strong>"GRAM adds learned noise to every slow update, so N runs of the same puzzle can end in different grids. The vote picks the grid most samples agree on; more samples give the vote more chances, which is the paper's width scaling. The plot shows it for this puzzle."</p>
                <p><strong>"The oracle. "</strong>"An exact solver (ordinary search, no learning) knows the one solution. It checks the vote: verified, or the wrong cells marked. The model never sees the solver's answer."</p>
            </section>
        </section>
    }
}
