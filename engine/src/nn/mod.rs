//! Neural building blocks shared by every model: attention with RoPE, the SwiGLU MLP, and the
//! 2-layer post-norm transformer block GRAM and TRM recurse with.

pub mod attention;
pub mod block;
pub mod swiglu;

pub use attention::{Attention, AttentionConfig};
pub use block::{Block, BlockConfig};
pub use swiglu::{SwiGluMlp, SwiGluMlpConfig};
