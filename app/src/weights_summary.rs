//! The one line a page shows once GRAM/TRM weights are ready: size and the manifest's recorded
//! evaluation, worded per kind of task (puzzles: held-out accuracy; p(x): what the samples were).
//! Plain Rust, tested natively.

use engine::gram::SampleOptions;
use engine::weights::Manifest;

pub fn weights_summary(manifest: &Manifest) -> String {
    match &manifest.eval {
        Some(e) if manifest.task == "sudoku" => format!(
            "{} parameters; held-out {} ({} puzzles){}: one sample right {:.1}%, solved by any of {} samples {:.1}%",
            manifest.params,
            e.split,
            e.inputs,
            at_scale(e),
            e.accuracy,
            e.samples,
            e.coverage
        ),
        // p(x): one constant input, nothing held out; the record is of the samples.
        Some(e) if manifest.task.ends_with("-boards") => format!(
            "{} parameters; recorded with {} samples{}: {:.1}% valid boards, {:.1}% of all valid boards drawn",
            manifest.params,
            e.samples,
            drawn_as(e),
            e.accuracy,
            e.coverage
        ),
        // 6.7e21 grids: coverage says nothing; the distinct valid grids do.
        Some(e) if manifest.task == "sudoku-grids" => {
            format!("{} parameters; recorded with {} samples{}: {:.1}% valid grids", manifest.params, e.samples, drawn_as(e), e.accuracy)
        }
        Some(e) if manifest.task == "digits" => format!(
            "{} parameters; recorded with {} samples{}: IS {:.2}, FID {:.1} (real digits: IS {:.2}, FID {:.1})",
            manifest.params,
            e.samples,
            drawn_as(e),
            e.extra.get("IS").copied().unwrap_or(f64::NAN),
            e.extra.get("FID").copied().unwrap_or(f64::NAN),
            e.extra.get("real IS").copied().unwrap_or(f64::NAN),
            e.extra.get("real FID").copied().unwrap_or(f64::NAN)
        ),
        Some(e) => format!(
            "{} parameters; held-out {}{}: accuracy {:.1}%, coverage@{} {:.1}%",
            manifest.params,
            e.split,
            at_scale(e),
            e.accuracy,
            e.samples,
            e.coverage
        ),
        None => format!("{} parameters", manifest.params),
    }
}

/// The guidance scale the record was drawn at, where it was kept: the page's own default may
/// differ (10-vertex colouring and Sudoku sample at other scales than the paper's 1 that `eval`
/// records), so the visitor reads which one the numbers are for.
fn at_scale(e: &engine::weights::EvalRecord) -> String {
    e.guidance_scale.map(|s| format!(" at guidance scale {s}")).unwrap_or_default()
}

/// How a p(x) record's samples were drawn, where kept: their supervision steps and guidance
/// scale (`/generate`'s own knobs may differ, so the visitor reads which the numbers are for).
fn drawn_as(e: &engine::weights::EvalRecord) -> String {
    let steps = e.steps.map(|s| format!(" of {s} steps")).unwrap_or_default();
    // The sampler's own count of the noise-free steps at the end of the budget.
    let quiet = e.steps.zip(e.settle).map(|(max_steps, settle)| SampleOptions { max_steps, settle, ..Default::default() }.settle_steps());
    let settled = match quiet {
        None | Some(0) => String::new(),
        Some(1) => ", the last one without noise".to_string(),
        Some(n) => format!(", the last {n} without noise"),
    };
    format!("{steps}{}{settled}", at_scale(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(name: &str) -> Manifest {
        let path = format!("{}/../public/weights/{name}.json", env!("CARGO_MANIFEST_DIR"));
        Manifest::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn each_kind_of_task_is_worded_for_what_it_recorded() {
        let queens = weights_summary(&shipped("gram-nqueens8"));
        assert!(queens.contains("held-out nqueens8/test") && queens.contains(": accuracy"), "{queens}");
        let m = shipped("gram-nqueens8-boards");
        let boards = weights_summary(&m);
        let valid = m.eval.as_ref().unwrap().accuracy;
        assert!(
            boards.contains(&format!(
                "recorded with 64 samples of 32 steps at guidance scale 1, the last 8 without noise: {valid:.1}% valid boards"
            )),
            "{boards}"
        );
        let digits = weights_summary(&shipped("gram-digits"));
        assert!(digits.contains("IS ") && digits.contains("(real digits: IS "), "{digits}");
        let m = shipped("gram-sudoku-grids");
        let grids = weights_summary(&m);
        let e = m.eval.as_ref().unwrap();
        assert!(
            grids.contains(&format!("recorded with {} samples of 16 steps at guidance scale 1: {:.1}% valid grids", e.samples, e.accuracy)),
            "{grids}"
        );
        assert!(weights_summary(&shipped("gram-sudoku")).contains("one sample right"));
    }

    #[test]
    fn noise_free_steps_are_named_only_where_there_were_some() {
        let mut m = shipped("gram-nqueens8-boards");
        let e = m.eval.as_mut().unwrap();
        (e.steps, e.settle) = (Some(8), Some(0.125));
        assert!(weights_summary(&m).contains("of 8 steps at guidance scale 1, the last one without noise:"), "{}", weights_summary(&m));
        m.eval.as_mut().unwrap().settle = Some(0.0);
        assert!(weights_summary(&m).contains("of 8 steps at guidance scale 1: "), "{}", weights_summary(&m));
        m.eval.as_mut().unwrap().settle = None;
        assert!(weights_summary(&m).contains("of 8 steps at guidance scale 1: "), "{}", weights_summary(&m));
    }

    #[test]
    fn a_recorded_guidance_scale_is_named() {
        let mut m = shipped("gram-coloring8");
        let e = m.eval.as_mut().unwrap();
        e.guidance_scale = Some(1.0);
        assert!(weights_summary(&m).contains("held-out coloring8/test at guidance scale 1: accuracy"), "{}", weights_summary(&m));
        m.eval.as_mut().unwrap().guidance_scale = None;
        assert!(weights_summary(&m).contains("held-out coloring8/test: accuracy"), "{}", weights_summary(&m));
    }
}
