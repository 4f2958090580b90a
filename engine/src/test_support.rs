//! What the engine's unit tests share: the shipped weights, read from the checkout the tests run
//! in (cargo's run-time `CARGO_MANIFEST_DIR`, so a test binary built in another checkout of a
//! shared target directory still reads this one's files; the compile-time value otherwise).

use std::path::PathBuf;

use burn::tensor::Device;

use crate::gram::Gram;
use crate::weights::{Manifest, load_gram};

/// `public/weights` of the checkout the tests run in.
pub fn shipped_dir() -> PathBuf {
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into());
    PathBuf::from(manifest_dir).join("../public/weights")
}

/// The shipped GRAM/TRM `name` (`public/weights/<name>.bpk` with its manifest).
pub fn shipped_gram(name: &str, device: &Device) -> Gram {
    let dir = shipped_dir();
    let manifest = Manifest::from_json(&std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap()).unwrap();
    load_gram(&manifest, &std::fs::read(dir.join(format!("{name}.bpk"))).unwrap(), device).unwrap()
}
