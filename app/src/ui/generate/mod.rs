//! `/generate`: GRAM as a generator, p(x) (the GRAM paper, section 3.3). The input is a constant (the
//! blank image, the empty board or grid); press Generate and N samples condense out of the noise over the
//! supervision steps. TRM, the same network without noise, gives one sample however many you ask.

#[cfg(target_arch = "wasm32")]
mod gallery;
pub mod headline;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
mod picture;
#[cfg(target_arch = "wasm32")]
mod state;
pub mod url;

#[cfg(target_arch = "wasm32")]
pub use page::GeneratePage;
