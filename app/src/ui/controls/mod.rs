//! Controls the pages share: sliders and the seed box, the sampling knobs, Solve and Stop,
//! step playback, the buttons of the samples strip and the size switch. They know nothing of any one puzzle.

pub mod playback;
pub mod run_stop;
pub mod sample_button;
pub mod sampling;
pub mod size_switch;
pub mod slider;
