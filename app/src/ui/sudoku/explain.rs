//! "What is on screen" for `/sudoku`: recursion, samples and the vote, the oracle.

use leptos::prelude::*;

#[component]
pub(super) fn Explain() -> impl IntoView {
    view! {
        <section class="explain">
            <h2>"What is on screen"</h2>
            <p><strong>"Recursion. "</strong>"The model keeps a vector for each of the 81 cells and rewrites it again and again: six fast updates that read your puzzle, then one slow update of its answer state, twice per "<em>"supervision step"</em>". After each step it can say which digit it would write in every cell. Step through and watch cells settle: the shade is its confidence."</p>
            <p><strong>"Samples and the vote. "</strong>"GRAM adds learned noise to every slow update, so N runs of the same puzzle can end in different grids. The vote picks the grid most samples agree on; more samples give the vote more chances, which is the paper's width scaling. The plot shows it for this puzzle. TRM, the deterministic model beside it (the same core without the guidance heads, the same training budget), has no noise: its N samples are one grid, so it can only get better by taking more steps."</p>
            <p><strong>"Stopping and restarting. "</strong>"Whether a grid obeys the rules is cheap to check exactly, so by default the page checks every sample after every step and stops as soon as one passes: that sample is the answer. Each sample solves its own shuffled copy of the puzzle (digits relabelled, rows and columns shuffled: the same puzzle to the rules, a new one to the network), so the N samples make different mistakes; every copy is shown unshuffled. If a whole budget of steps ends with none passing, all N samples start again from scratch on new copies with fresh noise (a restart). The paper has none of this: it runs every step on the puzzle as given, then votes."</p>
            <p><strong>"The oracle. "</strong>"An exact solver (ordinary search, no learning) knows the one solution. It checks the vote: verified, or the wrong cells marked. The model never sees the solver's answer."</p>
        </section>
    }
}
