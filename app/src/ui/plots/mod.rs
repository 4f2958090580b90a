//! Plots of a run against the number of samples drawn. They share one frame (axes, ticks,
//! legend); each draws its own lines.

pub mod coverage;
pub mod export;
pub mod frame;
pub mod width;
