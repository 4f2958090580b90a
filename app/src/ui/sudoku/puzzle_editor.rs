//! The puzzle the visitor enters: 81 cells (type 1-9, clear with Backspace, Delete or 0, arrows
//! move), what the exact solver says about it, Clear, generate at a difficulty, and paste.

use std::collections::BTreeSet;

use engine::tasks::sudoku::{Difficulty, SudokuGrid};
use leptos::prelude::*;

use super::state::SudokuState;
use crate::ui::browser::focus_element;
use crate::ui::controls::paste_row::{Field, PasteRow};
use crate::ui::trajectories::page::ReasonerPage;

fn digit_of_key(key: &str) -> Option<u8> {
    match key {
        "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" => key.parse().ok(),
        _ => None,
    }
}

/// Moves the keyboard focus from `cell` by (`dr`, `dc`), staying on the grid.
fn move_focus(cell: usize, dr: isize, dc: isize) {
    let r = ((cell / 9) as isize + dr).clamp(0, 8);
    let c = ((cell % 9) as isize + dc).clamp(0, 8);
    focus_element(&format!("sc-{r}-{c}"));
}

/// One cell of the input grid.
fn cell_input(page: SudokuState, i: usize) -> impl IntoView + use<> {
    let SudokuState { settings, conflicts, .. } = page;
    let (r, c) = (i / 9, i % 9);
    let digit = move || settings.with(|s| s.puzzle.get(i));
    let conflict = move || conflicts.with(|set| set.contains(&i));
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let key = ev.key();
        let set = |d: u8| page.edit(&|p: &mut SudokuGrid| p.set(i, d));
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
                Some(d) if digit() != d => set(d),
                Some(_) => {}
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
        page.edit(&|p: &mut SudokuGrid| p.set(i, d));
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
}

#[component]
pub(super) fn PuzzleEditor(page: SudokuState) -> impl IntoView {
    let SudokuState { puzzle, conflicts, assessment, generated, difficulty, paste, paste_error, .. } = page;
    let inputs = (0..81).map(|i| cell_input(page, i)).collect_view();
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
    view! {
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
                <button on:click=move |_| { generated.set(None); page.edit(&|p: &mut SudokuGrid| *p = SudokuGrid::empty()) }>"Clear"</button>
                <label>
                    "Difficulty "
                    <select aria-label="Difficulty" on:change=move |ev| { if let Some(d) = Difficulty::parse(&event_target_value(&ev)) { difficulty.set(d) } }>
                        {Difficulty::ALL.into_iter().map(|d| {
                            let (lo, hi) = d.givens();
                            view! { <option value=d.name() selected=d == Difficulty::Hard>{format!("{} ({lo}-{hi} givens)", d.name())}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <button on:click=move |_| page.new_puzzle()>"New puzzle"</button>
            </div>
            <PasteRow
                label="Paste a puzzle (81 cells, blanks as . 0 or -; spaces and grid lines are skipped)"
                aria_label="Puzzle text, 81 cells" placeholder="53..7....6..195..."
                field=Field::Line button="Load" text=paste error=paste_error on_load=move || page.load_paste()/>
        </div>
    }
}
