//! The grammar study's side of the worker: loading the T/C/R weights (on burn-flex, as the tree
//! Reasoner: small models, many short passes, every result read back at once) and answering
//! `/grammar`'s requests with the engine's [`explore`] and [`curve_point`] (as `native-trainer
//! record` records the page's default request: `engine::studies::grammar::recorded`).

use std::cell::RefCell;
use std::rc::Rc;

use burn::tensor::Device;
use engine::studies::grammar::explore::{DRAWS, check_levels, curve_point, explore, held_out};
use engine::studies::grammar::models::GrammarModels;
use engine::studies::grammar::sweep::CORRUPTION;
use engine::weights::grammar::{GrammarManifest, load_grammar};

use super::manifest::{ModelManifest, manifest};
use super::{State, WEIGHTS_PATH, fetch_bytes, now};
use crate::protocol::{GrammarReport, GrammarRequest, Response};

pub(super) async fn ensure_grammar(
    state: &Rc<RefCell<State>>,
    name: &str,
    manifest: &GrammarManifest,
    respond: &dyn Fn(Response),
) -> Result<Rc<(GrammarModels, GrammarManifest)>, String> {
    if let Some(m) = state.borrow().grammars.get(name) {
        return Ok(m.clone());
    }
    let base = format!("{}{WEIGHTS_PATH}", state.borrow().site_root);
    let progress = |loaded, total| respond(Response::LoadProgress { model: name.into(), loaded, total });
    let bytes = fetch_bytes(&format!("{base}/{name}.bpk"), manifest.bytes as u64, &progress).await?;
    let models = load_grammar(manifest, &bytes, &Device::flex()).map_err(|e| format!("{name}.bpk: {e}"))?;
    let summary = match &manifest.eval {
        Some(e) => {
            let clean = |m: &str| e.corruption.iter().find(|r| r.model == m && r.corruption == 0.0).map_or(f64::NAN, |r| r.accuracy[3]);
            format!(
                "{:.2} M parameters (T, C, R and two Talkers); {} held-out completions: 4-token accuracy T {:.1}%, R {:.1}%",
                manifest.params as f64 / 1e6,
                e.completions,
                clean("t"),
                clean("r")
            )
        }
        None => format!("{:.2} M parameters", manifest.params as f64 / 1e6),
    };
    respond(Response::Loaded { model: name.into(), summary });
    let loaded = Rc::new((models, manifest.clone()));
    state.borrow_mut().grammars.insert(name.into(), loaded.clone());
    Ok(loaded)
}

pub(super) async fn explore_request(state: &Rc<RefCell<State>>, req: GrammarRequest, respond: &dyn Fn(Response)) -> Result<(), String> {
    let loaded = match manifest(state, &req.model).await? {
        ModelManifest::Grammar(m) => ensure_grammar(state, &req.model, &m, respond).await?,
        other => return Err(format!("{} holds {} weights, not a grammar-study model", req.model, other.family())),
    };
    check_levels(req.corrupt, req.noise)?;
    if !state.borrow().is_current(req.run) {
        return Ok(());
    }
    let t0 = now();
    let (models, manifest) = (&loaded.0, &loaded.1);
    let variant = manifest.config.variant;
    let instance = held_out(variant, req.sequence);
    let grammar = variant.grammar();
    let view = explore(models, &grammar, &instance, req.corrupt, req.noise, req.seed, DRAWS, &Device::flex());
    respond(Response::Explored(GrammarReport { run: req.run, view, millis: now() - t0 }));
    // The curve, a level at a time, yielding between levels so a newer request stops it.
    for &frac in &CORRUPTION {
        super::turn::next_turn().await;
        if !state.borrow().is_current(req.run) {
            return Ok(());
        }
        let point = curve_point(models, &grammar, &instance, frac, req.seed, DRAWS, &Device::flex());
        respond(Response::CurvePoint { run: req.run, point });
    }
    Ok(())
}
