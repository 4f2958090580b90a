//! The GRAM/TRM model config sized for ARC's canvas: attention over the 900 positions with
//! (row, column) RoPE on the 30-wide canvas, as the paper's Transformer core (appendix D.2), at
//! a width a CPU can step through (D = 32, not 512), without puzzle-embedding positions; and the
//! paper's input layout with them (`paper_input_config`), which the trainer's full-size ARC
//! presets widen to appendix D's network.

use super::{SIDE, TOKENS, VOCAB};
use crate::gram::GramConfig;

/// Appendix D.2's ARC input at the paper's layout, before the network's size (the trainer's
/// full-size preset sets D, K, T): the 900-token canvas with 1-D RoPE (the paper's) over 16
/// puzzle-embedding positions and the canvas, one learned vector per puzzle identifier.
/// `n_puzzles` is the import's largest id + 1 (ids start at 1; 0 is TRM's blank id).
pub fn paper_input_config(guidance: bool, n_puzzles: usize) -> GramConfig {
    GramConfig::new(TOKENS, VOCAB).with_guidance(guidance).with_puzzle_emb_len(Some(PUZZLE_POSITIONS)).with_n_puzzles(Some(n_puzzles))
}

/// Puzzle-embedding positions before the canvas (appendix D.1: 16, after HRM and TRM).
pub const PUZZLE_POSITIONS: usize = 16;

/// A tiny canvas model: one block of D = 32, K = 2, T = 2, N_sup = 4.
pub fn gram_config(guidance: bool) -> GramConfig {
    GramConfig::new(TOKENS, VOCAB)
        .with_guidance(guidance)
        .with_grid_cols(SIDE)
        .with_d_model(32)
        .with_n_heads(2)
        .with_d_hidden(64)
        .with_d_guidance(32)
        .with_n_layers(1)
        .with_k_inner(2)
        .with_t_outer(2)
        .with_n_sup(4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gram::loss::supervision_step;
    use crate::gram::noise::NoiseSource;
    use crate::gram::{Gram, SupervisionBatch};
    use crate::studies::arc::dataset::examples;
    use crate::studies::arc::json::parse_tasks;
    use crate::tasks::split::Part;
    use burn::tensor::{Device, Int, Tensor, TensorData};

    /// The canvas fits the engine's model as it is: a supervision step on two imported pairs
    /// decodes 900 tokens per row with a finite loss.
    #[test]
    fn a_supervision_step_runs_on_the_canvas() {
        let text =
            r#"{"train": [{"input": [[1, 2], [3, 4]], "output": [[4, 3], [2, 1]]}, {"input": [[5]], "output": [[6, 6]]}], "test": []}"#;
        let tasks = parse_tasks(text, "t", 1).unwrap();
        let pairs = examples(&tasks, Part::Train);
        let config = gram_config(true);
        let device = Device::flex().autodiff();
        let model = Gram::init(&config, &device);
        let tokens = |f: &dyn Fn(&crate::studies::arc::ArcExample) -> &Vec<u32>| {
            let flat: Vec<i64> = pairs.iter().flat_map(|e| f(e).iter().map(|&t| t as i64)).collect();
            Tensor::<2, Int>::from_data(TensorData::new(flat, [2, TOKENS]), &device)
        };
        let (x, y) = (tokens(&|e| &e.x), tokens(&|e| &e.y));
        let mut source = NoiseSource::new(1);
        let z = model.start_state(2, TOKENS, &mut source);
        let out = supervision_step(&model, &config, SupervisionBatch { x, y, z }, &|_, _| 0.0, &mut source);
        assert!(out.loss.into_scalar::<f32>().is_finite());
        assert_eq!((out.predictions.len(), out.predictions[0].len()), (2, TOKENS));
    }
}
