//! `eval`'s tables of the verified stop: per group of the task and overall, what it solved and
//! spent against the plain run, and with restarts what every smaller restart budget would have.

use engine::gram::{Gram, SampleOptions};
use engine::solve::{Restarts, VerifiedStats, VerifiedTally, rounds_to_run, trajectories_to_run};

pub(super) fn per_input(x: usize, s: &VerifiedTally) -> f64 {
    x as f64 / s.inputs.max(1) as f64
}

/// What the verified stop spent, against the plain run's N x steps per input.
pub(super) fn compute_line(s: &VerifiedTally, options: &SampleOptions, model: &Gram) -> String {
    let n = trajectories_to_run(model, options).samples;
    format!(
        "verified stop: {} of {} inputs verified; compute {:.2} trajectory-steps per input (the plain run: {n} x {} = {}), {:.2} rounds per input",
        s.verified,
        s.inputs,
        per_input(s.trajectory_steps, s),
        options.max_steps,
        n * options.max_steps,
        per_input(s.rounds, s),
    )
}

/// The verified stop per group of the task (Sudoku's bands, N-Queens' queens removed) and
/// overall: solved (= verified), compute per input, against the plain run's; with restarts, the
/// same for every smaller restart budget.
pub(super) fn verified_table(s: &VerifiedStats, options: &SampleOptions, model: &Gram, rounds: Restarts) -> String {
    let plain = trajectories_to_run(model, options).samples * options.max_steps;
    let mut t = format!(
        "\nWith the verified stop (the answer: the first sample that passes the rules; compute: trajectories x supervision steps run, the plain run {plain} per input)\n| group | inputs | solved (verified) | trajectory-steps per input | rounds per input |\n| --- | --- | --- | --- | --- |\n"
    );
    let row = |label: &str, g: &VerifiedTally| {
        format!(
            "| {label} | {} | {:.2}% | {:.2} | {:.2} |\n",
            g.inputs,
            100.0 * per_input(g.verified, g),
            per_input(g.trajectory_steps, g),
            per_input(g.rounds, g)
        )
    };
    t += &group_rows(s, row);
    let restarts = rounds_to_run(model, options, rounds) - 1;
    t + &restarts_table(s, plain, restarts)
}

/// One table row per group of the task, then the row of all inputs.
fn group_rows(s: &VerifiedStats, row: impl Fn(&str, &VerifiedTally) -> String) -> String {
    s.groups.iter().map(|((_, label), g)| row(label, g)).chain(std::iter::once(row("all", &s.overall))).collect()
}

/// With restarts: what each smaller restart budget would have found and spent, read from the
/// same run (round r's noise does not depend on the budget; `VerifiedTally::with_restarts`).
/// Empty when the run allowed no restart.
fn restarts_table(s: &VerifiedStats, per_round: usize, restarts: usize) -> String {
    if restarts == 0 {
        return String::new();
    }
    let heads: Vec<String> = (0..=restarts).map(|k| format!("{k} restart{}", if k == 1 { "" } else { "s" })).collect();
    let t = format!(
        "\nBy restart budget (solved, trajectory-steps per input)\n| group | inputs | {} |\n| --- | --- |{}\n",
        heads.join(" | "),
        " --- |".repeat(restarts + 1)
    );
    let row = |label: &str, g: &VerifiedTally| {
        let cells: Vec<String> = (0..=restarts)
            .map(|k| {
                let (v, spent) = g.with_restarts(k, per_round);
                format!("{:.2}% at {:.1}", 100.0 * per_input(v, g), per_input(spent, g))
            })
            .collect();
        format!("| {label} | {} | {} |\n", g.inputs, cells.join(" | "))
    };
    t + &group_rows(s, row)
}
