//! A model's manifest, fetched once per worker and read once: its family decided by the
//! engine's reader (`weights::identity`), then the family's own manifest read and kept, so the
//! page's Load and every request after it use the same one.

use std::cell::RefCell;
use std::rc::Rc;

use engine::tasks::TaskId;
use engine::weights::Manifest;
use engine::weights::grammar::GrammarManifest;
use engine::weights::identity::{Family, family_of, gram_manifest};
use engine::weights::reasoner::ReasonerManifest;
use engine::weights::regex::RegexManifest;

use super::{State, WEIGHTS_PATH, fetch_bytes};

/// A manifest the worker can load weights by.
#[derive(Clone)]
pub(super) enum ModelManifest {
    /// GRAM or TRM weights, with the task their manifest names.
    Gram(Rc<Manifest>, TaskId),
    /// The JEPA-Reasoner with its Talker (`/tree`).
    Tree(Rc<ReasonerManifest>),
    /// The grammar study's T, C and R (`/grammar`).
    Grammar(Rc<GrammarManifest>),
    /// A language model of `/jepa`'s regex study (its "start from the end of training").
    Regex(Rc<RegexManifest>),
}

impl ModelManifest {
    /// The family in the words an error shows.
    pub(super) fn family(&self) -> &'static str {
        match self {
            ModelManifest::Gram(..) => "GRAM/TRM",
            ModelManifest::Tree(_) => "JEPA-Reasoner",
            ModelManifest::Grammar(_) => "grammar-study",
            ModelManifest::Regex(_) => "regex language-model",
        }
    }
}

/// `name`'s manifest: from the worker's cache, else fetched and read (once).
pub(super) async fn manifest(state: &Rc<RefCell<State>>, name: &str) -> Result<ModelManifest, String> {
    let cached = state.borrow().manifests.get(name).cloned();
    if let Some(m) = cached {
        return Ok(m);
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(format!("unknown model {name:?}"));
    }
    let base = format!("{}{WEIGHTS_PATH}", state.borrow().site_root);
    let bytes = fetch_bytes(&format!("{base}/{name}.json"), 0, &|_, _| {}).await?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{name}.json is not text"))?;
    let read = read(&text).map_err(|e| format!("{name}.json: {e}"))?;
    state.borrow_mut().manifests.insert(name.into(), read.clone());
    Ok(read)
}

fn read(text: &str) -> Result<ModelManifest, String> {
    let text_err = |e: engine::weights::WeightsError| e.to_string();
    Ok(match family_of(text).map_err(text_err)? {
        Family::Gram | Family::Trm => {
            // The task as the command line decides it: one its config does not fit is refused
            // here, before the weights are fetched.
            let (manifest, task) = gram_manifest(text).map_err(text_err)?;
            ModelManifest::Gram(Rc::new(manifest), task)
        }
        Family::JepaReasoner => ModelManifest::Tree(Rc::new(ReasonerManifest::from_json(text).map_err(text_err)?)),
        Family::Grammar => ModelManifest::Grammar(Rc::new(GrammarManifest::from_json(text).map_err(text_err)?)),
        Family::RegexLm => ModelManifest::Regex(Rc::new(RegexManifest::from_json(text).map_err(text_err)?)),
    })
}
