//! Controls the pages share: sliders and the seed box, the sampling knobs, Solve and Stop,
//! step playback, and the buttons of the samples strip. They know nothing of any one puzzle.

pub mod playback;
pub mod run_stop;
pub mod sample_button;
pub mod sampling;
pub mod slider;
