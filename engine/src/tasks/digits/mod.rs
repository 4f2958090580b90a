//! Generation, p(x), on images (the GRAM paper, section 3.3 and appendix D.1): binarized MNIST digits
//! from a constant input, the all-black image. The pixels are the tokens (vocabulary 3: pad,
//! black, white); the model reads and writes them through the image path's patch encoder and
//! unpatchify decoder (`nn::patches`). Scored by IS and FID on a small classifier ([`report`]).
//!
//! Like the boards of `tasks::boards`, p(x) has one input: every part of the split holds it,
//! with that part's real digits as its targets (train) or as the reference FID compares with.

pub mod classifier;
pub mod data;
mod error;
mod model;
pub mod quality;
pub mod report;
mod task;

pub use classifier::Classifier;
pub use data::{Digit, DigitError};
pub use error::DigitsError;
pub use model::gram_config;
pub use report::DigitsReport;
pub use task::{DigitSet, Digits};

/// Image side.
pub const SIDE: usize = 28;
/// Pixels (tokens) per digit.
pub const PIXELS: usize = SIDE * SIDE;
/// Vocabulary: 0 pad, 1 black, 2 white (the GRAM paper, appendix D.2).
pub const VOCAB: usize = 3;
pub const BLACK: u32 = 1;
pub const WHITE: u32 = 2;

/// The committed classifier IS and FID are measured with (`classifier.rs`), when compiled in.
#[cfg(feature = "digits-data")]
pub fn embedded_classifier() -> Option<&'static Classifier> {
    use std::sync::OnceLock;
    static CLASSIFIER: OnceLock<Option<Classifier>> = OnceLock::new();
    CLASSIFIER
        .get_or_init(|| {
            let bytes: &[u8] = include_bytes!("../../../data/digit-classifier.bin");
            Some(Classifier::from_bytes(bytes).expect("the committed classifier file is well formed"))
        })
        .as_ref()
}

#[cfg(not(feature = "digits-data"))]
pub fn embedded_classifier() -> Option<&'static Classifier> {
    None
}
