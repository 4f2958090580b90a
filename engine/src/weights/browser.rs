//! Weights trained in a browser, as files `native-trainer` reads: the `.bpk` and its manifest
//! (the task, the recipe, the seed, the steps and seconds, "trained in a browser", the curve the
//! page drew), named `<gram|trm>-<task>-browser`.

use burn::module::Module;

use super::identity::Family;
use super::{FORMAT_VERSION, Manifest, gram_to_bytes, sha256_hex};
use crate::training::curve::{CurveRun, curve_csv};

/// The run's weights (their average where kept) and their manifest, with its training seconds
/// and its curve.
pub fn browser_weights(run: &CurveRun) -> (Vec<u8>, Manifest) {
    let CurveRun { trainer, curve, seconds, .. } = run;
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
