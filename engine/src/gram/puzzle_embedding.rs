//! Puzzle-embedding positions (TRM's `puzzle_emb`, which the GRAM paper keeps for its ARC runs,
//! appendix D.2): P positions prepended to the board's L, holding a learned vector per puzzle
//! identifier. As in TRM, a puzzle's vector is `ndim` wide, zero-padded to P * D and laid over
//! the P positions (with TRM's default `ndim = D` only the first position carries it; the other
//! P - 1 are blank positions with their own RoPE angles and latent state). The table starts at
//! zero (TRM's `init_std=0`). Deviation: TRM trains the table with its own sparse SignSGD at a
//! higher learning rate; here it is one more parameter of the AdamW step.
//!
//! A row of `seq_len + 1` tokens starts with its puzzle id; a row of `seq_len` tokens reads
//! puzzle 0, which is what TRM's single-identifier sets (Sudoku, mazes) use for every row.

use burn::module::Module;
use burn::nn::{Embedding, EmbeddingConfig, Initializer};
use burn::tensor::{Device, Int, Tensor};

use super::GramConfig;

#[derive(Module, Debug)]
pub struct PuzzleEmbedding {
    /// `[n_puzzles, ndim]`
    table: Embedding,
    prefix: usize,
    ndim: usize,
    seq_len: usize,
    d_model: usize,
}

impl PuzzleEmbedding {
    /// The table `config` asks for; `None` without puzzle-embedding positions.
    pub fn init(config: &GramConfig, device: &Device) -> Option<Self> {
        let prefix = config.puzzle_prefix();
        (prefix > 0).then(|| {
            let ndim = config.puzzle_emb_ndim.unwrap_or(config.d_model);
            PuzzleEmbedding {
                table: EmbeddingConfig::new(config.n_puzzles.unwrap_or(1), ndim).with_initializer(Initializer::Zeros).init(device),
                prefix,
                ndim,
                seq_len: config.seq_len,
                d_model: config.d_model,
            }
        })
    }

    /// P, the positions before the board.
    pub fn prefix(&self) -> usize {
        self.prefix
    }

    /// Latent positions for rows of `width` tokens (with or without the leading id).
    pub fn latent_len(&self, width: usize) -> usize {
        self.prefix + self.board_len(width)
    }

    /// Board tokens in rows of `width` tokens (with or without the leading id).
    pub fn board_len(&self, width: usize) -> usize {
        assert!(
            width == self.seq_len || width == self.seq_len + 1,
            "a row has {width} tokens; this model reads {} (puzzle 0) or a puzzle id and {}",
            self.seq_len,
            self.seq_len
        );
        self.seq_len
    }

    /// The P positions' vectors and the board's tokens.
    /// # Shapes: x `[B, L]` or `[B, 1 + L]` -> (`[B, P, D]`, `[B, L]`), before the sqrt(D) scale.
    pub fn split(&self, x: Tensor<2, Int>) -> (Tensor<3>, Tensor<2, Int>) {
        let [b, width] = x.dims();
        let l = self.board_len(width);
        let (ids, tokens) = if width == l + 1 {
            (x.clone().slice([0..b, 0..1]), x.slice([0..b, 1..width]))
        } else {
            (Tensor::<2, Int>::zeros([b, 1], &x.device()), x)
        };
        let (p, d) = (self.prefix, self.d_model);
        let vectors = self.table.forward(ids).reshape([b, self.ndim]); // [B, ndim]
        let padded = match p * d - self.ndim {
            0 => vectors,
            pad => Tensor::cat(vec![vectors, Tensor::zeros([b, pad], &tokens.device())], 1),
        }; // [B, P * D]
        (padded.reshape([b, p, d]), tokens)
    }

    /// The board's positions of a latent state. # Shapes: `[B, P + L, D]` -> `[B, L, D]`.
    pub fn board(&self, h: Tensor<3>) -> Tensor<3> {
        let [b, n, d] = h.dims();
        h.slice([0..b, self.prefix..n, 0..d])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gram::Gram;
    use crate::transfer::ReadBack;
    use burn::tensor::TensorData;

    fn config() -> GramConfig {
        GramConfig::new(6, 5)
            .with_d_model(8)
            .with_n_heads(2)
            .with_d_hidden(16)
            .with_d_guidance(8)
            .with_puzzle_emb_len(Some(3))
            .with_puzzle_emb_ndim(Some(12))
            .with_n_puzzles(Some(4))
    }

    fn ints(v: Vec<i64>, shape: [usize; 2], device: &Device) -> Tensor<2, Int> {
        Tensor::from_data(TensorData::new(v, shape), device)
    }

    /// A puzzle's 12 numbers fill position 0 and half of position 1 (D = 8); the rest is zero;
    /// a row without an id reads puzzle 0.
    #[test]
    fn ids_pick_their_vectors_padded_over_the_prefix() {
        let device = Device::flex();
        let mut pe = PuzzleEmbedding::init(&config(), &device).unwrap();
        let table: Vec<f32> = (0..4 * 12).map(|i| i as f32 + 1.0).collect();
        pe.table.weight = burn::module::Param::from_tensor(Tensor::from_data(TensorData::new(table, [4, 12]), &device));
        let x = ints(vec![2, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1], [2, 7], &device);
        let (prefix, board) = pe.split(x);
        assert_eq!(prefix.dims(), [2, 3, 8]);
        assert_eq!(board.dims(), [2, 6]);
        let v: Vec<f32> = prefix.floats().unwrap();
        let row = |id: usize| -> Vec<f32> {
            let mut r: Vec<f32> = (0..12).map(|j| (id * 12 + j) as f32 + 1.0).collect();
            r.resize(24, 0.0);
            r
        };
        assert_eq!(&v[..24], &row(2)[..]);
        assert_eq!(&v[24..], &row(0)[..]);
        let (no_id, _) = pe.split(ints(vec![1; 6], [1, 6], &device));
        assert_eq!(no_id.floats().unwrap(), row(0));
        assert_eq!(pe.latent_len(7), 9);
        assert_eq!(pe.latent_len(6), 9);
    }

    /// The model carries P + L positions through the core and decodes L; a wrong width is refused.
    #[test]
    fn the_model_decodes_the_board_only() {
        let device = Device::flex();
        let model = Gram::init(&config(), &device);
        let e = model.encode(ints(vec![3, 1, 2, 1, 2, 1, 2], [1, 7], &device));
        assert_eq!(e.dims(), [1, 9, 8]);
        assert_eq!(model.initial_state(1, 7).h.dims(), [1, 9, 8]);
        assert_eq!(model.decode(e).dims(), [1, 6, 5]);
        let wrong = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| model.encode(ints(vec![1; 5], [1, 5], &device))));
        assert!(wrong.is_err());
    }

    /// The table is a trained parameter: the gradient reaches the rows of the ids used, only.
    #[test]
    fn the_gradient_reaches_the_used_rows() {
        let device = Device::flex().autodiff();
        let pe = PuzzleEmbedding::init(&config(), &device).unwrap();
        let (prefix, _) = pe.split(ints(vec![2, 1, 1, 1, 1, 1, 1], [1, 7], &device));
        let grads = (prefix * 3.0).sum().backward();
        let g: Vec<f32> = pe.table.weight.grad(&grads).unwrap().floats().unwrap();
        assert!(g[2 * 12..3 * 12].iter().all(|&v| v == 3.0), "{g:?}");
        assert!(g[..2 * 12].iter().chain(&g[3 * 12..]).all(|&v| v == 0.0), "{g:?}");
    }

    #[test]
    fn configs_that_cannot_hold_a_prefix_are_named() {
        assert!(config().problem().is_none());
        assert!(config().with_grid_cols(3).problem().unwrap().contains("1-D RoPE"));
        assert!(config().with_puzzle_emb_ndim(Some(25)).problem().unwrap().contains("1..=24"));
        assert!(config().with_n_puzzles(None).problem().unwrap().contains("n_puzzles"));
        assert_eq!(config().latent_len(), 9);
    }
}
