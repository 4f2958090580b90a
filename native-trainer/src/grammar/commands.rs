//! `grammar`, `solve --task grammar` (`cfg` is read as grammar), `eval` and `export` for the grammar study's weights (T, C, R
//! with both Talkers in one file; the JEPA-Reasoner paper, section 5.2).

use std::fs;
use std::path::Path;
use std::process::ExitCode;

use burn::module::Module;
use burn::tensor::Device;
use engine::studies::grammar::ceiling::ceiling_row;
use engine::studies::grammar::complete::{complete, instance_noise, offset};
use engine::studies::grammar::data::{GrammarVariant, WINDOW, completions, corrupt, parse_text, terminals_of, text, token_name};
use engine::studies::grammar::floor::floor_row;
use engine::studies::grammar::models::{GrammarModel, GrammarModels};
use engine::studies::grammar::sweep::{CORRUPTION, CorruptionRow, LATENT_NOISE, NoiseRow, STEPS, corruption_sweep, noise_sweep};
use engine::studies::grammar::{Chart, Symbol};
use engine::tasks::split::Part;
use engine::weights::grammar::{GrammarEvalRecord, GrammarManifest, GrammarReference, grammar_to_bytes};
use engine::weights::{FORMAT_VERSION, sha256_hex};
use serde_json::json;

use crate::grammar::presets::{PHASES, load_grammar_checkpoint};
use crate::grammar::weights::load_grammar_weights as load;
use crate::lines::answer_lines;
use crate::run::lineage::program_relative;

/// `grammar --weights W`: the grammar the models were trained on, as JSON.
pub fn grammar(path: &Path, device: &Device) -> Result<ExitCode, String> {
    let (_, config, _) = load(path, device)?;
    println!("{}", serde_json::to_string_pretty(&config.variant.grammar().to_json()).expect("JSON"));
    Ok(ExitCode::SUCCESS)
}

pub struct GrammarSolveArgs<'a> {
    pub weights: &'a Path,
    pub model: &'a str,
    pub corrupt: f64,
    pub latent_noise: f64,
    pub steps: usize,
    pub seed: u64,
}

fn check_fraction(name: &str, x: f64, max: f64) -> Result<(), String> {
    if x.is_finite() && (0.0..=max).contains(&x) { Ok(()) } else { Err(format!("{name} is a fraction between 0 and {max}, not {x}")) }
}

/// `solve --task grammar`: prefixes in, `{"input", "completion", "valid", ...}` out.
pub fn solve(a: GrammarSolveArgs, device: &Device) -> Result<ExitCode, String> {
    let model = GrammarModel::parse(a.model).ok_or_else(|| format!("--model is t, c, r or r-mono, not {:?}", a.model))?;
    check_fraction("--corrupt", a.corrupt, 1.0)?;
    check_fraction("--latent-noise", a.latent_noise, 1.0)?;
    if model == GrammarModel::T && a.latent_noise > 0.0 {
        return Err("--latent-noise: T writes tokens and has no latents to perturb (use c or r)".into());
    }
    let most = WINDOW - offset(model);
    if !(1..=most).contains(&a.steps) {
        return Err(format!("--steps is 1 to {most} for {}, not {}", model.name(), a.steps));
    }
    let (models, config, _) = load(a.weights, device)?;
    let g = config.variant.grammar();
    let longest = config.coupled.max_len - 2 * WINDOW;
    let mut line = 0usize;
    answer_lines("input", |input| {
        let prefix = parse_text(input, g.terminals())?;
        if prefix.is_empty() || prefix.len() > longest {
            return Err(format!("a prefix has 1 to {longest} terminals; this one has {}", prefix.len()));
        }
        let mut noise = instance_noise(a.seed ^ 0xc0_4447, line);
        line += 1;
        let (seen, flipped) = corrupt(&prefix, g.terminals(), a.corrupt, &mut noise);
        let written =
            complete(&models, model, std::slice::from_ref(&seen), a.steps, a.latent_noise, a.seed ^ line as u64, device).remove(0);
        let valid = (model != GrammarModel::C)
            .then(|| terminals_of(&written).is_some_and(|t| Chart::new(&g, &[prefix.clone(), t].concat()).accepts_prefix()));
        let mut out = json!({
            "completion": written.iter().map(|&t| token_name(t)).collect::<Vec<_>>(),
            "valid": valid,
            "prefix_valid": Chart::new(&g, &prefix).accepts_prefix(),
        });
        if a.corrupt > 0.0 {
            out["corrupted"] = text(&seen).into();
            out["corrupted_positions"] = json!(flipped.iter().map(|p| p + 1).collect::<Vec<_>>());
        }
        if model == GrammarModel::C {
            out["after_thoughts"] = json!(offset(model));
        }
        Ok(out)
    })
}

/// `ceiling`: the Bayes-optimal completion and the floor of a grammar variant at every corruption
/// level of `eval`, on the same completions and corruption draws `eval --part P --limit N --seed S`
/// scores; no weights.
pub fn ceiling(variant: &str, part: &str, limit: usize, seed: u64) -> Result<ExitCode, String> {
    let variant = GrammarVariant::parse(variant).ok_or_else(|| format!("--variant is short or paper, not {variant:?}"))?;
    let part = parse_part(part)?;
    if limit == 0 {
        return Err("--limit is at least 1".into());
    }
    let set = completions(variant, part, limit);
    let g = variant.grammar();
    println!(
        "{} grammar on cfg/{}: {limit} completions cut at {:?} terminals, corruption seed {seed}",
        variant.name(),
        part.name(),
        variant.cuts()
    );
    let rows: Vec<CorruptionRow> = CORRUPTION.iter().map(|&frac| ceiling_row(&g, &set, frac, seed)).collect();
    print_corruption(&rows);
    print_floor(&floor_row(variant, &g, &set));
    Ok(ExitCode::SUCCESS)
}

fn parse_part(part: &str) -> Result<Part, String> {
    match part {
        "test" => Ok(Part::Test),
        "validation" => Ok(Part::Validation),
        other => Err(format!("--part is test or validation for the grammar study, not {other:?}")),
    }
}

fn print_floor(floor: &CorruptionRow) {
    let a = floor.accuracy;
    println!(
        "\nfloor (reads no prefix: the training part's most frequent terminal at each position after the cut): k=1..4 {:.1} / {:.1} / {:.1} / {:.1}, all 4 right {:.1}%, valid {:.1}%",
        a[0], a[1], a[2], a[3], floor.exact, floor.valid
    );
}

fn print_tables(c: &[CorruptionRow], n: &[NoiseRow]) {
    print_corruption(c);
    print_noise(n);
}

fn print_corruption(c: &[CorruptionRow]) {
    println!(
        "token corruption (T vs R): accuracy % over the first k tokens (rel = % of the same model's clean accuracy); valid = 4-token completions the grammar accepts"
    );
    println!(
        "bayes = the ceiling: at each position the terminal most probable given the prefix read through the corruption channel, exact from the grammar"
    );
    println!("| corruption | model | k=1 | k=2 | k=3 | k=4 | rel k=4 | all 4 right % | valid % |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for r in c {
        let clean = c.iter().find(|x| x.model == r.model && x.corruption == 0.0).map_or(f64::NAN, |x| x.accuracy[STEPS - 1]);
        let a = r.accuracy;
        println!(
            "| {:.2} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
            r.corruption,
            r.model,
            a[0],
            a[1],
            a[2],
            a[3],
            100.0 * a[3] / clean,
            r.exact,
            r.valid
        );
    }
}

fn print_noise(n: &[NoiseRow]) {
    println!(
        "\nlatent noise (C vs R): accuracy % over the continuation's positions 5-8 (C: 4 thoughts then 4 tokens; R: 8 latents, Talker's last 4 tokens); valid = R's 8 tokens the grammar accepts"
    );
    println!("| sigma / max abs h | model | accuracy | valid % |");
    println!("| --- | --- | --- | --- |");
    for r in n {
        println!("| {:.2} | {} | {:.1} | {} |", r.sigma, r.model, r.accuracy, r.valid.map_or("-".into(), |v| format!("{v:.1}")));
    }
}

fn write_csv(path: &Path, c: &[CorruptionRow], n: &[NoiseRow]) -> Result<(), String> {
    let mut s = String::from("sweep,level,model,acc_k1,acc_k2,acc_k3,acc_k4,exact4,valid\n");
    for r in c {
        let a = r.accuracy;
        s += &format!(
            "corruption,{},{},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3}\n",
            r.corruption, r.model, a[0], a[1], a[2], a[3], r.exact, r.valid
        );
    }
    for r in n {
        s += &format!(
            "latent-noise,{},{},,,,{:.3},,{}\n",
            r.sigma,
            r.model,
            r.accuracy,
            r.valid.map_or(String::new(), |v| format!("{v:.3}"))
        );
    }
    fs::write(path, s).map_err(|e| format!("{}: {e}", path.display()))
}

/// What `eval` on grammar weights was asked.
pub struct GrammarEvalArgs<'a> {
    pub path: &'a Path,
    /// `test` or `validation`.
    pub part: &'a str,
    /// Completions scored (default 1,024).
    pub limit: Option<usize>,
    /// The sweeps' corruption and noise draws.
    pub seed: u64,
    /// Write the test figures into the manifest.
    pub record: bool,
    pub csv: Option<&'a Path>,
    pub command: &'a str,
}

/// `eval` on grammar weights: both sweeps on `limit` completions (default 1,024) of `part`.
pub fn eval(a: GrammarEvalArgs, device: &Device) -> Result<ExitCode, String> {
    let GrammarEvalArgs { path, part, limit, seed, record, csv, command } = a;
    let part = parse_part(part)?;
    let (models, config, manifest) = load(path, device)?;
    let n = limit.unwrap_or(1024);
    let set = completions(config.variant, part, n);
    let g = config.variant.grammar();
    println!(
        "grammar study ({} grammar, {} scale) on cfg/{}: {n} completions the models never trained on, seed {seed}",
        config.variant.name(),
        config.scale,
        part.name()
    );
    let c = corruption_sweep(&models, &g, &set, &[GrammarModel::T, GrammarModel::R, GrammarModel::RMono], &CORRUPTION, seed, device);
    let noise = noise_sweep(&models, &g, &set, &[GrammarModel::C, GrammarModel::R, GrammarModel::RMono], &LATENT_NOISE, seed, device);
    // Each level's models, then the ceiling on the same corrupted prefixes.
    let with_ceiling: Vec<CorruptionRow> = CORRUPTION
        .iter()
        .flat_map(|&frac| {
            let models = c.iter().filter(move |r| r.corruption == frac).cloned();
            models.chain(std::iter::once(ceiling_row(&g, &set, frac, seed)))
        })
        .collect();
    print_tables(&with_ceiling, &noise);
    print_floor(&floor_row(config.variant, &g, &set));
    if let Some(p) = csv {
        write_csv(p, &with_ceiling, &noise)?;
        eprintln!("wrote {}", p.display());
    }
    if record {
        if part != Part::Test {
            return Err("--record writes test figures; run it with --part test".into());
        }
        let mut m = manifest.ok_or("--record needs a .bpk weights file with a manifest")?;
        m.eval = Some(GrammarEvalRecord { split: "cfg/test".into(), completions: n, corruption: c, noise, command: command.into() });
        fs::write(path.with_extension("json"), m.to_json() + "\n").map_err(|e| e.to_string())?;
        eprintln!("recorded in {}", path.with_extension("json").display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The known output: each model's 4 tokens for the first 8 test prefixes.
pub fn reference(models: &GrammarModels, variant: engine::studies::grammar::data::GrammarVariant, device: &Device) -> GrammarReference {
    let set = completions(variant, Part::Test, 8);
    let prefixes: Vec<Vec<Symbol>> = set.iter().map(|c| c.prefix().to_vec()).collect();
    let completions = [GrammarModel::T, GrammarModel::C, GrammarModel::R, GrammarModel::RMono]
        .into_iter()
        .map(|m| {
            let w = complete(models, m, &prefixes, 4, 0.0, 0, device);
            (m.name().to_string(), w.iter().map(|t| t.iter().map(|&x| token_name(x)).collect::<Vec<_>>().join(" ")).collect())
        })
        .collect();
    GrammarReference { inputs: prefixes.iter().map(|p| text(p)).collect(), completions }
}

pub fn export(run_dir: &Path, name: &str, out_dir: &Path, device: &Device) -> Result<ExitCode, String> {
    let (models, _, state) = load_grammar_checkpoint(run_dir, device)?;
    if state.phase < PHASES.len() {
        return Err(format!(
            "{} is in phase {} of 6 ({}); export a finished run",
            run_dir.display(),
            state.phase + 1,
            PHASES[state.phase].name()
        ));
    }
    let models = models.valid();
    let bytes = grammar_to_bytes(&models);
    let manifest = GrammarManifest {
        format_version: FORMAT_VERSION,
        name: name.into(),
        model: "cfg-models".into(),
        task: "cfg".into(),
        config: state.config.clone(),
        params: models.num_params(),
        phases: state.lineage_phases().iter().map(|(p, s, t)| (p.clone(), *s, (t * 10.0).round() / 10.0)).collect(),
        training_command: program_relative(&state.lineage()),
        data_seed: state.seed,
        train_seconds: (state.lineage_phases().iter().map(|p| p.2).sum::<f64>() * 10.0).round() / 10.0,
        eval: None,
        reference: Some(reference(&models, state.config.variant, device)),
        sha256: sha256_hex(&bytes),
        bytes: bytes.len(),
    };
    let bpk = crate::run::shipped::write_weights(out_dir, name, &bytes, &manifest.to_json())?;
    println!("wrote {} ({} bytes, {} params, phases {:?})", bpk.display(), bytes.len(), manifest.params, state.steps);
    Ok(ExitCode::SUCCESS)
}
