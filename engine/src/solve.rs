//! Solving and scoring N-Queens puzzles with a GRAM/TRM model: the path the CLI's `solve` and
//! `eval` and the browser share. Puzzles are batched (`chunk` puzzles x N samples per forward).

use burn::tensor::Device;

use crate::gram::{Gram, Observation, SampleOptions, Trajectories, lprm_select, majority_vote};
use crate::metrics::Report;
use crate::tasks::nqueens::{Board, Instance, QUEEN};

/// How to pick one answer among the N samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Most frequent prediction (seed 003, eq. 15).
    Vote,
    /// Highest LPRM value (eq. 16).
    Lprm,
}

impl Selection {
    pub fn parse(text: &str) -> Option<Selection> {
        match text {
            "vote" => Some(Selection::Vote),
            "lprm" => Some(Selection::Lprm),
            _ => None,
        }
    }

    pub fn pick(self, predictions: &[Vec<u32>], values: &[f32]) -> usize {
        match self {
            Selection::Vote => majority_vote(predictions),
            Selection::Lprm => lprm_select(values),
        }
    }
}

/// The samples of one puzzle and the selected one.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    /// One board per trajectory; a cell is a queen iff the model predicted the queen token.
    pub samples: Vec<Board>,
    /// LPRM value of each sample.
    pub values: Vec<f32>,
    /// Index into `samples` of the selected answer.
    pub selected: usize,
    /// Supervision steps taken.
    pub steps: usize,
}

/// Reads a prediction as a board: queen iff the token is the queen token.
pub fn board_from_prediction(tokens: &[u32], n: usize) -> Board {
    let mut b = Board::empty(n).expect("model side is supported");
    for (i, &t) in tokens.iter().enumerate() {
        if t == QUEEN {
            b.set(i / n, i % n, true);
        }
    }
    b
}

fn collect(obs: &Observation, puzzles: usize, samples: usize, n: usize, select: Selection) -> Vec<Solved> {
    (0..puzzles)
        .map(|p| {
            let rows = p * samples..(p + 1) * samples;
            let preds = &obs.predictions[rows.clone()];
            let values = obs.values[rows].to_vec();
            Solved {
                samples: preds.iter().map(|t| board_from_prediction(t, n)).collect(),
                selected: select.pick(preds, &values),
                values,
                steps: obs.step,
            }
        })
        .collect()
}

/// The options actually sampled for `options`: a deterministic model (TRM, or GRAM at guidance
/// scale 0) gives N identical trajectories, so one is run (`samples: 1`) and its answer stands
/// for all N. Every caller that runs trajectories (CLI, browser worker) decides this here.
pub fn trajectories_to_run(model: &Gram, options: &SampleOptions) -> SampleOptions {
    let deterministic = !model.has_guidance() || options.guidance_scale == 0.0;
    SampleOptions { samples: if deterministic { 1 } else { options.samples }, ..options.clone() }
}

/// Samples every puzzle, `chunk` puzzles per batch. Each chunk restarts the noise from
/// `options.seed`, so a puzzle's samples depend only on the seed and its position in its chunk;
/// with `chunk = 1` they depend on the seed alone.
///
/// A deterministic model (TRM, or GRAM at guidance scale 0) gives N identical trajectories, so
/// it is run once per puzzle and its answer repeated N times: same output, 1/N of the work.
pub fn solve_nqueens(
    model: &Gram,
    puzzles: &[Board],
    options: &SampleOptions,
    select: Selection,
    chunk: usize,
    device: &Device,
) -> Vec<Solved> {
    let run = trajectories_to_run(model, options);
    let deterministic = run.samples < options.samples;
    let mut out = Vec::with_capacity(puzzles.len());
    for group in puzzles.chunks(chunk.max(1)) {
        let n = group[0].n();
        let tokens: Vec<Vec<u32>> = group.iter().map(Board::tokens).collect();
        let obs = Trajectories::new(model, &tokens, run.clone(), device).run(|_| {});
        for mut solved in collect(&obs, group.len(), run.samples, n, select) {
            if deterministic {
                solved.samples = vec![solved.samples[0].clone(); options.samples];
                solved.values = vec![solved.values[0]; options.samples];
                solved.selected = 0;
            }
            out.push(solved);
        }
    }
    out
}

/// The paper's Table-1 row: accuracy of the first sample, coverage@N of all N, per removed k.
///
/// Chunks of `chunk` puzzles are solved on every core the machine offers (one worker per core,
/// each taking the next chunk; one ran at ~100% of a core here). A chunk's samples depend only
/// on the seed and the chunk's contents (see [`solve_nqueens`]), and the report adds chunks in
/// order, so the result is the same for any number of workers. `progress` sees the report after
/// each chunk in order.
pub fn evaluate_nqueens(
    model: &Gram,
    instances: &[Instance],
    options: &SampleOptions,
    chunk: usize,
    device: &Device,
    progress: impl FnMut(usize, &Report),
) -> Report {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    evaluate_with_workers(model, instances, options, chunk, device, cores, progress)
}

fn evaluate_with_workers(
    model: &Gram,
    instances: &[Instance],
    options: &SampleOptions,
    chunk: usize,
    device: &Device,
    workers: usize,
    mut progress: impl FnMut(usize, &Report),
) -> Report {
    let chunk = chunk.max(1);
    let chunks: Vec<&[Instance]> = instances.chunks(chunk).collect();
    let solve_chunk = |group: &[Instance]| {
        let puzzles: Vec<Board> = group.iter().map(|g| g.puzzle.clone()).collect();
        solve_nqueens(model, &puzzles, options, Selection::Vote, chunk, device)
    };
    let mut report = Report::new(options.samples);
    let mut add = |i: usize, solved: &[Solved], report: &mut Report| {
        for (inst, s) in chunks[i].iter().zip(solved) {
            report.add(inst.removed(), &inst.puzzle, &inst.solutions, &s.samples);
        }
        progress(((i + 1) * chunk).min(instances.len()), report);
    };
    let workers = workers.min(chunks.len());
    if workers <= 1 {
        // One core (or wasm, which has no threads): in place.
        for (i, group) in chunks.iter().enumerate() {
            add(i, &solve_chunk(group), &mut report);
        }
        return report;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Vec<Solved>)>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (tx, next, chunks, solve_chunk) = (tx.clone(), &next, &chunks, &solve_chunk);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(group) = chunks.get(i) else { break };
                    if tx.send((i, solve_chunk(group))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Chunks finish out of order; add them in order.
        let mut finished = std::collections::BTreeMap::new();
        let mut in_order = 0;
        for (i, solved) in rx {
            finished.insert(i, solved);
            while let Some(solved) = finished.remove(&in_order) {
                add(in_order, &solved, &mut report);
                in_order += 1;
            }
        }
    });
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::nqueens::{Part, split, spread};
    use crate::weights::{Manifest, load_gram};

    /// Scoring on several cores gives the same report as on one, and sees progress in order.
    #[test]
    fn evaluation_does_not_depend_on_the_number_of_workers() {
        let device = Device::default();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../public/weights");
        let manifest = Manifest::from_json(&std::fs::read_to_string(dir.join("gram-nqueens8.json")).unwrap()).unwrap();
        let model = load_gram(&manifest, &std::fs::read(dir.join("gram-nqueens8.bpk")).unwrap(), &device).unwrap();
        let instances = spread(&split(8, Part::Test), 24);
        let options = SampleOptions { samples: 4, max_steps: 3, ..SampleOptions::default() };
        let run = |workers| {
            let mut seen = Vec::new();
            let r = evaluate_with_workers(&model, &instances, &options, 5, &device, workers, |done, _| seen.push(done));
            (r.overall, r.by_group, seen)
        };
        let one = run(1);
        assert_eq!(one.2, vec![5, 10, 15, 20, 24]);
        assert!(one.0.coverage_sum > 0.0, "the shipped model finds some completions: {:?}", one.0);
        assert_eq!(run(3), one);
    }
}
