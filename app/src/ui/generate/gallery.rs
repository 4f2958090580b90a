//! The samples as a grid that refines over the supervision steps: playback, a step slider to scrub
//! back, each board marked valid or not, and the count of distinct (valid) samples.

use engine::tasks::nqueens::Board;
use engine::tasks::sudoku::SudokuGrid;
use leptos::prelude::*;

use crate::ui::plots::export::TextExport;

use super::picture::digit_picture;
use super::state::{GenerateState, Sample, total_valid};
use super::url::Kind;
use crate::ui::controls::playback::Player;
use crate::ui::controls::sample_button::SampleButton;
use crate::ui::controls::slider::Slider;
use crate::ui::nqueens::mini_board::mini_board;
use crate::ui::sudoku::mini_grid::mini_grid_clashes;
use crate::ui::trajectories::views::StepLabel;

fn picture(kind: Kind, sample: &Sample, probs: &[f32]) -> AnyView {
    match kind {
        Kind::Digits => digit_picture(probs).into_any(),
        Kind::Queens8 => match Board::parse(&sample.text, 8) {
            Ok(b) => mini_board(&b, None).into_any(),
            Err(_) => view! { <span>"?"</span> }.into_any(),
        },
        Kind::Sudoku => match SudokuGrid::parse(&sample.text) {
            Ok(g) => mini_grid_clashes(&g).into_any(),
            Err(_) => view! { <span>"?"</span> }.into_any(),
        },
    }
}

#[component]
pub(super) fn Gallery(page: GenerateState) -> impl IntoView {
    let GenerateState { session, samples, distinct, .. } = page;
    let (current, focus, run) = (session.current, session.focus, session.run);
    let kind = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| r.task)));
    let grid = move || {
        let Some(kind) = kind.get() else { return Vec::new() };
        samples
            .get()
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let probs = current.with(|c| c.as_ref().and_then(|r| r.probs.get(i).cloned()).unwrap_or_default());
                let noun = if kind == Kind::Sudoku { "grid" } else { "board" };
                let label = match s.valid {
                    Some(true) => format!("Sample {}: a valid {noun}", i + 1),
                    Some(false) => format!("Sample {}: not a valid {noun}", i + 1),
                    None => format!("Sample {}", i + 1),
                };
                let mark: Option<&'static str> = s.valid.map(|v| if v { "valid" } else { "not valid" });
                let shown = picture(kind, &s, &probs);
                let valid = s.valid == Some(true);
                view! {
                    <li data-valid=mark>
                        <SampleButton index=i focus valid label attr:data-sample=s.text>
                            {shown}
                        </SampleButton>
                        {mark.map(|m| view! { <span class="mark" class:bad=!valid>{m}</span> })}
                    </li>
                }
            })
            .collect::<Vec<_>>()
    };
    let counter = move || {
        let n = samples.with(Vec::len);
        match kind.get() {
            None => String::new(),
            Some(Kind::Digits) => format!("{} distinct digits among {n} samples", distinct.get()),
            Some(k) => {
                let valid = samples.with(|s| s.iter().filter(|x| x.valid == Some(true)).count());
                let noun = if k == Kind::Sudoku { "grids" } else { "boards" };
                format!("{valid} of {n} samples valid · {} distinct valid {noun} of the {} there are", distinct.get(), total_valid(k))
            }
        }
    };
    let playback = session.playback;
    // Tracked (the playback's own count is not), so the slider's end follows the steps arriving.
    let reports = session.reports;
    let available = move || reports.with(Vec::len);
    view! {
        <div class="panel generated">
            <h2>"The samples, refining step by step"</h2>
            <p class="hint">
                "Each picture is one trajectory's answer after the step on screen. Digits: brighter = the model is surer the pixel is ink. "
                "Boards and grids: green = valid (an N-Queens solution; a full Sudoku grid without a clash); red cells = a digit repeated in its row, column or box."
            </p>
            <Player playback unit="step" speed_select=true rewind=true/>
            <Slider
                label=move || format!("Step on screen = {} of {}", playback.shown.get(), available())
                aria_label="Step on screen"
                min="1"
                max=move || available().max(1).to_string()
                value=move || playback.shown.get().to_string()
                on_input=move |v| {
                    if let Ok(s) = v.parse::<usize>() {
                        playback.playing.set(false);
                        playback.shown.set(s.clamp(1, available().max(1)));
                    }
                }
            />
            <StepLabel session/>
            <p class="counter" aria-live="polite">{counter}</p>
            <TextExport
                name="samples.txt"
                label="Download the samples as text"
                text=move || samples.with(|s| s.iter().map(|x| x.text.clone() + "\n").collect::<String>())
            />
            <ul class="samples generated-grid">{grid}</ul>
        </div>
    }
}
