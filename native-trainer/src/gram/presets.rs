//! Named training recipes, browser-sized (the papers' full size: `full_presets.rs`). A preset
//! fixes the task, the model config and the optimiser; the command line can lengthen it
//! (`--steps`) and, on a fresh run, resize it (`--d-model`, `--batch`, ...: `SizeOverrides`), and
//! a weights file's manifest records the config and the command, so anyone can rerun it.

use std::sync::OnceLock;

use engine::studies::arc;
use engine::tasks::TaskId;
use engine::tasks::recipe::{recipe_of, variants_of};
use engine::tasks::registry::known;

pub use crate::gram::recipe::Preset;

/// Every browser-size GRAM/TRM preset: each task of the registry's pair (`gram-<task>`,
/// `trm-<task>`, made from the task's own recipe), after it each of the task's variants
/// (`-mixer` for N-Queens, `-attn` for graph colouring: `engine::tasks::Variant`), and ARC's
/// smoke test. Built once.
pub fn names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = Vec::new();
        for task in known().filter(|&t| recipe_of(t).is_some()) {
            let variants = std::iter::once(task.id()).chain(variants_of(task).into_iter().map(|v| format!("{}-{}", task.id(), v.suffix)));
            for v in variants {
                names.extend(["gram", "trm"].map(|family| &*Box::leak(format!("{family}-{v}").into_boxed_str())));
            }
        }
        names.push("gram-arc-tiny");
        names
    })
}

/// Every GRAM/TRM preset's optimiser: lr 1e-3 after 200 warm-up steps (cosine to 1e-4), AdamW
/// weight decay 0.1; the preset fixes the rest.
fn recipe(name: &'static str, task: Option<TaskId>, config: engine::gram::GramConfig, batch: usize, steps: usize) -> Preset {
    use engine::training::trainer::{LR, WARMUP, WEIGHT_DECAY};
    Preset { name, task, config, batch, lr: LR, warmup: WARMUP, weight_decay: WEIGHT_DECAY, steps, ema: 0.0, grad_accum: 1 }
}

pub fn preset(name: &str) -> Option<Preset> {
    let Some(&name) = names().iter().find(|&&p| p == name) else {
        return crate::gram::full_presets::full_preset(name);
    };
    if name == "gram-arc-tiny" {
        // ARC's 900-token canvas at a CPU's scale (engine::studies::arc::gram_config), a smoke
        // test of the representation on an import (`--data`), not a recipe that solves ARC.
        return Some(Preset { steps: 1000, ..recipe(name, None, arc::gram_config(true), 4, 0) });
    }
    let guidance = name.starts_with("gram-");
    let task_name = name.trim_start_matches("gram-").trim_start_matches("trm-");
    // A task's variant: another network, the same task and recipe.
    for task in known() {
        if let Some(v) = variants_of(task).into_iter().find(|v| task_name == format!("{}-{}", task.id(), v.suffix)) {
            return Some(recipe(name, Some(task), v.config.with_guidance(guidance), v.batch, v.steps));
        }
    }
    // The task's own recipe: GRAM's network, TRM's the same without guidance, with GRAM's batch
    // and steps (the equal-compute pair of the GRAM paper's Figure 4).
    let task = TaskId::parse(task_name).ok()?;
    let r = recipe_of(task)?;
    Some(recipe(name, Some(task), r.config.with_guidance(guidance), r.batch, r.steps))
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::tasks::registry::ALL;

    #[test]
    fn every_name_is_a_preset_and_each_trm_has_its_gram_s_budget() {
        for &name in names() {
            let p = preset(name).unwrap_or_else(|| panic!("{name} is listed but not a preset"));
            assert_eq!(p.name, name);
            if let Some(rest) = name.strip_prefix("trm-") {
                let gram = preset(&format!("gram-{rest}")).unwrap();
                assert!(!p.config.guidance && gram.config.guidance, "{name}");
                assert_eq!(
                    (p.steps, p.batch, p.lr, p.weight_decay, p.task),
                    (gram.steps, gram.batch, gram.lr, gram.weight_decay, gram.task),
                    "{name}"
                );
            }
        }
        assert!(preset("trm-sudoku").is_some() && preset("hrm-sudoku").is_none());
    }

    /// The variants' presets are the networks they always were: N-Queens' mixer (10x10 trains
    /// 8,000 steps), colouring's attention core at the task's batch and steps.
    #[test]
    fn the_variants_are_the_mixer_and_attention_pairs() {
        use engine::tasks::{coloring, nqueens};
        for n in [8, 10] {
            for (family, guidance) in [("gram", true), ("trm", false)] {
                let p = preset(&format!("{family}-nqueens{n}-mixer")).unwrap();
                assert_eq!(p.config, nqueens::gram_mixer_config(n, guidance));
                assert_eq!((p.batch, p.steps, p.task), (64, if n == 10 { 8000 } else { 4000 }, Some(TaskId::NQueens(n))));
                let p = preset(&format!("{family}-coloring{n}-attn")).unwrap();
                assert_eq!(p.config, coloring::gram_attention_config(n, guidance));
                assert_eq!((p.batch, p.steps, p.task), (64, 10_000, Some(TaskId::Coloring(n))));
            }
        }
        assert!(preset("gram-sudoku-attn").is_none() && preset("gram-nqueens8-attn").is_none());
    }

    /// What adding a task asks of the trainer (docs/ARCHITECTURE.md, "Adding a task"), walked
    /// over every task of the engine's registry: a GRAM/TRM task has its preset pair, made from
    /// its recipe (and its full-size pair where the paper has the run); the tree task has the
    /// JEPA-Reasoner's.
    #[test]
    fn every_registered_task_has_its_presets() {
        for task in ALL {
            let Some(r) = recipe_of(task) else {
                assert_eq!(task, TaskId::Tree);
                assert!(crate::reasoner::presets::REASONER_NAMES.iter().all(|n| n.starts_with(&format!("reasoner-{}", task.id()))));
                continue;
            };
            for (family, guidance) in [("gram", true), ("trm", false)] {
                let p = preset(&format!("{family}-{}", task.id())).unwrap_or_else(|| panic!("{family}-{} is no preset", task.id()));
                assert_eq!((p.task, p.config.guidance, p.batch, p.steps), (Some(task), guidance, r.batch, r.steps));
                let full = preset(&format!("{family}-{}-full", task.id()));
                assert_eq!(full.is_some(), r.full.is_some(), "{}", task.id());
            }
        }
    }
}
