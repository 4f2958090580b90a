//! Named training recipes, browser-sized (the papers' full size: `full_presets.rs`). A preset
//! fixes the task, the model config and the optimiser; the command line can lengthen it
//! (`--steps`) and, on a fresh run, resize it (`--d-model`, `--batch`, ...: `SizeOverrides`), and
//! a weights file's manifest records the config and the command, so anyone can rerun it.

use engine::gram::GramConfig;
use engine::tasks::TaskId;
use engine::tasks::{arc, coloring, digits, nqueens, sudoku};

pub use crate::recipe::Preset;

pub const NAMES: [&str; 21] = [
    "gram-nqueens8",
    "trm-nqueens8",
    "gram-nqueens8-mixer",
    "trm-nqueens8-mixer",
    "gram-nqueens10",
    "trm-nqueens10",
    "gram-nqueens10-mixer",
    "trm-nqueens10-mixer",
    "gram-sudoku",
    "trm-sudoku",
    "gram-coloring8",
    "trm-coloring8",
    "gram-coloring10",
    "trm-coloring10",
    "gram-nqueens8-boards",
    "trm-nqueens8-boards",
    "gram-sudoku-grids",
    "trm-sudoku-grids",
    "gram-digits",
    "trm-digits",
    "gram-arc-tiny",
];

/// Every GRAM/TRM preset's optimiser: lr 1e-3 after 200 warm-up steps (cosine to 1e-4), AdamW
/// weight decay 0.1; the preset fixes the rest.
fn recipe(name: &str, task: TaskId, config: GramConfig, batch: usize, steps: usize) -> Option<Preset> {
    let name = NAMES.iter().find(|&&p| p == name).copied()?;
    Some(Preset { name, task: Some(task), config, batch, lr: 1e-3, warmup: 200, weight_decay: 0.1, steps, ema: 0.0, grad_accum: 1 })
}

pub fn preset(name: &str) -> Option<Preset> {
    if name == "gram-arc-tiny" {
        // ARC's 900-token canvas at a CPU's scale (engine::tasks::arc::gram_config), a smoke
        // test of the representation on an import (`--data`), not a recipe that solves ARC.
        let config = arc::gram_config(true);
        return Some(Preset { name: "gram-arc-tiny", task: None, config, batch: 4, lr: 1e-3, warmup: 200, weight_decay: 0.1, steps: 1000, ema: 0.0, grad_accum: 1 });
    }
    if let Some(guidance) = match name {
        "gram-sudoku" => Some(true),
        "trm-sudoku" => Some(false),
        _ => None,
    } {
        // Batch 32 (not 64): a Sudoku supervision step costs T(K+1) = 14 passes of the mixer.
        // TRM trains with GRAM's recipe, steps and batch: the equal-compute pair of the GRAM paper's
        // Figure 4.
        return recipe(name, TaskId::Sudoku, sudoku::gram_config(guidance), 32, 5500);
    }
    if let Some((guidance, n)) = match name {
        "gram-coloring8" => Some((true, 8)),
        "trm-coloring8" => Some((false, 8)),
        "gram-coloring10" => Some((true, 10)),
        "trm-coloring10" => Some((false, 10)),
        _ => None,
    } {
        // GRAM and TRM of one size train with the same steps and batch: equal compute per
        // optimiser step count (a TRM step is cheaper: no prior or posterior heads).
        return recipe(name, TaskId::Coloring(n), coloring::gram_config(n, guidance), 64, 10_000);
    }
    if let Some(guidance) = match name {
        "gram-nqueens8-boards" => Some(true),
        "trm-nqueens8-boards" => Some(false),
        _ => None,
    } {
        // p(x) (the GRAM paper, section 3.3): the shipped 8x8 pair's network and recipe, the empty
        // board in, one of the 92 solutions out; TRM with GRAM's budget shows the collapse.
        return recipe(name, TaskId::QueensBoards(8), nqueens::gram_mixer_config(8, guidance), 64, 2000);
    }
    if let Some(guidance) = match name {
        "gram-sudoku-grids" => Some(true),
        "trm-sudoku-grids" => Some(false),
        _ => None,
    } {
        // p(x) on Sudoku grids: the shipped Sudoku pair's network and batch, the empty grid in,
        // one of 20,000 random full grids out; TRM with GRAM's budget shows the collapse.
        return recipe(name, TaskId::SudokuGrids, sudoku::gram_config(guidance), 32, 2000);
    }
    if let Some(guidance) = match name {
        "gram-digits" => Some(true),
        "trm-digits" => Some(false),
        _ => None,
    } {
        // p(x) on MNIST (the GRAM paper, section 3.3): the blank image in, a train digit out; the
        // image path with 7x7 patches (engine::tasks::digits::gram_config). TRM with GRAM's
        // budget shows the collapse (Table 2).
        return recipe(name, TaskId::Digits, digits::gram_config(guidance), 64, 3000);
    }
    let (guidance, n, mixer) = match name {
        "gram-nqueens8" => (true, 8, false),
        "trm-nqueens8" => (false, 8, false),
        "gram-nqueens8-mixer" => (true, 8, true),
        "trm-nqueens8-mixer" => (false, 8, true),
        "gram-nqueens10" => (true, 10, false),
        "trm-nqueens10" => (false, 10, false),
        "gram-nqueens10-mixer" => (true, 10, true),
        "trm-nqueens10-mixer" => (false, 10, true),
        _ => return crate::full_presets::full_preset(name),
    };
    let config = if mixer { nqueens::gram_mixer_config(n, guidance) } else { nqueens::gram_config(n, guidance) };
    // 10x10: the shipped pair's 8,000 steps each (its GRAM was still climbing at 4,000).
    recipe(name, TaskId::NQueens(n), config, 64, if n == 10 && mixer { 8000 } else { 4000 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_a_preset_and_each_trm_has_its_gram_s_budget() {
        for name in NAMES {
            let p = preset(name).unwrap_or_else(|| panic!("{name} is listed but not a preset"));
            assert_eq!(p.name, name);
            if let Some(rest) = name.strip_prefix("trm-") {
                let gram = preset(&format!("gram-{rest}")).unwrap();
                assert!(!p.config.guidance && gram.config.guidance, "{name}");
                assert_eq!((p.steps, p.batch, p.lr, p.weight_decay, p.task), (gram.steps, gram.batch, gram.lr, gram.weight_decay, gram.task), "{name}");
            }
        }
        assert!(preset("trm-sudoku").is_some() && preset("hrm-sudoku").is_none());
    }
}
