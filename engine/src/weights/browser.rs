//! Weights trained in a browser, as files `native-trainer` reads: the `.bpk` and its manifest
//! (the task, the recipe, the seed, the steps and seconds, "trained in a browser", the curve the
//! page drew), named `<gram|trm>-<task>-browser`.

use burn::module::Module;

use super::identity::Family;
use super::{FORMAT_VERSION, Manifest, gram_to_bytes, sha256_hex};
use crate::training::Trainer;

/// One point of a run's curve as the page draws it: the training figures averaged since the
/// last point, and the held-out measure where one was taken at this step.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CurvePoint {
    pub step: usize,
    /// Seconds of training so far (the worker's clock).
    pub seconds: f64,
    pub loss: f32,
    /// The share of the batch's rows answered validly.
    pub valid: f64,
    /// The held-out accuracy and coverage in percent (`crate::training::held_out`).
    pub held_out: Option<(f64, f64)>,
}

/// The curve as CSV with a header; an absent measure is an empty field.
pub fn curve_csv(points: &[CurvePoint]) -> String {
    let mut out = String::from("step,seconds,loss,valid,heldout_accuracy,heldout_coverage\n");
    for p in points {
        let (a, c) = p.held_out.map_or((String::new(), String::new()), |(a, c)| (format!("{a:.2}"), format!("{c:.2}")));
        out.push_str(&format!("{},{:.1},{:.5},{:.4},{a},{c}\n", p.step, p.seconds, p.loss, p.valid));
    }
    out
}

/// The run's weights (their average where kept) and their manifest. `seconds`: training time so
/// far; `held_out`: the measure's inputs and samples, named in the recipe line.
pub fn browser_weights(trainer: &Trainer, seconds: f64, curve: &[CurvePoint]) -> (Vec<u8>, Manifest) {
    let model = trainer.model();
    let bytes = gram_to_bytes(&model);
    let spec = &trainer.spec;
    let family = Family::of_gram_config(&spec.config).model_name().to_string();
    let task = spec.task.id();
    let manifest = Manifest {
        format_version: FORMAT_VERSION,
        name: format!("{family}-{task}-browser"),
        model: family.clone(),
        task: task.clone(),
        config: spec.config.clone(),
        params: model.num_params(),
        training_command: format!(
            "trained in a browser (the playground's /train page, engine::training::Trainer): {} steps of the {family}-{task} preset's recipe, batch {}, peak lr {}, seed {}",
            trainer.steps_taken(),
            spec.batch,
            spec.schedule.lr,
            trainer.seed
        ),
        data_seed: trainer.seed,
        train_steps: trainer.steps_taken(),
        train_seconds: (seconds * 10.0).round() / 10.0,
        eval: None,
        reference: None,
        sha256: sha256_hex(&bytes),
        bytes: bytes.len(),
        curve: Some(curve_csv(curve)),
    };
    (bytes, manifest)
}
