//! Controls the pages share: sliders and the seed box, the sampling knobs, Solve and Stop,
//! step playback, the buttons of the samples strip, the size switch and the paste row. They know nothing of any one puzzle.

pub mod paste_row;
pub mod playback;
pub mod run_stop;
pub mod sample_button;
pub mod sampling;
pub mod size_switch;
pub mod slider;
