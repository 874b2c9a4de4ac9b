//! Contact models. Each turns geometry + poses (+ velocities) into contact results.

pub mod hertz;
pub mod model;
mod pose_stiffness;
pub mod pressure_field;
pub mod volume6d;
