//! The tree task's side of the worker: loading the JEPA-Reasoner + Talker weights and answering
//! `/tree`'s route searches with the engine's [`reason_and_explain`] (what `native-trainer record`
//! answers the page's recorded question with).

use std::cell::RefCell;
use std::rc::Rc;

use burn::tensor::Device;
use engine::reasoner::ReasonerModel;
use engine::tasks::tree::TreeTask;
use engine::tasks::tree::reasoner::reason_and_explain;
use engine::weights::reasoner::{ReasonerManifest, load_reasoner};

use super::manifest::{ModelManifest, manifest};
use super::{State, WEIGHTS_PATH, fetch_bytes, now};
use crate::protocol::{Response, TreeReport, TreeRequest};

/// Loads JEPA weights once. They run on burn-flex whatever the page's backend: the Reasoner is
/// small (about 1M parameters, a route is five short passes) and the analysis reads every latent
/// back at once, which the engine does with the synchronous read only the CPU backend offers.
pub(super) async fn ensure_tree(
    state: &Rc<RefCell<State>>,
    name: &str,
    manifest: &ReasonerManifest,
    respond: &dyn Fn(Response),
) -> Result<Rc<ReasonerModel>, String> {
    if let Some(m) = state.borrow().trees.get(name) {
        return Ok(m.clone());
    }
    let base = format!("{}{WEIGHTS_PATH}", state.borrow().site_root);
    let progress = |loaded, total| respond(Response::LoadProgress { model: name.into(), loaded, total });
    let bytes = fetch_bytes(&format!("{base}/{name}.bpk"), manifest.bytes as u64, &progress).await?;
    let model = load_reasoner(manifest, &bytes, &Device::flex()).map_err(|e| format!("{name}.bpk: {e}"))?;
    let summary = match &manifest.eval {
        Some(e) => format!(
            "{:.2} M parameters; held-out trees ({}): exact match {:.2}%, correct node the major contributor {:.2}%",
            manifest.params as f64 / 1e6,
            e.eval.tasks,
            e.eval.exact_match,
            e.eval.major_contributor
        ),
        None => format!("{:.2} M parameters", manifest.params as f64 / 1e6),
    };
    respond(Response::Loaded { model: name.into(), summary });
    let model = Rc::new(model);
    state.borrow_mut().trees.insert(name.into(), model.clone());
    Ok(model)
}

pub(super) async fn reason(state: &Rc<RefCell<State>>, req: TreeRequest, respond: &dyn Fn(Response)) -> Result<(), String> {
    let model = match manifest(state, &req.model).await? {
        ModelManifest::Tree(m) => ensure_tree(state, &req.model, &m, respond).await?,
        other => return Err(format!("{} holds {} weights, not a JEPA-Reasoner model", req.model, other.family())),
    };
    if !(req.noise.is_finite() && (0.0..=1.0).contains(&req.noise)) {
        return Err(format!("latent noise must be between 0 and 1, not {}", req.noise));
    }
    let task = TreeTask::parse(&req.input).map_err(|e| format!("bad tree: {e}"))?;
    if !state.borrow().is_current(req.run) {
        return Ok(());
    }
    let t0 = now();
    let explanation = reason_and_explain(&model, &task, req.noise, req.seed, &Device::flex());
    respond(Response::Reasoned(TreeReport { run: req.run, explanation, millis: now() - t0 }));
    Ok(())
}
