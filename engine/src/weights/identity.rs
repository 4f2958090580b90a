//! What a weights file is, decided from its manifest alone and in one place: the model family
//! (the manifest's `model`) and the task. For GRAM/TRM the task is the manifest's `task`, which
//! the config's shapes must fit ([`TaskId::of_weights`]); a manifest naming a task its weights
//! cannot be is refused with both named. `native-trainer` and the browser's worker both ask here.

use serde_json::Value;

use super::{Manifest, WeightsError};
use crate::gram::GramConfig;
use crate::tasks::TaskId;

/// The families of weights the playground ships and trains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// GRAM: the generative recursive reasoner.
    Gram,
    /// TRM: the deterministic recursive reasoner (GRAM's core without its noise).
    Trm,
    /// The JEPA-Reasoner with its Talker, on trees.
    JepaReasoner,
    /// The grammar study's models.
    Grammar,
    /// The language models of the JEPA objectives study (regex, arithmetic).
    RegexLm,
}

impl Family {
    pub const ALL: [Family; 5] = [Family::Gram, Family::Trm, Family::JepaReasoner, Family::Grammar, Family::RegexLm];

    /// The manifest's `model` value for this family.
    pub fn model_name(self) -> &'static str {
        match self {
            Family::Gram => "gram",
            Family::Trm => "trm",
            Family::JepaReasoner => "jepa-reasoner",
            Family::Grammar => "cfg-models",
            Family::RegexLm => "regex-lm",
        }
    }

    pub fn of_model_name(model: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.model_name() == model)
    }

    /// GRAM or TRM, as a GRAM/TRM config says: TRM is the core without the guidance heads.
    pub fn of_gram_config(config: &GramConfig) -> Family {
        if config.guidance { Family::Gram } else { Family::Trm }
    }

    /// GRAM and TRM share one model type and one manifest.
    pub fn is_gram_or_trm(self) -> bool {
        matches!(self, Family::Gram | Family::Trm)
    }
}

/// What a manifest says its weights are.
#[derive(Clone, Debug, PartialEq)]
pub struct Identity {
    pub family: Family,
    /// The task, for the families that solve a registered task (GRAM, TRM, the JEPA-Reasoner);
    /// `None` for the studies, whose `task` field names their own data.
    pub task: Option<TaskId>,
    /// The manifest's `task` as written.
    pub task_name: String,
}

/// Reads a manifest's family and task; a manifest of no known family, or a GRAM/TRM manifest
/// whose task its config does not fit, is an error that says so.
pub fn identify(manifest_json: &str) -> Result<Identity, WeightsError> {
    let value: Value = serde_json::from_str(manifest_json).map_err(|e| WeightsError::Manifest(e.to_string()))?;
    let family = family(&value)?;
    let task_name = value["task"].as_str().unwrap_or_default().to_string();
    let task = match family {
        Family::Gram | Family::Trm => Some(named_task(&Manifest::from_json(manifest_json)?)?),
        Family::JepaReasoner => Some(TaskId::Tree),
        Family::Grammar | Family::RegexLm => None,
    };
    Ok(Identity { family, task, task_name })
}

/// The family a manifest's `model` names, and nothing more: what a reader of every family asks
/// first, before it reads the family's own manifest (the browser's worker).
pub fn family_of(manifest_json: &str) -> Result<Family, WeightsError> {
    let value: Value = serde_json::from_str(manifest_json).map_err(|e| WeightsError::Manifest(e.to_string()))?;
    family(&value)
}

/// A GRAM/TRM manifest, parsed once, and its task: what every GRAM/TRM loader reads. Another
/// family's manifest, or one whose task its config does not fit, is an error that says so.
pub fn gram_manifest(manifest_json: &str) -> Result<(Manifest, TaskId), WeightsError> {
    let value: Value = serde_json::from_str(manifest_json).map_err(|e| WeightsError::Manifest(e.to_string()))?;
    let family = family(&value)?;
    if !family.is_gram_or_trm() {
        return Err(WeightsError::Mismatch(format!("the manifest says {} weights, not GRAM/TRM", family.model_name())));
    }
    let manifest = Manifest::from_json(manifest_json)?;
    let task = named_task(&manifest)?;
    Ok((manifest, task))
}

/// The family a parsed manifest's `model` names.
fn family(manifest: &Value) -> Result<Family, WeightsError> {
    let model = manifest["model"].as_str().ok_or_else(|| WeightsError::Manifest("the manifest has no `model` field".into()))?;
    Family::of_model_name(model).ok_or_else(|| {
        let known: Vec<&str> = Family::ALL.iter().map(|f| f.model_name()).collect();
        WeightsError::Manifest(format!("unknown model {model:?}; known: {}", known.join(", ")))
    })
}

/// A GRAM/TRM manifest's task, which its config's shapes must fit.
fn named_task(manifest: &Manifest) -> Result<TaskId, WeightsError> {
    TaskId::of_weights(&manifest.config, Some(&manifest.task)).map_err(|e| WeightsError::Manifest(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shipped weights file is what its name says, read from its manifest alone.
    #[test]
    fn every_shipped_manifest_names_its_family_and_task() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../public/weights");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
            let id = identify(&std::fs::read_to_string(&path).unwrap()).unwrap_or_else(|e| panic!("{stem}: {e}"));
            let family = match stem.split('-').next().unwrap() {
                "gram" => Family::Gram,
                "trm" => Family::Trm,
                "reasoner" => Family::JepaReasoner,
                "cfg" => Family::Grammar,
                "regex" => Family::RegexLm,
                other => panic!("{stem}: no family is called {other}"),
            };
            assert_eq!(id.family, family, "{stem}");
            if family.is_gram_or_trm() {
                let task = stem.split_once('-').unwrap().1;
                assert_eq!(id.task.map(|t| t.id()).as_deref(), Some(task), "{stem}");
            }
            seen += 1;
        }
        assert!(seen >= 20, "{seen} manifests");
    }

    /// A copy of the N-Queens weights whose manifest says Sudoku is refused, both named; so is a
    /// manifest of no known family.
    #[test]
    fn a_manifest_its_weights_cannot_be_is_refused() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../public/weights/gram-nqueens8.json");
        let text = std::fs::read_to_string(path).unwrap().replace("\"task\": \"nqueens8\"", "\"task\": \"sudoku\"");
        assert!(text.contains("\"task\": \"sudoku\""));
        let err = identify(&text).unwrap_err().to_string();
        assert!(err.contains("sudoku") && err.contains("nqueens8's"), "{err}");
        let err = identify(&text.replace("\"model\": \"gram\"", "\"model\": \"gpt\"")).unwrap_err().to_string();
        assert!(err.contains("gpt") && err.contains("jepa-reasoner"), "{err}");
        assert_eq!(gram_manifest(&text).unwrap_err(), identify(&text).unwrap_err());
        let tree = std::fs::read_to_string(path.replace("gram-nqueens8", "reasoner-tree")).unwrap();
        assert!(gram_manifest(&tree).unwrap_err().to_string().contains("jepa-reasoner weights, not GRAM/TRM"));
    }
}
