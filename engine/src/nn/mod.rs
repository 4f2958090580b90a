//! Neural building blocks shared by every model: attention with (1-D or grid) RoPE, the SwiGLU MLP, and the
//! 2-layer post-norm transformer block GRAM and TRM recurse with, and its MLP-mixer variant for Sudoku;
//! the weights' exponential moving average used in training; the image path's patch encoder.

pub mod attention;
pub mod block;
pub mod ema;
pub mod fresh;
pub mod mixer;
pub mod patches;
pub mod rope;
pub mod swiglu;
pub mod swiglu_op;

pub use attention::{Attention, AttentionConfig};
pub use block::{Block, BlockConfig};
pub use ema::ema_update;
pub use mixer::{MixerBlock, MixerBlockConfig};
pub use patches::{PatchEmbed, PatchEncoder};
pub use rope::{Rope, RopeConfig};
pub use swiglu::{SwiGluMlp, SwiGluMlpConfig};
