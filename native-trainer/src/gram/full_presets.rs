//! The papers' full-size GRAM/TRM recipes (the GRAM paper, appendix D), for a desktop GPU: D = 512,
//! 8 heads, SwiGLU hidden 512, 2 layers, K = 6 (Sudoku) or 4, T = 3, N_sup = 16, batch 768,
//! AdamW lr 1e-4 with weight decay 1.0 and clipping at 1.0, weight EMA 0.9999, KL balance 0.8,
//! beta from Table 8. The browser-sized presets (`presets.rs`) stay the ones we ship; these are
//! what `train --preset <name>-full --backend wgpu` runs for a researcher, with `--batch`,
//! `--grad-accum`, `--d-model`, `--k-inner`, `--t-outer` and `--n-sup` to fit a smaller GPU.
//!
//! Where the paper is silent or ours differs (docs/training.md, "Full-size presets on a GPU"):
//! - steps: Table 7 gives epochs; a preset's steps are epochs x training inputs / 768 on our
//!   splits (N-Queens 8x8: 3K x 4,015; 10x10: 1K x 33,290; colouring 8: 5K x 6,673; 10: 5K x
//!   12,577), and for Sudoku TRM's Sudoku-Extreme-1k count (50K x 1,000 puzzles / 768), the data
//!   `data import --format sudoku-csv` brings in;
//! - warm-up: 2,000 steps (the paper gives none), then the trainer's cosine decay;
//! - the guidance heads' hidden width: 512, the FFN's (the paper says "SwiGLU MLP" only);
//! - the Sudoku mixer's token-mixing width stays the engine's 2 x 81 (graph colouring takes the
//!   paper's attention core, not the shipped models' mixer); N-Queens keeps the 2-D RoPE
//!   of the shipped models; puzzle-embedding positions for ARC only (the paper's use: 16
//!   positions, one D-wide vector per puzzle as TRM's default `puzzle_emb_ndim`), with 1-D RoPE
//!   over them and the canvas;
//! - ARC's steps and table size come from the import (`fit_to_arc_import`): 200K epochs (Table
//!   7) over its training pairs / 768, and one puzzle vector per task. TRM's epochs run over
//!   1,000 augmented copies of each puzzle, which `data import` does not make;
//! - beta is Table 8's on our loss's scale, which the paper does not pin down (`GramConfig::beta`
//!   says what 0.07 did on N-Queens at our scale): pass `--beta` to tune it on validation.

use std::sync::OnceLock;

use engine::gram::GramConfig;
use engine::studies::arc;
use engine::tasks::TaskId;
use engine::tasks::recipe::recipe_of;
use engine::tasks::registry::ALL;

use crate::gram::recipe::Preset;

/// Every full-size preset: each task of the registry whose recipe has the paper's full size
/// (`gram-<task>-full`, `trm-<task>-full`), then ARC's. Built once.
pub fn full_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let tasks = ALL.into_iter().filter(|&t| recipe_of(t).is_some_and(|r| r.full.is_some()));
        let ids: Vec<String> = tasks.map(TaskId::id).chain(["arc".to_string()]).collect();
        ids.iter().flat_map(|id| ["gram", "trm"].map(|family| &*Box::leak(format!("{family}-{id}-full").into_boxed_str()))).collect()
    })
}

/// Table 7's ARC epochs.
pub const ARC_EPOCHS: usize = 200_000;

/// The paper's global batch (8 GPUs).
pub const PAPER_BATCH: usize = 768;

/// Steps of `epochs` passes over `inputs` training inputs at the paper's batch, rounded up.
pub const fn paper_steps(epochs: usize, inputs: usize) -> usize {
    (epochs * inputs).div_ceil(PAPER_BATCH)
}

/// Appendix D's network on top of a task's own (its vocabulary, length): the mixer core for
/// Sudoku only, attention for the rest (the shipped colouring models use the mixer).
fn paper_config(task: GramConfig, mixer: bool, k_inner: usize, beta: f64) -> GramConfig {
    task.with_mixer(mixer)
        .with_d_model(512)
        .with_n_heads(8)
        .with_d_hidden(512)
        .with_d_guidance(512)
        .with_n_layers(2)
        .with_k_inner(k_inner)
        .with_t_outer(3)
        .with_n_sup(16)
        .with_kl_balance(0.8)
        .with_beta(beta)
}

pub fn full_preset(name: &str) -> Option<Preset> {
    let name = full_names().iter().find(|&&p| p == name).copied()?;
    let guidance = name.starts_with("gram-");
    let task_name = name.trim_start_matches("gram-").trim_start_matches("trm-").trim_end_matches("-full");
    if task_name == "arc" {
        // Table 8: beta 0.04 on ARC-1 (0.1 on ARC-2: `--beta 0.1`). One puzzle id and no steps
        // until `fit_to_arc_import` reads the import.
        let config = paper_config(arc::paper_input_config(guidance, 1), false, 4, 0.04);
        return Some(Preset {
            name,
            task: None,
            config,
            batch: PAPER_BATCH,
            lr: 1e-4,
            warmup: 2000,
            weight_decay: 1.0,
            steps: 0,
            ema: 0.9999,
            grad_accum: 1,
        });
    }
    // The task's own full size (engine::tasks::recipe::FullSize) on its shipped network's
    // vocabulary and length.
    let task = TaskId::parse(task_name).ok()?;
    let r = recipe_of(task)?;
    let full = r.full?;
    let config = paper_config(r.config.with_guidance(guidance), full.mixer, full.k_inner, full.beta);
    let steps = paper_steps(full.epochs, full.train_inputs);
    Some(Preset {
        name,
        task: Some(task),
        config,
        batch: PAPER_BATCH,
        lr: 1e-4,
        warmup: 2000,
        weight_decay: 1.0,
        steps,
        ema: 0.9999,
        grad_accum: 1,
    })
}

/// An ARC preset with puzzle-embedding positions sized to an `arc` import: one puzzle vector
/// per id (largest id + 1) and, unless `steps` was set, Table 7's 200K epochs over the import's
/// training pairs at batch 768. Other presets come back as they were.
pub fn fit_to_arc_import(mut p: Preset, largest_id: u32, train_pairs: usize) -> Preset {
    if p.task.is_none() && p.config.puzzle_prefix() > 0 {
        p.config.n_puzzles = Some(largest_id as usize + 1);
        if p.steps == 0 {
            p.steps = paper_steps(ARC_EPOCHS, train_pairs);
        }
    }
    p
}

/// The command line's changes to a preset's size (`train --d-model/--d-hidden/--d-token-hidden/
/// --k-inner/--t-outer/--n-sup/--batch/--grad-accum`), checked: heads must divide D,
/// micro-batches must divide the batch. The MLP widths may also widen `--init-from` weights.
#[derive(Clone, Copy, Debug, Default)]
pub struct SizeOverrides {
    pub d_model: Option<usize>,
    pub d_hidden: Option<usize>,
    pub d_token_hidden: Option<usize>,
    pub k_inner: Option<usize>,
    pub t_outer: Option<usize>,
    pub n_sup: Option<usize>,
    pub batch: Option<usize>,
    pub grad_accum: Option<usize>,
}

impl SizeOverrides {
    pub fn any(&self) -> bool {
        self.changes_model()
            || self.d_hidden.is_some()
            || self.d_token_hidden.is_some()
            || self.batch.is_some()
            || self.grad_accum.is_some()
    }

    /// The model-shape part that `--init-from` weights fix (their MLPs may widen; a resumed run
    /// keeps every size).
    pub fn changes_model(&self) -> bool {
        self.d_model.is_some() || self.k_inner.is_some() || self.t_outer.is_some() || self.n_sup.is_some()
    }

    pub fn apply(&self, mut p: Preset) -> Result<Preset, String> {
        let at_least_one = |flag: &str, v: Option<usize>| match v {
            Some(0) => Err(format!("{flag} must be at least 1")),
            _ => Ok(()),
        };
        for (flag, v) in [
            ("--d-model", self.d_model),
            ("--d-hidden", self.d_hidden),
            ("--d-token-hidden", self.d_token_hidden),
            ("--k-inner", self.k_inner),
            ("--t-outer", self.t_outer),
            ("--n-sup", self.n_sup),
            ("--batch", self.batch),
            ("--grad-accum", self.grad_accum),
        ] {
            at_least_one(flag, v)?;
        }
        if let Some(d) = self.d_model {
            if d % p.config.n_heads != 0 {
                return Err(format!("--d-model {d} is not a multiple of {}'s {} attention heads", p.name, p.config.n_heads));
            }
            p.config.d_model = d;
        }
        if self.d_token_hidden.is_some() && !p.config.mixer {
            return Err(format!("--d-token-hidden sizes the mixer core's token MLP; {} has an attention core", p.name));
        }
        p.config.d_hidden = self.d_hidden.unwrap_or(p.config.d_hidden);
        p.config.d_token_hidden = self.d_token_hidden.unwrap_or(p.config.d_token_hidden);
        p.config.k_inner = self.k_inner.unwrap_or(p.config.k_inner);
        p.config.t_outer = self.t_outer.unwrap_or(p.config.t_outer);
        p.config.n_sup = self.n_sup.unwrap_or(p.config.n_sup);
        p.batch = self.batch.unwrap_or(p.batch);
        p.grad_accum = self.grad_accum.unwrap_or(p.grad_accum);
        if !p.batch.is_multiple_of(p.grad_accum) {
            return Err(format!("--grad-accum {} does not divide the batch {} into equal micro-batches", p.grad_accum, p.batch));
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_presets_are_appendix_d_and_each_trm_has_its_gram_s_recipe() {
        for &name in full_names() {
            let p = crate::gram::presets::preset(name).unwrap_or_else(|| panic!("{name} is not reachable through preset()"));
            let c = &p.config;
            assert_eq!((c.d_model, c.n_heads, c.d_hidden, c.n_layers, c.t_outer, c.n_sup), (512, 8, 512, 2, 3, 16), "{name}");
            assert_eq!(c.k_inner, if p.task == Some(TaskId::Sudoku) { 6 } else { 4 }, "{name}");
            assert_eq!(c.mixer, p.task == Some(TaskId::Sudoku), "{name}: the mixer core for Sudoku only");
            assert_eq!((p.batch, p.lr, p.weight_decay, p.ema, c.kl_balance), (768, 1e-4, 1.0, 0.9999, 0.8), "{name}");
            assert_eq!(c.guidance, name.starts_with("gram-"));
            if let Some(rest) = name.strip_prefix("trm-") {
                let gram = full_preset(&format!("gram-{rest}")).unwrap();
                assert_eq!((p.steps, p.batch, p.task), (gram.steps, gram.batch, gram.task), "{name}");
            }
        }
        assert_eq!(full_preset("gram-sudoku-full").unwrap().steps, 65_105);
        assert!(full_preset("gram-nqueens8").is_none());
    }

    /// ARC: 16 puzzle positions over a 1-D RoPE, beta 0.04; the import sizes the table and
    /// the steps (200K epochs over its training pairs at 768), unless steps were given.
    #[test]
    fn the_arc_presets_take_their_table_and_steps_from_the_import() {
        let p = full_preset("gram-arc-full").unwrap();
        let c = &p.config;
        assert_eq!((c.puzzle_emb_len, c.grid_cols, c.seq_len, c.vocab, c.beta, p.task), (Some(16), 0, 900, 12, 0.04, None));
        let fitted = fit_to_arc_import(p.clone(), 800, 2_600);
        assert_eq!((fitted.config.n_puzzles, fitted.steps), (Some(801), 677_084));
        assert!(fitted.config.problem().is_none());
        let given = fit_to_arc_import(Preset { steps: 10, ..p }, 3, 5);
        assert_eq!((given.config.n_puzzles, given.steps), (Some(4), 10));
        let tiny = crate::gram::presets::preset("gram-arc-tiny").unwrap();
        assert_eq!(fit_to_arc_import(tiny.clone(), 3, 5).config, tiny.config, "no puzzle positions: unchanged");
    }

    #[test]
    fn overrides_resize_a_preset_and_refuse_what_cannot_run() {
        let p = full_preset("gram-nqueens8-full").unwrap();
        let small = SizeOverrides {
            d_model: Some(64),
            d_hidden: None,
            d_token_hidden: None,
            k_inner: Some(2),
            t_outer: Some(2),
            n_sup: Some(4),
            batch: Some(32),
            grad_accum: Some(4),
        }
        .apply(p.clone())
        .unwrap();
        assert_eq!(
            (small.config.d_model, small.config.k_inner, small.config.t_outer, small.config.n_sup, small.batch, small.grad_accum),
            (64, 2, 2, 4, 32, 4)
        );
        let err = SizeOverrides { d_model: Some(100), ..Default::default() }.apply(p.clone()).unwrap_err();
        assert!(err.contains("multiple of") && err.contains("8 attention heads"), "{err}");
        let err = SizeOverrides { grad_accum: Some(5), ..Default::default() }.apply(p.clone()).unwrap_err();
        assert!(err.contains("768"), "{err}");
        assert!(SizeOverrides { batch: Some(0), ..Default::default() }.apply(p).unwrap_err().contains("--batch must be at least 1"));
    }
}
