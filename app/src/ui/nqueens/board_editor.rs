//! The board the visitor builds: 8x8 or 10x10 square buttons (click, tap, Enter; arrows move),
//! what the exact solver says about it, the size switch, Clear and New puzzle (the frame is
//! `controls::sized_editor`).

use std::collections::BTreeSet;

use engine::tasks::nqueens::Board;
use leptos::prelude::*;

use super::state::NQueensState;
use super::url::NQueensSettings;
use crate::ui::browser::focus_element;
use crate::ui::trajectories::coverage::Coverage;
use crate::ui::trajectories::page::ReasonerPage;
use crate::ui::trajectories::sized_editor::SizedEditor;

#[component]
pub(super) fn BoardEditor(page: NQueensState) -> impl IntoView {
    let NQueensState { settings, conflicts, coverage: Coverage { exact, .. }, .. } = page;
    // Only a new size rebuilds the squares (an edit keeps them, and the keyboard focus).
    let side = Memo::new(move |_| settings.with(NQueensSettings::side));
    let cells = move || {
        let side = side.get();
        (0..side * side).map(move |i| cell(page, side, i)).collect_view()
    };

    let board_status = move || {
        let n_conf = conflicts.with(BTreeSet::len);
        let total = exact.with(Vec::len);
        let queens = settings.with(|s| s.puzzle.queen_count());
        if n_conf > 0 {
            format!("{n_conf} queens attack each other (marked in red): remove one to solve.")
        } else if total == 0 {
            format!(
                "{queens} queens placed. No completion exists: the exact solver finds none, so every answer the model gives will be wrong."
            )
        } else {
            format!("{queens} queens placed, no conflicts. The exact solver finds {total} completion{}.", if total == 1 { "" } else { "s" })
        }
    };

    let hint = "Click, tap or press Enter on a square to place or remove a queen; arrow keys move between squares.".into_any();
    let on_clear = move || page.edit(&|b: &mut Board| *b = Board::empty(b.n()).expect("a supported side"));
    view! {
        <SizedEditor page heading="Your board" legend="Board size" name="nqueens-size" size_label=|n| format!("{n}x{n}")
            verdict_class="board-status" verdict=board_status clear="Clear" new="New puzzle" size=side hint on_clear>
            <div
                class="board"
                role="group"
                aria-label=move || format!("Puzzle board, {0}x{0}", side.get())
                style:grid-template-columns=move || format!("repeat({}, 1fr)", side.get())
            >
                {cells}
            </div>
        </SizedEditor>
    }
}

/// One square of a board of side `side`: `i` is its row-major index.
fn cell(page: NQueensState, side: usize, i: usize) -> impl IntoView {
    let NQueensState { settings, conflicts, .. } = page;
    let (r, c) = (i / side, i % side);
    // The side check: a square of the old size may be asked once more as the size changes.
    let queen = move || settings.with(|s| s.puzzle.n() == side && s.puzzle.has_queen(r, c));
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
        let nr = (r as isize + dr).clamp(0, side as isize - 1);
        let nc = (c as isize + dc).clamp(0, side as isize - 1);
        focus_element(&format!("cell-{nr}-{nc}"));
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
            on:click=move |_| page.edit(&|b: &mut Board| b.set(r, c, !b.has_queen(r, c)))
            on:keydown=on_key
        >
            {move || if queen() { "♛" } else { "" }}
        </button>
    }
}
