//! `convert`'s flags for weights that are not ours (`--from`): an official TinyRecursiveModels
//! checkpoint's config, which its file does not hold (`engine::weights::trm_import`).

use clap::{Args, ValueEnum};
use engine::weights::trm_import::TrmImportOptions;

/// What `--weights` is when it is not ours (`--from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConvertFrom {
    /// An official TinyRecursiveModels checkpoint, saved as SafeTensors.
    Trm,
}

/// `convert --from trm`'s flags: TRM's config that its checkpoint does not hold.
#[derive(Args, Debug)]
pub struct TrmArgs {
    /// TRM's num_heads (8 in its trm.yaml). Required with --from trm.
    #[arg(long, requires = "from")]
    pub n_heads: Option<usize>,
    /// TRM's seq_len: board tokens, without the puzzle-embedding positions. Required with --from trm.
    #[arg(long, requires = "from")]
    pub seq_len: Option<usize>,
    /// TRM's puzzle_emb_len (default 16; 0: ceil(puzzle_emb_ndim / D), as TRM).
    #[arg(long, requires = "from")]
    pub puzzle_emb_len: Option<usize>,
    /// TRM's H_cycles, our T (default 3).
    #[arg(long, requires = "from")]
    pub h_cycles: Option<usize>,
    /// TRM's L_cycles, our K (default 6).
    #[arg(long, requires = "from")]
    pub l_cycles: Option<usize>,
    /// TRM's halt_max_steps, our N_sup (default 16).
    #[arg(long, requires = "from")]
    pub n_sup: Option<usize>,
}

impl TrmArgs {
    /// The importer's options: the flags given, TRM's defaults for the rest.
    pub fn options(&self) -> Result<TrmImportOptions, String> {
        let (Some(n_heads), Some(seq_len)) = (self.n_heads, self.seq_len) else {
            return Err("convert --from trm needs --n-heads and --seq-len: a TRM checkpoint holds neither (TRM's num_heads and seq_len, e.g. 8 and 900 for ARC-AGI)".into());
        };
        let d = TrmImportOptions::new(n_heads, seq_len);
        Ok(TrmImportOptions {
            puzzle_emb_len: self.puzzle_emb_len.unwrap_or(d.puzzle_emb_len),
            h_cycles: self.h_cycles.unwrap_or(d.h_cycles),
            l_cycles: self.l_cycles.unwrap_or(d.l_cycles),
            n_sup: self.n_sup.unwrap_or(d.n_sup),
            ..d
        })
    }
}
