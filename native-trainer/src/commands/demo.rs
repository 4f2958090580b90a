//! `demo`: the playground in a terminal: a few held-out N-Queens puzzles solved by the shipped
//! GRAM and TRM weights side by side, with the distinct valid completions each found.

use std::path::Path;
use std::process::ExitCode;

use burn::tensor::Device;
use engine::gram::{SampleOptions, Selection};
use engine::solve::solve;
use engine::tasks::nqueens::metrics::distinct_valid;
use engine::tasks::nqueens::{Board, NQueens};
use engine::tasks::{Part, Task, spread};

use crate::gram::weights::load_weights;

/// Text rendering of boards side by side, for the demo.
fn side_by_side(boards: &[(String, &Board)]) -> String {
    let n = boards.first().map_or(0, |(_, b)| b.n());
    let mut s = String::new();
    for (title, _) in boards {
        s.push_str(&format!("{title:<w$}  ", w = 2 * n));
    }
    s.push('\n');
    for r in 0..n {
        for (_, b) in boards {
            for c in 0..n {
                s.push_str(if b.has_queen(r, c) { "Q " } else { ". " });
            }
            s.push_str("  ");
        }
        s.push('\n');
    }
    s
}

/// The playground in a terminal (until the browser app lands): a few held-out puzzles solved by
/// the shipped GRAM and TRM weights, with the distinct valid completions each found.
pub fn demo(samples: usize, puzzles: usize, seed: u64, device: &Device) -> Result<ExitCode, String> {
    let gram = load_weights(Path::new("public/weights/gram-nqueens8.bpk"), device)?.0;
    let trm = load_weights(Path::new("public/weights/trm-nqueens8.bpk"), device)?.0;
    let task = NQueens::new(8);
    let test = task.instances(Part::Test);
    let picks = spread(&test, puzzles);
    let options = SampleOptions { samples, seed, ..SampleOptions::default() };
    println!("Latent-reasoning playground (terminal demo): {samples} samples per model, seed {seed}\n");
    for inst in &picks {
        let total = inst.solutions.len();
        let mut cols = vec![("puzzle".to_string(), &inst.puzzle)];
        let g = solve(&task, &gram, std::slice::from_ref(&inst.puzzle), &options, Selection::Lprm, 1, device).remove(0);
        let t = solve(&task, &trm, std::slice::from_ref(&inst.puzzle), &options, Selection::Lprm, 1, device).remove(0);
        let g_found = distinct_valid(&g.samples, &inst.puzzle);
        let t_found = distinct_valid(&t.samples, &inst.puzzle);
        cols.push(("GRAM selected".to_string(), &g.samples[g.selected]));
        cols.push(("TRM selected".to_string(), &t.samples[t.selected]));
        print!("{}", side_by_side(&cols));
        println!("completions: {total}   GRAM found {} of {total}   TRM found {} of {total}\n", g_found.len(), t_found.len());
    }
    println!("GRAM samples its latent trajectory (h = u + eps, eps from the learned prior), so its");
    println!("samples spread over the valid completions; TRM's recursion is deterministic, so all its");
    println!("samples are the same board. Full numbers: native-trainer eval --weights <file>.");
    Ok(ExitCode::SUCCESS)
}
