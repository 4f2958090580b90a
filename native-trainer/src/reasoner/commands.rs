//! `eval`, `solve` and `export` for the JEPA-Reasoner on tree route search (its split is the
//! generic `split`: the tree task implements the task interface).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use burn::module::Module;
use burn::tensor::Device;
use engine::reasoner::ReasonerModel;
use engine::tasks::tree::reasoner::{TreeEval, evaluate_trees, solve_trees};
use engine::tasks::tree::{self, TreeTask};
use engine::weights::reasoner::{ReasonerEvalRecord, ReasonerManifest, ReasonerReference, reasoner_to_bytes};
use engine::weights::{FORMAT_VERSION, sha256_hex};
use serde_json::json;

use crate::lines::answer_lines;
use crate::reasoner::train::{Phase, load_reasoner_checkpoint};
use crate::reasoner::weights::load_reasoner_weights as load;
use crate::run::lineage::program_relative;

/// Latent noise levels of the robustness curve (fractions of max |h|; the JEPA-Reasoner paper, 5.2.3).
pub const NOISE_LEVELS: [f64; 6] = [0.0, 0.05, 0.10, 0.15, 0.25, 0.50];

fn check_noise(noise: f64) -> Result<(), String> {
    if noise.is_finite() && (0.0..=1.0).contains(&noise) {
        Ok(())
    } else {
        Err(format!("--latent-noise is a fraction of max |h| between 0 and 1, not {noise}"))
    }
}

fn print_eval(e: &TreeEval) {
    println!("| route length | trees | exact match % |");
    println!("| --- | --- | --- |");
    for (l, n, x) in &e.by_length {
        println!("| {l} | {n} | {x:.2} |");
    }
    println!("| all | {} | {:.2} |", e.tasks, e.exact_match);
    println!(
        "mixed latents ({} route latents with a sibling): correct node is the major contributor {:.2}% (paper 99.89); \
         sibling plane rank among all vocabulary pairs: mean top {:.2}% (paper 1.72), closest plane {:.1}%; \
         mean sibling share |beta|/(|alpha|+|beta|) {:.3}; nearest vocabulary latent is the right token {:.2}%",
        e.sibling_latents, e.major_contributor, e.sibling_rank_pct, e.sibling_rank_first, e.mean_sibling_share, e.nearest_token
    );
}

pub fn eval(
    path: &Path,
    limit: Option<usize>,
    noise: f64,
    seed: u64,
    record: bool,
    command: &str,
    device: &Device,
) -> Result<ExitCode, String> {
    check_noise(noise)?;
    let (model, manifest) = load(path, device)?;
    let n = limit.unwrap_or(1000);
    let tasks = tree::test_set(n);
    let began = Instant::now();
    let e = evaluate_trees(&model, &tasks, noise, seed, device);
    println!("JEPA-Reasoner + Talker on tree/test: {n} held-out trees, latent noise {noise}, seed {seed}");
    print_eval(&e);
    let mut curve = Vec::new();
    for &sigma in &NOISE_LEVELS {
        let x = if sigma == noise { e.exact_match } else { evaluate_trees(&model, &tasks, sigma, seed, device).exact_match };
        curve.push((sigma, (x * 100.0).round() / 100.0));
    }
    println!(
        "latent noise (sigma / max|h|) -> exact match: {}",
        curve.iter().map(|(s, x)| format!("{:.0}% {x:.2}%", s * 100.0)).collect::<Vec<_>>().join(", ")
    );
    println!(
        "TABLE exact={:.2} major={:.2} sibling_rank_top={:.2} params={} time={:.1}s",
        e.exact_match,
        e.major_contributor,
        e.sibling_rank_pct,
        model.num_params(),
        began.elapsed().as_secs_f64()
    );
    if record {
        let mut m = manifest.ok_or("--record needs a .bpk weights file with a manifest")?;
        m.eval = Some(ReasonerEvalRecord { split: "tree/test".into(), eval: e, noise_curve: curve, command: command.into() });
        fs::write(path.with_extension("json"), m.to_json() + "\n").map_err(|e| e.to_string())?;
        eprintln!("recorded in {}", path.with_extension("json").display());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn solve(path: &Path, noise: f64, seed: u64, device: &Device) -> Result<ExitCode, String> {
    check_noise(noise)?;
    let (model, _) = load(path, device)?;
    answer_lines("input", |text| {
        let task = TreeTask::parse(text).map_err(|e| e.to_string())?;
        let a = solve_trees(&model, std::slice::from_ref(&task), noise, seed, device).remove(0);
        let route = a.route.clone().ok_or_else(|| {
            format!("the Talker wrote no route (tokens {})", a.tokens.iter().map(|&t| tree::token_name(t)).collect::<Vec<_>>().join(" "))
        })?;
        Ok(json!({ "route": route, "verified": a.correct(&task) }))
    })
}

/// The known output: routes for the first 8 test trees, and the first 8 components of the first
/// tree's first route latent.
pub fn reference(model: &ReasonerModel, device: &Device) -> ReasonerReference {
    let tasks = tree::test_set(8);
    let answers = solve_trees(model, &tasks, 0.0, 0, device);
    ReasonerReference {
        inputs: tasks.iter().map(|t| t.input_text()).collect(),
        routes: answers.iter().map(|a| a.route.clone()).collect(),
        first_latent: answers[0].latents[0][..8].to_vec(),
    }
}

pub fn export(run_dir: &Path, name: &str, out_dir: &Path, device: &Device) -> Result<ExitCode, String> {
    let (model, _, state) = load_reasoner_checkpoint(run_dir, device)?;
    if state.phase != Phase::Talker {
        return Err(format!(
            "{} is a {:?}-phase run; export the talker phase (reasoner-tree-talker), which holds all three",
            run_dir.display(),
            state.phase
        ));
    }
    let model = model.valid();
    let bytes = reasoner_to_bytes(&model);
    let mut commands: Vec<String> = state.history.iter().map(|h| h.0.clone()).collect();
    commands.push(state.command.clone());
    let mut steps: Vec<usize> = state.history.iter().map(|h| h.1).collect();
    steps.push(state.step);
    let seconds = state.history.iter().map(|h| h.2).sum::<f64>() + state.seconds;
    let manifest = ReasonerManifest {
        format_version: FORMAT_VERSION,
        name: name.into(),
        model: "jepa-reasoner".into(),
        task: "tree".into(),
        config: state.config.clone(),
        params: model.num_params(),
        training_commands: commands.iter().map(|c| program_relative(c)).collect(),
        data_seed: state.seed,
        train_steps: steps,
        train_seconds: (seconds * 10.0).round() / 10.0,
        eval: None,
        reference: Some(reference(&model, device)),
        sha256: sha256_hex(&bytes),
        bytes: bytes.len(),
    };
    let bpk = crate::run::shipped::write_weights(out_dir, name, &bytes, &manifest.to_json())?;
    println!("wrote {} ({} bytes, {} params, steps {:?})", bpk.display(), bytes.len(), manifest.params, manifest.train_steps);
    Ok(ExitCode::SUCCESS)
}

/// Run directory for `export --name reasoner-tree`: the talker phase's.
pub fn default_run_dir(name: &str) -> Option<PathBuf> {
    (name == "reasoner-tree").then(|| PathBuf::from("runs/reasoner-tree-talker"))
}
