//! `solve --task regex`, `eval` and `export` for the regex task's language models:
//! descriptions in, regexes out; exact and semantic accuracy on held-out meanings; the
//! ablation over several runs (mean and spread per preset); the LLM-JEPA paper's representation finding
//! (how well a linear map of the code's embedding predicts the text's).

use std::fs;
use std::path::Path;
use std::process::ExitCode;

use burn::module::Module;
use burn::tensor::Device;
use engine::lm::probe::probe_views;
use engine::reasoner::analysis::Pca;
use engine::studies::regex::model::{LAYOUT, Objective, RegexModel, example, write_regexes};
use engine::studies::regex::score::{Score, score_model};
use engine::studies::regex::{Pair, pairs};
use engine::tasks::split::{Part, spread};
use engine::weights::regex::{RegexEvalRecord, RegexManifest, regex_to_bytes};
use engine::weights::{FORMAT_VERSION, sha256_hex};
use serde_json::json;

use crate::lines::answer_lines;
use crate::lm::presets::load_lm_checkpoint;
use crate::lm::weights::load_regex_weights as load;
use crate::run::lineage::program_relative;

/// Training pairs the probe is fitted on.
const PROBE_FIT: usize = 2_000;

/// `solve --task regex`: descriptions in, `{"input", "regex"}` out.
pub fn solve(path: &Path, device: &Device) -> Result<ExitCode, String> {
    let (model, config, _, _) = load(path, device)?;
    let k = config.objective.k();
    answer_lines("input", |line| {
        let written = write_regexes(&model.lm, &[line], k, device).remove(0)?;
        Ok(json!({ "regex": written }))
    })
}

/// One run's figures on a part.
pub struct RegexEval {
    pub preset: String,
    pub weights: String,
    pub score: Score,
    /// R^2 of text ~ W code + b (fit on training pairs, scored on the part).
    pub r2: f64,
    pub cosine: f64,
    /// `probe::spread` of the text embeddings (0: collapsed to one vector).
    pub spread: f64,
}

fn part_of(name: &str) -> Result<Part, String> {
    match name {
        "test" => Ok(Part::Test),
        "validation" => Ok(Part::Validation),
        other => Err(format!("--part is test or validation for regex weights, not {other:?}")),
    }
}

fn measure(model: &RegexModel, k: usize, set: &[Pair], device: &Device) -> (Score, [f64; 3], [Vec<Vec<f32>>; 2]) {
    let s = score_model(&model.lm, set, k, device);
    let ex = |ps: &[Pair]| ps.iter().map(|p| example(&p.description, &p.regex).expect("task pairs tokenize")).collect::<Vec<_>>();
    let p = probe_views(&model.lm, &ex(&spread(&pairs(Part::Train), PROBE_FIT)), &ex(set), &LAYOUT, k, device);
    (s, [p.r2, p.cosine, p.spread], [p.text, p.code])
}

/// `eval` on one or more regex weights (`.bpk` or run directories).
pub fn eval_many(
    paths: &[std::path::PathBuf],
    part: &str,
    record: bool,
    csv: Option<&Path>,
    command: &str,
    device: &Device,
) -> Result<ExitCode, String> {
    let part = part_of(part)?;
    let set = pairs(part);
    let meanings = set.iter().map(|p| p.regex.as_str()).collect::<std::collections::HashSet<_>>().len();
    println!("regex/{}: {} descriptions of {meanings} meanings no model trained on; greedy decoding", part.name(), set.len());
    println!(
        "(arithmetic weights: {} held-out chains of arith/{}, the final digit right in both accuracy columns)",
        super::arith::CHAINS,
        part.name()
    );
    println!("| weights | preset | semantic % | exact % | malformed % | R^2 text ~ W code | cos(text, code) | spread of text |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let mut rows = Vec::new();
    let mut last_views = None;
    for path in paths {
        let (model, config, preset, manifest) = load(path, device)?;
        let preset = label(preset, &config.objective);
        let weights = path.display().to_string();
        if preset.starts_with("arith-") {
            let (s, by, [r2, cos, spread]) = super::arith::measure(&model, config.objective.k(), part, device);
            println!(
                "| {weights} | {preset} | {:.2} (2-5 operations: {:.1} / {:.1} / {:.1} / {:.1}) | {:.2} | - | {r2:.3} | {cos:.3} | {spread:.3} |",
                100.0 * s.semantic,
                100.0 * by[0],
                100.0 * by[1],
                100.0 * by[2],
                100.0 * by[3],
                100.0 * s.exact
            );
            rows.push(RegexEval { preset, weights, score: s, r2, cosine: cos, spread });
            continue;
        }
        let (s, [r2, cos, spread], views) = measure(&model, config.objective.k(), &set, device);
        println!(
            "| {weights} | {preset} | {:.2} | {:.2} | {:.2} | {r2:.3} | {cos:.3} | {spread:.3} |",
            100.0 * s.semantic,
            100.0 * s.exact,
            100.0 * s.malformed
        );
        if record {
            if part != Part::Test || paths.len() > 1 {
                return Err("--record writes the test figures of one .bpk; run it with --part test and one --weights".into());
            }
            let mut m = manifest.ok_or("--record needs a .bpk weights file with a manifest")?;
            m.eval = Some(RegexEvalRecord { split: "regex/test".into(), score: s.clone(), command: command.into() });
            fs::write(path.with_extension("json"), m.to_json() + "\n").map_err(|e| e.to_string())?;
            eprintln!("recorded in {}", path.with_extension("json").display());
        }
        last_views = Some(views);
        rows.push(RegexEval { preset, weights, score: s, r2, cosine: cos, spread });
    }
    if rows.len() > 1 {
        print!("{}", ablation_table(&rows));
    }
    if let Some(p) = csv {
        write_csv(p, &rows)?;
        if let (1, Some(views)) = (rows.len(), last_views) {
            write_projection(&p.with_extension("projection.csv"), &set, &views)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The preset's name, with the JEPA term's settings when a run changed them (`--jepa-lambda`,
/// `--pred-tokens`), so the ablation table keeps such runs apart.
fn label(preset: String, objective: &Objective) -> String {
    let default = crate::lm::presets::lm_preset(&preset).map(|p| p.config.objective);
    match objective {
        o if default.as_ref() == Some(o) => preset,
        Objective::LlmJepa(j) => format!("{preset} (lambda {}, k {})", j.lambda, j.k),
        Objective::TJepa(t) => format!("{preset} (lambda {})", t.lambda),
        Objective::Lm => preset,
    }
}

fn mean_sd(xs: &[f64], digits: usize) -> String {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let sd = if xs.len() > 1 { (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt() } else { 0.0 };
    format!("{mean:.digits$} ± {sd:.digits$}")
}

/// One row per preset, in first-seen order: mean ± sample standard deviation over its runs.
pub fn ablation_table(rows: &[RegexEval]) -> String {
    let mut presets: Vec<&str> = Vec::new();
    for r in rows {
        if !presets.contains(&r.preset.as_str()) {
            presets.push(&r.preset);
        }
    }
    let mut s = String::from(
        "\nAblation (mean ± sd over runs):\n| preset | runs | semantic % | exact % | R^2 text ~ W code | cos(text, code) | spread of text |\n| --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for p in presets {
        let of: Vec<&RegexEval> = rows.iter().filter(|r| r.preset == p).collect();
        let col = |f: &dyn Fn(&RegexEval) -> f64, digits| mean_sd(&of.iter().map(|r| f(r)).collect::<Vec<_>>(), digits);
        s += &format!(
            "| {p} | {} | {} | {} | {} | {} | {} |\n",
            of.len(),
            col(&|r| 100.0 * r.score.semantic, 2),
            col(&|r| 100.0 * r.score.exact, 2),
            col(&|r| r.r2, 3),
            col(&|r| r.cosine, 3),
            col(&|r| r.spread, 4)
        );
    }
    s
}

fn write_csv(path: &Path, rows: &[RegexEval]) -> Result<(), String> {
    let mut s = String::from("weights,preset,n,semantic,exact,malformed,r2,cosine,spread\n");
    for r in rows {
        s += &format!(
            "{},{},{},{:.5},{:.5},{:.5},{:.5},{:.5},{:.6}\n",
            r.weights, r.preset, r.score.n, r.score.semantic, r.score.exact, r.score.malformed, r.r2, r.cosine, r.spread
        );
    }
    fs::write(path, s).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// Both views of every pair on one PCA plane (fitted on both together).
fn write_projection(path: &Path, set: &[Pair], views: &[Vec<Vec<f32>>; 2]) -> Result<(), String> {
    let all: Vec<Vec<f32>> = views[0].iter().chain(&views[1]).cloned().collect();
    let pca = Pca::fit(&all);
    let mut s = String::from("view,pair,family,x,y\n");
    for (name, v) in ["text", "code"].iter().zip(views) {
        for (i, (p, e)) in set.iter().zip(v).enumerate() {
            let (x, y) = pca.project(e);
            let family = format!("{:?}", p.meaning).split('(').next().unwrap_or_default().to_string();
            s += &format!("{name},{i},{family},{x:.4},{y:.4}\n");
        }
    }
    fs::write(path, s).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// The known output: the regexes for the first 8 test descriptions.
fn reference(model: &RegexModel, k: usize, device: &Device) -> Vec<(String, String)> {
    let set: Vec<Pair> = pairs(Part::Test).into_iter().take(8).collect();
    let ds: Vec<&str> = set.iter().map(|p| p.description.as_str()).collect();
    ds.iter().zip(write_regexes(&model.lm, &ds, k, device)).map(|(d, r)| (d.to_string(), r.unwrap_or_default())).collect()
}

pub fn export(run_dir: &Path, name: &str, out_dir: &Path, device: &Device) -> Result<ExitCode, String> {
    let (model, _, _, state) = load_lm_checkpoint(run_dir, device, device)?;
    // T-decoder-JEPA's predictor stays in the file (the config builds it); answers use the LM alone.
    let model = model.valid();
    let config = state.config.clone();
    let bytes = regex_to_bytes(&model);
    let manifest = RegexManifest {
        format_version: FORMAT_VERSION,
        name: name.into(),
        model: "regex-lm".into(),
        task: "regex".into(),
        config,
        preset: state.preset.clone(),
        params: model.num_params(),
        steps: state.step,
        training_command: program_relative(&state.command),
        data_seed: state.seed,
        train_seconds: (state.seconds * 10.0).round() / 10.0,
        eval: None,
        reference: Some(reference(&model, state.config.objective.k(), device)),
        sha256: sha256_hex(&bytes),
        bytes: bytes.len(),
    };
    let bpk = crate::run::shipped::write_weights(out_dir, name, &bytes, &manifest.to_json())?;
    println!("wrote {} ({} bytes, {} params, step {})", bpk.display(), bytes.len(), manifest.params, state.step);
    Ok(ExitCode::SUCCESS)
}
